"""What is missing for a node to be decided: the formula that does not follow, with a countermodel.

For an undecided node n, D(n) (see :mod:`kop.selection.decide`) does not
follow from the knowledge.  D(n) is a conjunction of knowledge chains
``K_a1 K_a2 ... E_p`` (K distributes over conjunction, and ``K_a K_a = K_a`` in
S5), such as ``K_B E_A`` (B must know A's evaluation to predict A) or
``K_B K_A E_B`` (B must know that A can predict B below).
:func:`missing_knowledge` names, for every such node, the shortest chain
that does not follow (the first of them in D(n)'s order), and the prover's countermodel: a model of the knowledge
where that chain is false at the designated world.  Every countermodel is
checked by the model checker before it is reported.

Example
-------
>>> import kop
>>> from kop.selection.examples import figure2
>>> gaps = missing_knowledge(figure2(), kop.f_level("A", "B", 1) + kop.f_level("B", "A", 0))
>>> [(g.node, str(g.formula)) for g in gaps][:2]
[('root', 'K_B E_A'), ('S', 'K_A K_B E_A')]

Reference: Sang & Chen, *Beyond Minimax*, Algorithm 3.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kop.games.trees.tree import GameTree
from kop.errors import KopError
from kop.syntax.formula import TRUE, And, Formula, Know, Not, conj
from kop.selection.decide import decide
from kop.reasoning.entailment import cached_entails as entails
from kop.selection.evaluations import knowledge_formulas, resolve_all
from kop.syntax.printer import to_ascii

if TYPE_CHECKING:  # pragma: no cover
    from kop.reasoning.verdict import Verdict
    from kop.selection.evaluations import EvaluationKnowledge
    from kop.semantics.model import KripkeModel

__all__ = ["Gap", "missing_knowledge", "chains"]


@dataclass(frozen=True)
class Gap:
    """An undecided node, the formula that does not follow, and a countermodel to it."""

    node: str
    mover: str
    formula: Formula
    decided_formula: Formula
    countermodel: KripkeModel | None

    def to_json(self) -> dict[str, Any]:
        return {"node": self.node, "mover": self.mover, "missing": to_ascii(self.formula),
                "decided_formula": to_ascii(self.decided_formula),
                "countermodel": None if self.countermodel is None else self.countermodel.to_json()}

    def explain(self) -> str:
        size = "" if self.countermodel is None else f" (countermodel: {len(self.countermodel.worlds)} worlds)"
        return f"{self.node} ({self.mover} moves): {to_ascii(self.formula)} does not follow{size}"


def missing_knowledge(tree: GameTree, knowledge: Iterable[Formula | str], *,
                      timeout: float | None = None, evaluations: Iterable[EvaluationKnowledge] | None = None,
                      strict: bool = False) -> list[Gap]:
    """For every undecided internal node of *tree*, in the tree's order, the formula that does not follow.

    Parameters
    ----------
    tree : GameTree
        Two players (chance nodes allowed).
    knowledge : formulas or strings
        What is true at the actual world.
    timeout : float, optional
        Seconds for each prover question.
    evaluations : EvaluationKnowledge values, optional
        Partial knowledge of evaluations (:func:`kop.decide`): D(n) then has
        ``true`` where a statement fixes the mover's choice, and the
        statements' propositional content joins the premises.
    strict : bool
        The stricter reading of Definition 6 (:func:`kop.decide`).
    """
    from kop.syntax.parser import parse

    ks = tuple(parse(k) if isinstance(k, str) else k for k in knowledge)
    evs = tuple(evaluations) if evaluations is not None else ()
    decision = decide(tree, ks, timeout=timeout, evaluations=evs or None, strict=strict)
    if evs:
        ks = ks + knowledge_formulas(tree, resolve_all(tree, evs))
    premise = conj(ks) if ks else TRUE
    cache: dict[Formula, Verdict] = {}
    gaps = []
    for n in tree.nodes():
        if n.is_leaf or decision.decided[n.index]:
            continue
        whole = decision.formulas[n.index]
        for part in sorted(chains(whole), key=_depth):
            if part not in cache:
                cache[part] = entails(ks, part, timeout=timeout)
            v = cache[part]
            if not v.holds:
                model = v.model
                if model is not None and not (model.satisfies(premise) and model.satisfies(Not(part))):
                    raise KopError(f"the prover's countermodel to {part} does not check")  # pragma: no cover
                gaps.append(Gap(n.name, str(n.player), part, whole, model))
                break
    return gaps


def _depth(f: Formula) -> int:
    d = 0
    while isinstance(f, Know):
        d, f = d + 1, f.arg
    return d


def chains(phi: Formula) -> list[Formula]:
    """The knowledge chains whose conjunction is *phi* (a D(n) formula), in order, without repeats.

    >>> from kop.syntax.parser import parse
    >>> [str(c) for c in chains(parse("K_B (K_A (K_B K_A E_B & K_B E_A) & K_A E_B)"))]
    ['K_B K_A K_B K_A E_B', 'K_B K_A K_B E_A', 'K_B K_A E_B']
    """
    def split(f: Formula) -> list[Formula]:
        if isinstance(f, And):
            return [c for g in f.args for c in split(g)]
        if isinstance(f, Know):
            return [c if isinstance(c, Know) and c.agent == f.agent else Know(f.agent, c) for c in split(f.arg)]
        return [f]

    return list(dict.fromkeys(c for c in split(phi) if c != TRUE))
