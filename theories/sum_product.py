"""Freudenthal's sum and product.  Run: python theories/sum_product.py [BOUND]"""

import sys

from kop.puzzles import sum_product as sp

bound = int(sys.argv[1]) if len(sys.argv) > 1 else 100
m = sp.model(bound)
print(f"pairs 1 < x < y, x + y <= {bound}: {len(m)}")
names = ['S: "I know that you don\'t know the numbers"', 'P: "Now I know them"', 'S: "Now I know them too"']
for name, phi in zip(names, sp.statements(bound)):
    m = m.announce(phi)
    print(f"{name:<46} -> {len(m)} pairs left")
print("solution:", sorted(sp.pair_of(w) for w in m.worlds))
