"""Figures: Algorithm 3 as printed and the corrected Decide against Definition 6 (issue 15).

Usage::

    python benchmarks/decide_reference.py              # 500 random cases (a few minutes)
    python benchmarks/decide_reference.py --n 1500 --seed 1

Each case is a random small two-player tree (alternating or not, some forced
moves, some chance nodes) and random knowledge: the paper's f-levels, random
sets of K-chains over E_A/E_B/S_A/S_B, disjunctions of chains, common
knowledge, or partial-knowledge statements of every kind.  For every internal
node it establishes whether Definition 6 holds with
:mod:`kop.selection.reference_decide`:

* partial knowledge: the reference on the product of the candidates (exact);
* formulas: a node the corrected Decide decides must be decided in every model
  of the knowledge with up to 2-3 worlds (reference), and a node it leaves open
  must be undecided, by the reference, in the prover's countermodel to D(n)
  (a model of the knowledge where Definition 6 fails).  Any disagreement is
  counted as "corrected rule disagrees" (expected 0).

It then counts, on the trees without chance nodes (which Algorithm 3 and kop's
Decide before issue 15 refused), the nodes where Algorithm 3 as printed (``K_Y E_X`` only at
height 1, forced moves included, ``K_Y D(c)`` above; with partial knowledge,
choices fixed at height 1 only) decides wrongly or misses, overall and on the
f-levels alone.  Also the stricter reading (``strict=True``) against the
strict reference.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

import numpy as np

import kop
from kop.reasoning.prover import entails
from kop.selection.decide import decide
from kop.selection.evaluations import leaf_order, resolve_all
from kop.selection.reference_decide import decided_in_model, reference_decide
from kop.syntax import formula as F
from kop.syntax.levels import evaluation, f_level

ATOMS = ["E_A", "E_B", "S_A", "S_B"]


def random_tree(rng: random.Random) -> kop.GameTree:
    alternate = rng.random() < 0.5

    def node(depth: int, mover: int):
        if depth > 0 and (depth >= 4 or rng.random() < 0.3):
            return (rng.randint(0, 5), rng.randint(0, 5))
        k = rng.choice([1, 2, 2, 2, 3]) if depth > 0 else rng.choice([2, 3])
        if depth > 0 and rng.random() < 0.1:
            ps = [1 / k] * k
            return {"chance": ps, "children": [node(depth + 1, mover) for _ in range(k)]}
        who = mover if alternate else rng.randint(0, 1)
        return {"player": "AB"[who], "children": [node(depth + 1, 1 - who) for _ in range(k)]}

    while True:
        t = kop.GameTree.build(["A", "B"], node(0, 0), goals=rng.choice(["paper", "max"]))
        if t.n_leaves <= 7:
            return t


def chain(rng: random.Random) -> F.Formula:
    f: F.Formula = F.Atom(rng.choice(ATOMS))
    for _ in range(rng.randint(1, 4)):
        f = F.Know(rng.choice("AB"), f)
    return f


def random_knowledge(rng: random.Random, t: kop.GameTree):
    """(kind, formulas, statements)."""
    kind = rng.choice(["levels", "chains", "disjunctions", "common", "partial"])
    if kind == "levels":
        return kind, tuple(f_level("A", "B", rng.randint(0, 4)) + f_level("B", "A", rng.randint(0, 4))), ()
    if kind == "chains":
        return kind, tuple(chain(rng) for _ in range(rng.randint(0, 6))), ()
    if kind == "disjunctions":
        return kind, tuple(F.Or(chain(rng), chain(rng)) if rng.random() < 0.5 else chain(rng)
                           for _ in range(rng.randint(1, 5))), ()
    if kind == "common":
        return kind, tuple(F.Common(("A", "B"), chain(rng) if rng.random() < 0.5 else F.Atom(rng.choice(ATOMS)))
                           if rng.random() < 0.5 else chain(rng) for _ in range(rng.randint(1, 4))), ()
    out = []
    rows = t.leaf_rows()
    for knower, owner in (("B", "A"), ("A", "B")):
        o = t.player_index(owner)
        actual = [float(t.payoffs[rows[i], o]) for i in leaf_order(t)]
        k = rng.choice(["none", "exact", "nothing", "candidates", "order", "within", "subtree"])
        if k == "exact":
            out.append(kop.knows_exactly(knower, owner))
        elif k == "nothing":
            out.append(kop.knows_nothing(knower, owner))
        elif k == "order":
            out.append(kop.knows_order(knower, owner))
        elif k == "within":
            out.append(kop.knows_within(knower, owner, rng.choice([0.5, 1, 2])))
        elif k == "subtree":
            out.append(kop.knows_on_subtree(knower, owner, rng.randrange(len(t))))
        elif k == "candidates":
            cands = [actual] + [[rng.randint(0, 5) for _ in actual] for _ in range(rng.randint(1, 3))]
            rng.shuffle(cands)
            out.append(kop.knows_candidates(knower, owner, cands))
    return kind, (), tuple(out)


def algorithm3_as_printed(t: kop.GameTree, ks, evs) -> list[bool]:
    """Algorithm 3 as printed (and kop's Decide before issue 15)."""
    names = t.player_names
    fixed = np.zeros(len(t), bool)
    exact = set()
    if evs:
        for (k, o), r in resolve_all(t, evs).items():
            if k != o:
                fixed |= r.fixed
            if r.exact:
                exact.add((k, o))
    out: dict[int, F.Formula] = {}
    for i in np.argsort(t.heights, kind="stable").tolist():
        n = t.node(i)
        if n.is_leaf:
            out[i] = F.TRUE
        elif n.is_chance:
            out[i] = F.conj(dict.fromkeys(out[c.index] for c in n.children if out[c.index] != F.TRUE))
        elif n.height == 1:
            out[i] = F.TRUE if fixed[i] else F.Know(names[1 - int(t.kind[i])], evaluation(n.player))
        elif len(n.children) == 1:
            out[i] = out[n.children[0].index]
        else:
            other = names[1 - int(t.kind[i])]
            out[i] = F.conj(dict.fromkeys(F.Know(other, out[c.index]) for c in n.children if out[c.index] != F.TRUE))
    if evs:  # no formulas: K_a1 ... K_an E_o holds iff every a_i knows E_o exactly (public statements)
        def chains(f):
            if f == F.TRUE:
                return set()
            if isinstance(f, F.Atom):
                return {((), f.name[2:])}
            if isinstance(f, F.And):
                return set().union(*(chains(g) for g in f.args))
            assert isinstance(f, F.Know)
            return {((f.agent, *ag), o) for ag, o in chains(f.arg)}

        return [all((names.index(a), names.index(o)) in exact for ag, o in chains(out[i]) for a in ag)
                for i in range(len(t))]
    return [entails(ks, out[i]).holds for i in range(len(t))]


def truth(t, ks, evs, strict, tally):
    """Definition 6 per node, established by the reference (see the module docstring)."""
    if evs:
        return reference_decide(t, evaluations=evs, strict=strict)
    got = decide(t, ks, strict=strict)
    small = reference_decide(t, ks, strict=strict)
    out = []
    for n in t.nodes():
        if got.decided[n.index]:
            if not small[n.index]:
                tally["corrected rule disagrees"] += 1
            out.append(bool(small[n.index]))
        else:
            v = entails(ks, got.formula(n))
            undecided = v.model is not None and not decided_in_model(t, v.model, strict=strict)[n.index]
            if not undecided:
                tally["corrected rule disagrees"] += 1
            out.append(not undecided)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=500, help="random cases (default 500)")
    ap.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    ap.add_argument("--quick", action="store_true", help="small sizes, one run: seconds (a smoke test, no measurement)")
    args = ap.parse_args()
    if args.quick:
        args.n = 20
    rng = random.Random(args.seed)
    tally: Counter = Counter()
    t0 = time.time()
    for _ in range(args.n):
        t = random_tree(rng)
        kind, ks, evs = random_knowledge(rng, t)
        ref = truth(t, ks, evs, False, tally)
        new = decide(t, ks, evaluations=evs or None).decided
        old = None if t.has_chance else algorithm3_as_printed(t, ks, evs)
        strict_ref = truth(t, ks, evs, True, tally)
        strict_new = decide(t, ks, evaluations=evs or None, strict=True).decided
        for n in t.nodes():
            if n.is_leaf:
                continue
            i = n.index
            tally["nodes"] += 1
            tally["corrected rule disagrees"] += new[i] != ref[i]
            tally["strict rule disagrees with the strict reference"] += strict_new[i] != strict_ref[i]
            tally["decided (Definition 6)"] += ref[i]
            tally["differs under the strict reading"] += strict_ref[i] != ref[i]
            if t.has_chance:  # Algorithm 3 (and kop's Decide before issue 15) refused chance trees
                tally["nodes of chance trees"] += 1
                continue
            tally["nodes of trees without chance (Algorithm 3 compared)"] += 1
            tally[f"nodes of trees without chance ({kind})"] += 1
            if old[i] and not ref[i]:
                tally["Algorithm 3 decided wrongly"] += 1
                tally[f"Algorithm 3 decided wrongly ({kind})"] += 1
            if ref[i] and not old[i]:
                tally["Algorithm 3 missed"] += 1
                tally[f"Algorithm 3 missed ({kind})"] += 1
                if len(n.children) == 1:
                    tally[f"Algorithm 3 missed at forced moves ({kind})"] += 1
    print(f"{args.n} random cases (seed {args.seed}), {time.time() - t0:.0f} s")
    for key in sorted(tally):
        print(f"  {key:60} {tally[key]}")


if __name__ == "__main__":
    main()
