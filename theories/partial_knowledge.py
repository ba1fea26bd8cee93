"""Figure 2 with partial knowledge of evaluation functions (SPEC §2.4, docs/selection.md).

Run it:  python theories/partial_knowledge.py

Scenario (4) of the paper has A at level 2 and B at level 1: B knows E_A.  Here B knows E_A
only up to two candidates: the actual one, and one where A prefers (6,10) to (10,3) at X.  Then
the mirror case: A knows only the order of B's outcomes, which decides every node where B moves
at height 1, but no node above (B knows nothing of E_A, so B cannot predict A at U and V: a node
is decided only when both players agree on it, SPEC §2.6 erratum); and both ways, which decides
every node.
"""

import kop
from kop.selection.evaluation_model import KnowingValueModel

t = kop.figure2()
A = [4, 8, 7, 5, 10, 6, 3, 1, 2, 11, 9, 1]       # A's payoffs, leaves left to right (kop.leaf_order)
ALT = [4, 8, 7, 5, 6, 10, 3, 1, 2, 11, 9, 1]     # ... or, for all B can tell, these


def report(title, formulas, evaluations=None):
    s = kop.select(t, formulas, "A", evaluations=evaluations)
    d = s.decision
    talk = s.best_with_communication
    print(f"-- {title}")
    print(f"   levels A = {s.to_json()['level']}, B = {s.to_json()['opponent_level']}")
    print(f"   decided nodes: {' '.join(n.name for n in d.decided_nodes()) or 'none'}")
    if evaluations is not None:
        extra = [n.name for n in d.decided_by_partial_knowledge()]
        print(f"   decided only thanks to partial knowledge: {' '.join(extra) or 'none'}")
    print(f"   recommended: {s.recommended.strategy}, guaranteed {s.recommended.guaranteed}; "
          f"with communication: {talk.outcome if talk else 'none applies'}"
          + (f" (scheme {talk.scheme})" if talk else ""))
    return s


exact = report("scenario (4): B knows E_A", kop.f_level("A", "B", 2) + kop.f_level("B", "A", 1))
two = report("B knows E_A only up to two candidates (A as in (4), minus K_A K_B E_A)",
             kop.f_level("A", "B", 1) + kop.f_level("B", "A", 0),
             [kop.knows_candidates("B", "A", [A, ALT])])
assert (exact.level, exact.opponent_level, exact.recommended.strategy) == (2, 1, "HM0M2")
assert (two.level, two.opponent_level, two.recommended.strategy) == (1, 0, "HM0M1")
assert exact.recommended.guaranteed == two.recommended.guaranteed == (9, 4)
assert [c.scheme for c in two.communication if c.applicable] == ["I"]   # II needs K_B E_A
print("   (B's two candidates give A different choices at U, so B cannot predict A there: B's")
print("    partial knowledge of E_A decides nothing more here, and its levels are those of knowing nothing)")

# the knowing-value model: worlds carry A's candidate evaluations; B cannot tell them apart
evals = [kop.knows_candidates("B", "A", [A, ALT]), kop.knows_exactly("A", "B")]
m = kop.evaluation_model(t, evals)
print(f"\n-- the knowing-value model: {m}")
for f in ["K_A E_B", "K_B E_A", "M_B E_A", "K_A ~K_B E_A", "C{A,B} ~K_B E_A"]:
    print(f"   {f:18} {m.satisfies(f)}")
assert m.satisfies("K_A E_B & ~K_B E_A & C{A,B} ~K_B E_A")

print()
none = report("scenario (1): nobody knows the other's evaluation", kop.f_level("A", "B", 0) + kop.f_level("B", "A", 0))
order = report("scenario (1), but A knows the order of B's outcomes",
               kop.f_level("A", "B", 0) + kop.f_level("B", "A", 0), [kop.knows_order("A", "B")])
assert none.recommended.guaranteed == (4, 7)
assert [n.name for n in order.decision.decided_by_partial_knowledge()] == ["R", "T", "W", "X", "Y", "Z"]
assert order.recommended.strategy == "minimax" and order.recommended.guaranteed == (4, 7)
both = report("scenario (1), but each knows the order of the other's outcomes",
              kop.f_level("A", "B", 0) + kop.f_level("B", "A", 0), [kop.knows_order("A", "B"), kop.knows_order("B", "A")])
assert both.level == 0 and both.recommended.strategy == "Mh" and both.recommended.guaranteed == (10, 3)
assert len(both.decision.decided_by_partial_knowledge()) == 10
within = report("scenario (1), but A knows B's payoffs within ±1",
                kop.f_level("A", "B", 0) + kop.f_level("B", "A", 0), [kop.knows_within("A", "B", 1)])
assert [n.name for n in within.decision.decided_by_partial_knowledge()] == ["R", "W", "X", "Z"]   # not U: B knows nothing of E_A

# the same answers by model checking the corrected Decide on the knowing-value model
kv = KnowingValueModel.build(t, [kop.knows_within("A", "B", 1), kop.knows_nothing("B", "A")])
assert [t.node(int(i)).name for i in kv.decided().nonzero()[0] if not t.node(int(i)).is_leaf] == \
    ["R", "W", "X", "Z"]
print("\nall checks passed")
