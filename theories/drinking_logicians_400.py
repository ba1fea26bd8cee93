"""Drinking logicians at SMCDEL's size, on the symbolic engine.

Run: python theories/drinking_logicians_400.py [N [NOT_THIRSTY ...]]

Every logician but those listed as NOT_THIRSTY wants beer (default: all 400).
The knowledge structure has 2^N states; none is ever listed.
"""

import sys
import time

from kop.puzzles import drinking_logicians as dl

n = int(sys.argv[1]) if len(sys.argv) > 1 else 400
dry = {int(x) for x in sys.argv[2:]}
thirsty = [i for i in range(1, n + 1) if i not in dry]

start = time.perf_counter()
ks = dl.structure(n, thirsty)
print(f"{n} logicians, {len(ks.vocabulary)} atoms, 2^{n} states; thirsty: all but {sorted(dry) or 'none'}")
print(f"SMCDEL's check formula (thirstyF) holds here: {ks.satisfies(dl.smcdel_formula(n))}")
print(f"states where it holds: {ks.count(dl.smcdel_formula(n))} (only the one where all want beer)")
r = dl.ask(n, thirsty, symbolic=True)
print(f"answers: {len(r.answers) - 1} x \"I don't know\", then logician {len(r.answers)}: {r.answer}")
print(f"time: {time.perf_counter() - start:.2f} s")
