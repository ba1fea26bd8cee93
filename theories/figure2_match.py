"""Figure 2 of Sang & Chen as matches between agents with knowledge (SPEC §3.4, docs/agents.md).

Run it:  python theories/figure2_match.py

1. scenario (4), A knows f(A,2) and B knows f(B,1), no communication: A plays HM0M^2, outcome (9,4);
2. the same with communication: A announces E_A & E_B (scheme I), both play M^h, outcome (10,3);
3. scenario (3) with both agents forced to play M^1: outcome (3,8), worse for both than minimax's (4,7).
"""

import kop

game = kop.figure2_game()
A = kop.Agent("A", knowledge=kop.f_level("A", "B", 2))
B = kop.Agent("B", knowledge=kop.f_level("B", "A", 1))
A1 = kop.Agent("A", knowledge=kop.f_level("A", "B", 1), strategy="M1")
B1 = kop.Agent("B", knowledge=kop.f_level("B", "A", 1), strategy="M1")

for title, match in [("Scenario (4), no communication", kop.Match(game, [A, B])),
                     ("Scenario (4), with communication", kop.Match(game, [A, B], communication=True)),
                     ("Scenario (3), both forced to M^1", kop.Match(game, [A1, B1]))]:
    result = match.play()
    print(f"== {title}")
    print(result.explain())
    print()
