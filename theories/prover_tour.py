"""A tour of kop's prover: validity, countermodels, entailment, levels and cores.

Run it:  python theories/prover_tour.py
"""

import kop
from kop import chains_fragment, f_level, is_core, level

print("-- S5 and common knowledge")
for f in ["K_a p -> K_a K_a p", "~K_a p -> K_a ~K_a p", "C{A,B} E_A -> K_A K_B E_A",
          "C{A,B}(p -> E{A,B} p) -> (p -> C{A,B} p)"]:
    print(f"{f:45} valid: {kop.valid(f).holds}")

print("\n-- everybody knows is not common knowledge; the countermodel:")
v = kop.valid("E{A,B} E_A -> C{A,B} E_A")
m = v.countermodel
for w in m.worlds:
    print(f"   {w}: {sorted(m.valuation(w))}" + ("  (designated)" if w in m.actual else ""))
for a in m.agents:
    print(f"   {a} cannot tell apart: {[list(b) for b in m.partition(a)]}")

print("\n-- announcements")
print("[!p] K_a p valid:", kop.valid("[!p] K_a p").holds, "(announcing an atom makes it known)")
print("Moore: [!(p & ~K_a p)] (p & ~K_a p) valid:", kop.valid("[!(p & ~K_a p)] (p & ~K_a p)").holds)

print("\n-- the four scenarios of Figure 2")
scenarios = [(0, 0), (1, 0), (1, 1), (2, 1)]
for i, (da, db) in enumerate(scenarios, 1):
    la = level(f_level("A", "B", da), "A", "B")
    lb = level(f_level("B", "A", db), "B", "A")
    print(f"level of A in scenario ({i}): {la}; level of B: {lb}")

print("\n-- common knowledge of both evaluations: unbounded level")
print(level(["K_A E_A", "K_A S_A", "C{A,B}(E_A & E_B)"], "A", "B"))

print("\n-- cores over the chains of depth 3 (property (7))")
frag = chains_fragment("A", "B", ["E_A", "E_B", "S_A"], 3)
print("f(A,3) is a core of f(A,3):", bool(is_core(f_level("A", "B", 3), f_level("A", "B", 3), "A", frag)))
c = is_core(f_level("A", "B", 2), f_level("A", "B", 3), "A", frag)
print("f(A,2) is a core of f(A,3):", bool(c), "- missing", [str(f) for f in c.missing])
