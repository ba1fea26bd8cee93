"""Beliefs over evaluation functions in a theory: ``A believes E_B among { 0.7: [..]  0.3: [..] }``.

A candidate is written as for ``knows ... among`` (values in the tree's leaf order,
or ``(W1 = 7, ...)`` by leaf label), optionally preceded by its probability
(``0.7:`` or ``7/10:``); either every candidate has one or none has (then they are
equally likely).  Unlike knowledge the actual evaluation need not be among them.
``kop dominates`` and ``ask dominates`` then show the selector under uncertainty
(:func:`kop.outcomes_under_belief`): expected, believed, guaranteed and actual
outcomes of the believer's strategies side by side.

Errors (a candidate of the wrong length, an unknown leaf label, a negative
probability) are located at the candidate or the statement.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from kop.errors import KopError
from kop.theory.model import BeliefSpec
from kop.games.strategies.prom import preorder_leaves
from kop.selection.beliefs import believes_candidates
from kop.selection.beliefs import outcomes_under_belief

__all__ = ["build_beliefs", "belief_tables", "tables_text"]


def _value(x: Any) -> Any:
    return float(x) if isinstance(x, Fraction) else x


def build_beliefs(specs: Sequence[BeliefSpec], tree: Any) -> list[Any]:
    """The ``EvaluationBelief`` values the statements describe, checked against *tree*."""

    n_leaves = len(preorder_leaves(tree))
    labels = {tree.node(int(i)).label for i in preorder_leaves(tree)} - {None}
    out = []
    for spec in specs:
        for who, at in ((spec.knower, spec.knower_pos), (spec.owner, spec.owner_pos)):
            if who not in tree.player_names:
                raise at.error(f"unknown player {who!r} (players {', '.join(tree.player_names)})", who)
        if spec.knower == spec.owner:
            raise spec.pos.error(f"{spec.knower} knows its own evaluation: a belief is about another player's")
        cands: list[Any] = []
        for values, _, pos in spec.candidates:
            if isinstance(values, dict):
                unknown = [k for k in values if k not in labels]
                if unknown:
                    raise pos.error(f"no leaf labelled {unknown[0]!r} in the game", unknown[0])
                cands.append({k: _value(v) for k, v in values.items()})
            else:
                if len(values) != n_leaves:
                    raise pos.error(f"a candidate for E_{spec.owner} needs {n_leaves} values, one per leaf in the "
                                    f"tree's order; this one has {len(values)}", "[")
                cands.append([_value(v) for v in values])
        probs = None
        if spec.candidates and spec.candidates[0][1] is not None:
            probs = [str(p) for _, p, _ in spec.candidates]
        try:
            b = believes_candidates(spec.knower, spec.owner, cands, probs)
            b.resolve(tree)
        except KopError as exc:
            raise spec.pos.error(str(exc)) from None
        out.append(b)
    return out


def belief_tables(tree: Any, specs: Sequence[BeliefSpec], player: str | None = None) -> list[dict[str, Any]]:
    """For each belief held by *player* (every belief when None): the selector under uncertainty, as JSON."""

    out = []
    for spec, b in zip(specs, build_beliefs(specs, tree)):
        if player is not None and spec.knower != player:
            continue
        r = b.resolve(tree)
        out.append({"believer": spec.knower, "owner": spec.owner, "belief_true": r.true,
                    "p_actual": r.p_actual, "probabilities": [float(x) for x in r.probabilities],
                    "strategies": [row.to_json() for row in outcomes_under_belief(tree, b)]})
    return out


def tables_text(tables: Sequence[dict[str, Any]]) -> str:
    """The tables as text, one line per strategy."""
    lines = []
    for t in tables:
        probs = ", ".join(f"{p:.3g}" for p in t["probabilities"])
        truth = "true" if t["belief_true"] else "FALSE (the actual evaluation is not among the candidates)"
        lines.append(f"Under uncertainty: {t['believer']} believes E_{t['owner']} is one of "
                     f"{len(t['probabilities'])} candidates (probabilities {probs}); the belief is {truth}.")
        lines.append(f"  {'strategy':11} {'move':5} {'expected':>14} {'believed':>10} {'guaranteed':>10} "
                     f"{'actual':>10}")
        for row in t["strategies"]:
            def show(v: list[Any]) -> str:
                return "(" + ", ".join(str(x) for x in v) + ")"
            lines.append(f"  {row['strategy']:11} {str(row['move']):5} {show(row['expected']):>14} "
                         f"{show(row['believed']):>10} {show(row['guaranteed']):>10} {show(row['actual']):>10}"
                         + ("" if row["guarantee_holds"] else "  guarantee FAILS against the actual opponent"))
        where = ("in fact: the actual evaluation is among the types" if t["belief_true"] else
                 "in belief only: the actual evaluation is not among the types")
        lines.append(f"  expected: type drawn once with these probabilities; believed: against the most probable "
                     f"type; guaranteed: the worst over the types considered possible -- it holds {where}; "
                     f"actual: against the real E_{t['owner']}.  The paper's dominance theorems need knowledge "
                     f"and are not claimed here.")
    return "\n".join(lines)
