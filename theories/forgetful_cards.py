"""A card game where one player forgets: information sets as knowledge (docs/imperfect-information.md).

Run it:  python theories/forgetful_cards.py

Chance deals Ann High or Low; Ann looks and bets or passes; Bob, who sees the bet but not the card,
calls or folds; after a call Ann moves again, having forgotten her card
(theories/forgetful_cards.efg).  The script prints what each player knows where, the recall report
(Ann forgets what she knew; Bob has perfect recall), the formula that fails, and Bob's belief after
a bet when Ann bluffs with Low a quarter of the time.
"""

from pathlib import Path

import kop

game = kop.load_game(Path(__file__).with_name("forgetful_cards.efg"))
model = kop.game_model(game, sets="all")
name = game.node_name

print(game)
for s in game.sets:
    print(f"  {s.player}'s information set {s.number}: {', '.join(name(x) for x in s.nodes)}")

print("\nWhat Ann knows about her card at her moves:")
for x in sorted(model.truth_set("turn_Ann"), key=lambda w: int(w[1:])):
    knows = [c for c in ("High", "Low") if model.satisfies(f"K_Ann chance_{c}", x)]
    print(f"  {name(int(x[1:])):<15} {'knows ' + knows[0] if knows else 'does not know it'}")

for player in game.players:
    report = kop.recall_report(game, player)
    print(f"\n{player}: {'perfect recall' if report.perfect_recall else 'imperfect recall: ' + ', '.join(report.kinds)}")
    for w in report.witnesses:
        print(f"  {w.kind}: nodes {w.nodes[0]} and {w.nodes[1]}; forgot {w.forgotten}")
        failing = sorted(int(x[1:]) for x in model.truth_set(f"~({w.formula})"))   # checked on the game model
        print(f"  formula {w.formula} fails at {', '.join(name(x) for x in failing)}")

high, bob, low = game.sets[0], game.sets[1], game.sets[3]
beliefs, reached = kop.beliefs(game, bob, {high: [1, 0], low: [0.25, 0.75]})
print("\nAnn always bets with High and bluffs with Low a quarter of the time:")
print(f"  Bob's information set is reached with probability {reached}")
for x, p in beliefs.items():
    print(f"  Bob's belief in {name(x)}: {p:.2f}")
