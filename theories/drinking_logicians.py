"""Drinking logicians.  Run: python theories/drinking_logicians.py [N [THIRSTY ...]]"""

import sys

from kop.puzzles import drinking_logicians as dl

n = int(sys.argv[1]) if len(sys.argv) > 1 else 3
thirsty = [int(x) for x in sys.argv[2:]] or None
r = dl.ask(n, thirsty)
print(f'Bartender: "Does everyone want beer?"  (thirsty: {list(r.thirsty)})')
for i, said in enumerate(r.answers, 1):
    print(f"  logician {i}: {said}")
