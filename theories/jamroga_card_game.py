"""Jamroga's imaginary card game (KI 2001, §3.3): what the players know, and what it is worth.

Run: python theories/jamroga_card_game.py [N_CARDS C_PER_HAND [GAMES]]

n cards, c per hand; a player may lead only his lowest or highest card and the opponent sees
only which.  The deal is the possible world; each player knows his own hand, which is an S5
partition, so the logic side answers questions about the deal.  Then gvm (the "reasonably
good defense": MIN plays his best given what he actually knows) plays MC and vm (which
assume MIN knows the deal) on a few random games, each played in every world.
"""

import sys

import kop
from kop.worlds.generators import card_atoms

n = int(sys.argv[1]) if len(sys.argv) > 1 else 7
c = int(sys.argv[2]) if len(sys.argv) > 2 else 3
games = int(sys.argv[3]) if len(sys.argv) > 3 else 20

g = kop.card_game(n, c, seed=0)
print(f"card game n={n}, c={c}: {g.n_worlds} deals, tree depth {g.depth}")
actual = g.worlds[0]
m = g.kripke(actual=actual, valuation=card_atoms(n, c))
print(f"actual deal {actual} (MAX's cards | MIN's cards)")
for question in ("K_MAX max_1", "K_MIN max_1", "K_MIN ~min_1", "C{MAX,MIN} ~(max_1 & min_1)",
                 f"K_MIN (max_1 | max_{n})"):
    print(f"  {question:<32} {m.satisfies(question)}")

for rival in ("MC", "vm"):
    diffs = []
    for i in range(games):
        game = kop.card_game(n, c, seed=i, first="MAX" if i % 2 == 0 else "MIN")
        a, b = kop.play_round(game, "gvm", rival, "worlds")
        diffs.append(a - b)
    triumph, payoff = kop.supremacy(diffs)
    print(f"gvm vs {rival} over {games} games: triumph supremacy {triumph:.1f}%, "
          f"payoff supremacy {payoff:.1f} per 1000 rounds")
