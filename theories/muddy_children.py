"""The muddy children, step by step.  Run: python theories/muddy_children.py [N [MUDDY ...]]

Example: ``python theories/muddy_children.py 5 1 3 4`` (five children, 1, 3 and 4 muddy).
"""

import sys

from kop.puzzles import muddy_children as mc

n = int(sys.argv[1]) if len(sys.argv) > 1 else 4
muddy = [int(x) for x in sys.argv[2:]] or [1, 2]

m = mc.model(n, muddy)
print(f"{n} children, muddy: {muddy}; {len(m)} worlds")
m = m.announce(mc.at_least_one(n))
print(f'father: "at least one of you is muddy"  -> {len(m)} worlds')
for question in range(1, n + 2):
    knowers = [i for i in range(1, n + 1) if m.satisfies(mc.knows_own_state(i))]
    print(f"question {question}: {'children ' + str(knowers) + ' know' if knowers else 'nobody knows'}")
    if len(knowers) == n:
        break
    m = m.announce(mc.answers(n, knowers))
    print(f"  announced: {mc.answers(n, knowers)}  -> {len(m)} worlds")
