"""Partial knowledge of evaluation functions in a theory: statements to ``kop.knows_*`` values.

=====================================  ===================================
theory                                 library
=====================================  ===================================
``B knows E_A exactly``                ``kop.knows_exactly("B", "A")``
``B knows nothing of E_A``             ``kop.knows_nothing("B", "A")``
``B knows E_A among { [..] [..] }``    ``kop.knows_candidates("B", "A", [...])``
``B knows order of E_A``               ``kop.knows_order("B", "A")``
``B knows E_A within 1``               ``kop.knows_within("B", "A", 1)``
``B knows E_A on S``                   ``kop.knows_on_subtree("B", "A", "S")``
=====================================  ===================================

A candidate is the owner's value at every leaf, in the tree's leaf order
(``[4, 8, 7, ...]``), or a list ``(W1 = 7, W2 = 5, ...)`` by leaf label.
Errors (a candidate with the wrong number of values, candidates that exclude
the actual evaluation, an unknown node) are located at the candidate.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from kop.errors import KopError, ParseError
from kop.theory.model import PartialSpec
from kop.selection.evaluations import leaf_order

__all__ = ["build_evaluations"]


def _value(x: Any) -> Any:
    return float(x) if isinstance(x, Fraction) else x


def build_evaluations(specs: Sequence[PartialSpec], tree: Any) -> list[Any]:
    """The ``EvaluationKnowledge`` values the statements describe, checked against *tree*."""
    import kop

    out = []
    for spec in specs:
        try:
            owner = tree.player_index(spec.owner)
        except KopError as exc:
            raise spec.owner_pos.error(str(exc), spec.owner) from None
        try:
            tree.player(spec.knower)
        except KopError as exc:
            raise spec.knower_pos.error(str(exc), spec.knower) from None
        try:
            if spec.kind == "exactly":
                out.append(kop.knows_exactly(spec.knower, spec.owner))
            elif spec.kind == "nothing":
                out.append(kop.knows_nothing(spec.knower, spec.owner))
            elif spec.kind == "order":
                out.append(kop.knows_order(spec.knower, spec.owner))
            elif spec.kind == "within":
                out.append(kop.knows_within(spec.knower, spec.owner, _value(spec.data)))
            elif spec.kind == "subtree":
                tree.node(spec.data)
                out.append(kop.knows_on_subtree(spec.knower, spec.owner, spec.data))
            else:
                out.append(kop.knows_candidates(spec.knower, spec.owner, _candidates(spec, tree, owner)))
        except ParseError:
            raise
        except KopError as exc:
            raise spec.pos.error(str(exc)) from None
    return out


def _candidates(spec: PartialSpec, tree: Any, owner: int) -> list[Any]:

    leaves = [tree.node(int(i)) for i in leaf_order(tree)]
    labels = {n.label: n for n in leaves if n.label}
    actual = [n.payoff[owner] for n in leaves]
    cands: list[Any] = []
    for values, pos in spec.data:
        if isinstance(values, dict):
            unknown = [k for k in values if k not in labels]
            if unknown:
                raise pos.error(f"no leaf labelled {unknown[0]!r} in the game", unknown[0])
            cands.append({k: _value(v) for k, v in values.items()})
            continue
        if len(values) != len(leaves):
            raise pos.error(f"a candidate for E_{spec.owner} needs {len(leaves)} values, one per leaf in the "
                            f"tree's order; this one has {len(values)}", "[")
        cands.append([_value(v) for v in values])
    full = [c for c in cands if isinstance(c, list)]
    if full and all(c != actual for c in full) and len(full) == len(cands):
        raise spec.pos.error(f"the candidates exclude the actual E_{spec.owner} "
                             f"{actual}: the actual evaluation must be among them")
    return cands
