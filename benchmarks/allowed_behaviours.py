"""Figures: the selector's claims over the allowed behaviours (issue 29), against the old reading and the reference.

Usage::

    python benchmarks/allowed_behaviours.py                 # 1,000 random trees (about a minute)
    python benchmarks/allowed_behaviours.py --n 5000 --seed 1
    python benchmarks/allowed_behaviours.py --quick         # 60 trees, seconds

Each case is a random two-player tree (``kop.random_tree``: depth 3-5, branching 1-3,
alternating or not, distinct payoffs) with the paper's f-levels (A's level 0-3, B's at most
A's).  For every candidate with a guarantee it compares:

* **selfish** -- kop's allowed behaviours (:mod:`kop.selection.behaviours`: the opponent moves
  selfishly by its evaluation where A knows it, agreed moves at decided nodes, agreed
  predictions where A knows them);
* **free** -- the reading before issue 29: the agreed move at decided nodes, any move elsewhere.

It counts the guarantees the free reading put lower than the definitions allow, the dominance
claims it reported to fail though they hold, and the recommendations that change.  Then, on the
trees with at most 6 leaves, it checks every guarantee and verdict against the brute-force
reference (:mod:`kop.selection.reference_claims`; mismatches expected 0) and reports the CPU
time of the selector's verification against the reference's enumeration, and of the selfish
computation against the free one, with their ratios.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

import kop
from kop.selection.behaviours import Behaviours, outcomes_against_allowed
from kop.selection.reference_claims import claim_setting, reference_claims
from kop.syntax.levels import f_level


def _free_guarantees(t: kop.GameTree, s: kop.Selection, strategies: dict) -> dict[str, float]:
    """A's worst value per strategy, Q fixed at decided nodes and free elsewhere (the old reading)."""
    mh = kop.mh(t).next_array
    q = s.opponent
    fixed = {n.index: int(mh[n.index]) for n in s.decision.decided_nodes() if n.player == q}
    names = list(strategies)
    table = outcomes_against_allowed(Behaviours(t, q, fixed), [strategies[n] for n in names], s.player)
    me = t.player_index(s.player)
    sign = t.players[me].sign
    return {n: float(sign * table[:, k, me].min()) for k, n in enumerate(names)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=1000, help="random trees (default 1000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quick", action="store_true", help="60 trees: a smoke run of a few seconds")
    args = ap.parse_args()
    n = 60 if args.quick else args.n
    rng = random.Random(args.seed)
    counts = dict(trees=0, guarantees=0, lower=0, claims=0, false_fail=0, still_fail=0, rec_changed=0,
                  ref_trees=0, ref_guarantees=0, ref_mismatch=0)
    t_sel = t_free = t_fast = t_ref = 0.0
    for _ in range(n):
        t = kop.random_tree(depth=rng.randint(3, 5), branching=(1, 3), leaf_prob=0.15, distinct=True,
                            movers=rng.choice(["alternate", "random"]), seed=rng.randrange(10**9), goals="paper")
        if t.root.is_leaf or t.root.player != "A" or len(set(t.kind.tolist()) & {0, 1}) < 2:
            continue
        da = rng.randint(0, 3)
        ks = f_level("A", "B", da) + f_level("B", "A", rng.randint(0, da))
        # unverified first: the verified run then finds the levels and Decide's answers remembered,
        # and what it adds is the verification (its own prover questions included)
        kop.select(t, ks, "A", verify=False)
        c0 = time.process_time()
        s = kop.select(t, ks, "A")
        t_sel += time.process_time() - c0
        strategies = {c.strategy: kop.strategy(t, c.strategy, "A") for c in s.candidates if c.guaranteed is not None}
        c3 = time.process_time()
        free = _free_guarantees(t, s, strategies)
        t_free += time.process_time() - c3
        counts["trees"] += 1
        me, sign = 0, t.players[0].sign
        for c in s.candidates:
            if c.guaranteed is None:
                continue
            counts["guarantees"] += 1
            counts["lower"] += free[c.strategy] < sign * c.guaranteed[me] - 1e-9
            for other, holds in c.claims:
                counts["claims"] += 1
                if not holds:
                    counts["still_fail"] += 1
        # the old verdicts: dominance over the free behaviours
        mh = kop.mh(t).next_array
        fixed = {nd.index: int(mh[nd.index]) for nd in s.decision.decided_nodes() if nd.player == "B"}
        for c in s.candidates:
            for other, holds in c.claims:
                if holds:
                    tab = outcomes_against_allowed(Behaviours(t, "B", fixed), [strategies[c.strategy], strategies[other]], "A")
                    if np.any(sign * tab[:, 0, me] < sign * tab[:, 1, me] - 1e-12):
                        counts["false_fail"] += 1
        old_scores = [(free[c.strategy], c) for c in s.candidates if c.applicable and c.strategy in free]
        best = max(x for x, _ in old_scores)
        old_rec = next(c for x, c in old_scores if x == best)
        counts["rec_changed"] += old_rec.strategy != s.recommended.strategy
        if t.n_leaves <= 6:
            c4 = time.process_time()
            setting = claim_setting(t, ks)
            ref = reference_claims(t, strategies=strategies, setting=setting)
            t_ref += time.process_time() - c4
            c5 = time.process_time()
            kop.select(t, ks, "A")          # levels, Decide and K_A D(n) remembered: the tables alone
            t_fast += time.process_time() - c5
            counts["ref_trees"] += 1
            if setting.decided != tuple(s.decision.decided):
                continue
            for c in s.candidates:
                if c.guaranteed is None:
                    continue
                counts["ref_guarantees"] += 1
                bad = abs(ref.guaranteed(c.strategy)[me] - c.guaranteed[me]) > 1e-9
                bad |= any(h is not None and h != ref.dominates(c.strategy, o) for o, h in c.claims)
                counts["ref_mismatch"] += bad
    c = counts
    print(f"random trees: {c['trees']} (seed {args.seed}), guarantees: {c['guarantees']}, dominance claims: {c['claims']}")
    print(f"guarantees the free reading put lower than the definitions allow: {c['lower']} "
          f"({100 * c['lower'] / max(c['guarantees'], 1):.1f}%)")
    print(f"claims the free reading reported to FAIL that hold over the allowed behaviours: {c['false_fail']}; "
          f"claims that fail over the allowed behaviours: {c['still_fail']}")
    print(f"recommendations that change: {c['rec_changed']}")
    print(f"against the brute-force reference ({c['ref_trees']} trees with <= 6 leaves): "
          f"{c['ref_guarantees']} candidates, {c['ref_mismatch']} mismatches")
    print(f"CPU time, select with its verification after an unverified run (the prover's K_A D(n), K_A E_B "
          f"and the selfish tables): {t_sel:.2f} s; the free tables alone: {t_free:.2f} s; "
          f"ratio {t_sel / max(t_free, 1e-9):.1f}x")
    print(f"CPU time on the small trees, reference (models + enumeration): {t_ref:.2f} s; select again "
          f"(answers remembered): {t_fast:.2f} s; ratio {t_ref / max(t_fast, 1e-9):.1f}x")


if __name__ == "__main__":
    main()
