"""Decided nodes: Algorithm 3 (Decide) of Sang & Chen, corrected, with general knowledge.

A node n is *decided* when both players agree on next(n) and value(n) by what
they know (Definition 6).  The formula D(n), "n is decided", is built
bottom-up (SPEC §2.6 and its erratum):

* a leaf: ``true``;
* a node with a single child c (a forced move), at any height: D(c);
* a chance node: the conjunction of D(c) over its children (the probabilities
  are part of the game, known to both; its value is the expectation);
* otherwise, X moving at n and Y the other player:
  ``K_Y D(c)`` for every child c, and ``K_Y E_X`` (Y must know the mover's
  evaluation to predict its choice).  With partial knowledge of E_X
  (:mod:`kop.selection.evaluations`), ``K_Y E_X`` is replaced by ``true``
  where every candidate of E_X that Y allows makes the same choice at n over
  the children's agreed values.

Algorithm 3 as printed asks ``K_Y E_X`` only at height 1 (also at forced
moves) and never above; that is right for the paper's f-levels on trees
without forced moves (every f-level that contains ``K_B K_A E_B`` contains
``K_B E_A``) and wrong for other knowledge (issue 15).  The *strict* reading
(``strict=True``) also asks the mover to know that its children are decided
(``K_X D(c)``); it differs only where one player moves at two multi-child
levels in a row.  :mod:`kop.selection.reference_decide` is Definition 6 by
brute force on explicit models; the tests check this rule against it.

Node n is decided by a knowledge base (formulas true at the actual world)
when the base entails D(n); the prover answers that, so knowledge may use
disjunctions, common knowledge or announcements, not only the paper's
f-levels.  A decided node takes the M^h choice (Theorem 2).

Example
-------
>>> import kop
>>> from kop.selection.examples import figure2
>>> from kop.selection.decide import decide
>>> d = decide(figure2(), kop.f_level("A", "B", 2) + kop.f_level("B", "A", 1))
>>> sorted(n.label for n in d.decided_nodes() if n.label)
['R', 'T', 'W', 'X', 'Y', 'Z']

Reference: Sang & Chen, *Beyond Minimax*, Definition 6, Algorithm 3 and Theorems 1-2.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from kop.games.errors import TreeError
from kop.games.strategies.engine import remembered
from kop.games.trees.tree import CHANCE, LEAF, GameTree, Node, NodeRef
from kop.syntax.formula import TRUE, Atom, Formula, Know, conj
from kop.syntax.levels import evaluation
from kop.games.trees.checks import tree_argument
from kop.syntax import arguments
from kop.reasoning.entailment import cached_entails as entails
from kop.reasoning.prover import satisfiable
from kop.selection.evaluations import knowledge_formulas, resolve_all, EvaluationError
from kop.syntax.printer import to_ascii

if TYPE_CHECKING:  # pragma: no cover
    from kop.selection.evaluations import EvaluationKnowledge, ResolvedKnowledge

__all__ = ["decided_formulas", "decide", "Decision", "two_players"]


def two_players(tree: GameTree) -> tuple[str, str]:
    """(first mover, opponent) of a two-player tree (chance nodes allowed); a TreeError otherwise."""
    if len(tree.players) != 2:
        raise TreeError(f"knowledge-based selection needs a two-player tree; this one has "
                        f"{len(tree.players)} players ({', '.join(tree.player_names)})")
    if tree.simultaneous:  # Decide and the strategies it ranks are defined for sequential moves
        tree.require_sequential("knowledge-based selection (Decide, select, decided, dominates)")
    if tree.root.is_leaf:
        raise TreeError("the tree is a single leaf: nobody moves")
    movers = tree.kind[(tree.kind >= 0)]
    if not len(movers):
        inner = [i for i in range(len(tree)) if int(tree.kind[i]) not in (LEAF, CHANCE)]
        raise TreeError(_not_sequential(tree, inner[0]) if inner else
                        "nobody moves in this tree: it has only chance nodes and leaves")
    first = tree.player_names[int(tree.kind[0])] if tree.kind[0] >= 0 else tree.player_names[int(movers[0])]
    other = next(p for p in tree.player_names if p != first)
    return first, other


def _not_sequential(tree: GameTree, i: int) -> str:
    return (f"node {tree.path_name(i)} is a simultaneous-move node: Decide handles nodes where one player "
            "moves, chance nodes and leaves")


def decided_formulas(tree: GameTree, fixed: np.ndarray | None = None, *, strict: bool = False) -> dict[int, Formula]:
    """D(n) for every node index n (shared subformulas, so the total size is linear).

    *fixed* (a bool per node) marks the nodes where the other player can predict
    the mover's choice from partial knowledge of the mover's evaluation
    (:meth:`kop.selection.evaluations.ResolvedKnowledge.choice_fixed`): there
    ``K_other E_mover`` is replaced by ``true`` (that knowledge is public, so
    common knowledge).  *strict* also asks the mover to know that each child is
    decided (``K_mover D(c)``).

    >>> import kop
    >>> t = kop.GameTree.build(["A", "B"], ("A", [("B", [(1, 2), (3, 4)]), (0, 0)]))
    >>> kop.to_ascii(decided_formulas(t)[0])
    'K_B K_A E_B & K_B E_A'
    """
    two_players(tree)
    fix = [False] * len(tree) if fixed is None else np.asarray(fixed, dtype=bool).tolist()
    key = ("D(n)", strict, None if fixed is None else tuple(fix))
    # the same formulas for the same tree, so that equal questions are the same objects (cheap to compare)
    return dict(remembered(tree, key, lambda: _decided_formulas(tree, fix, strict)))


def _decided_formulas(tree: GameTree, fix: list[bool], strict: bool) -> dict[int, Formula]:
    names = tree.player_names
    kind, offsets = tree.kind.tolist(), tree.offsets.tolist()
    out: dict[int, Formula] = {}
    # equal formulas of different nodes are made the same object: comparing them is then free
    same: dict[Formula, Formula] = {TRUE: TRUE}
    knows_eval = [Know(names[1 - k], evaluation(names[k])) for k in range(2)]
    for i in np.argsort(tree.heights, kind="stable").tolist():
        k = kind[i]
        if k == LEAF:
            out[i] = TRUE
            continue
        lo, hi = offsets[i], offsets[i + 1]
        if hi - lo == 1:
            out[i] = out[lo]
            continue
        if k == CHANCE:  # the probabilities are part of the game: decided when every child is
            f = conj(dict.fromkeys(out[c] for c in range(lo, hi) if out[c] is not TRUE))
            out[i] = same.setdefault(f, f)
            continue
        if k < 0:
            raise TreeError(_not_sequential(tree, i))
        other = names[1 - k]
        parts: dict[Formula, None] = {}
        for c in range(lo, hi):
            if out[c] is not TRUE:
                parts[Know(other, out[c])] = None
                if strict:
                    parts[Know(names[k], out[c])] = None
        if not fix[i]:
            parts[knows_eval[k]] = None
        f = conj(parts)
        out[i] = same.setdefault(f, f)
    return out


@dataclass(frozen=True)
class Decision:
    """Which nodes a knowledge base decides, with the agreed next(n) and value(n).

    With partial knowledge of evaluations, ``partial_only`` marks the nodes it
    decides that the all-or-nothing reading of the same knowledge (anything
    short of exact counts as nothing) leaves open, and ``evaluations`` holds the
    statements.
    """

    tree: GameTree
    decided: tuple[bool, ...]
    formulas: dict[int, Formula]
    partial_only: tuple[bool, ...] = field(default=())
    evaluations: tuple[EvaluationKnowledge, ...] = field(default=())
    strict: bool = False

    def is_decided(self, node: NodeRef) -> bool:
        return self.decided[self.tree.node(node).index]

    def decided_nodes(self) -> list[Node]:
        """The decided internal nodes, in the tree's order."""
        return [n for n in self.tree.nodes() if not n.is_leaf and self.decided[n.index]]

    def decided_by_partial_knowledge(self) -> list[Node]:
        """The internal nodes partial knowledge decides and all-or-nothing knowledge does not."""
        return [n for n in self.tree.nodes() if self.partial_only and self.partial_only[n.index]]

    def formula(self, node: NodeRef) -> Formula:
        """D(node)."""
        return self.formulas[self.tree.node(node).index]

    def __repr__(self) -> str:
        internal = int(np.count_nonzero(self.tree.kind != LEAF))
        extra = f", by partial knowledge={sum(self.partial_only)}" if self.evaluations else ""
        return f"Decision(decided={len(self.decided_nodes())} of {internal} internal nodes{extra})"

    def _repr_svg_(self) -> str | None:
        """The tree with its decided nodes filled, in Jupyter; None without matplotlib."""
        from kop.drawing.trees import draw_tree
        from kop.drawing.models import repr_svg

        return repr_svg(draw_tree, self.tree, decided=self, title="decided nodes")


def decide(tree: GameTree, knowledge: Iterable[Formula | str], *, timeout: float | None = None,
           evaluations: Iterable[EvaluationKnowledge] | None = None, strict: bool = False) -> Decision:
    """Decide every node of *tree* under *knowledge* (formulas true at the actual world).

    Parameters
    ----------
    tree : GameTree
        Two players, chance nodes allowed; the first mover is the root's player.
    knowledge : formulas or strings
        What is true at the actual world, e.g. ``f_level("A","B",2) + f_level("B","A",1)``.
    timeout : float, optional
        Seconds for each entailment question.
    evaluations : EvaluationKnowledge values, optional
        Partial knowledge of evaluation functions (:func:`kop.knows_candidates`,
        :func:`kop.knows_order`, ...), public and so common knowledge.  At a
        node where A moves, B then predicts A's choice when it is the same, over
        the children's agreed values, under every candidate B considers
        possible, even though B does not know E_A (this replaces ``K_B E_A``);
        :meth:`Decision.decided_by_partial_knowledge` lists the nodes this
        decides that all-or-nothing knowledge leaves open.  An empty list is the
        same as none: the propositional semantics alone.
    strict : bool
        The stricter reading of Definition 6: the mover must also know that
        each child is decided (``K_X D(c)``).

    Returns
    -------
    Decision
        Per node whether it is decided, with the agreed next(n) and value(n) and the formulas
        asked (``decided_nodes()``, ``decided_by_partial_knowledge()``).

    Examples
    --------
    >>> import kop
    >>> t = kop.GameTree.build(["A", "B"], ("B", [("A", [(1, 0), (5, 0)], "x"), ("A", [(3, 0), (2, 0)], "y")]))
    >>> d = kop.decide(t, [], evaluations=[kop.knows_order("B", "A"), kop.knows_exactly("A", "B")])
    >>> [n.name for n in d.decided_nodes()], [n.name for n in d.decided_by_partial_knowledge()]
    (['root', 'x', 'y'], ['root', 'x', 'y'])

    >>> k = kop.f_level("A", "B", 2) + kop.f_level("B", "A", 1)
    >>> [n.name for n in kop.decide(kop.figure2(), k).decided_nodes()]
    ['R', 'T', 'W', 'X', 'Y', 'Z']

    References
    ----------
    T. Sang, J.-H. Chen, *Beyond Minimax: Nonzero-Sum Game Tree Search with Knowledge Oriented
    Players*, Definition 6 and Algorithm 3 (SPEC §2.6 has the erratum).
    """
    tree_argument(tree)

    ks = tuple(arguments.formulas(knowledge, "knowledge"))
    evals = () if evaluations is None else tuple(evaluations)
    if evals:
        return _decide_partial(tree, ks, evals, timeout, strict)
    forms = decided_formulas(tree, strict=strict)
    answers: dict[Formula, bool] = {TRUE: True}
    decided = []
    for i in range(len(tree)):
        f = forms[i]
        if f not in answers:
            answers[f] = entails(ks, f, timeout=timeout).holds
        decided.append(answers[f])
    # a node is decided only if its children are (D(n) includes them by axiom T)
    return Decision(tree, tuple(decided), forms, strict=strict)


#: a knowledge chain K_{a1} K_{a2} ... E_owner: (agent indices, owner index)
Chain = tuple[tuple[int, ...], int]


def required_chains(tree: GameTree, fixed: np.ndarray, *, strict: bool = False) -> list[frozenset[Chain]]:
    """Per node, the knowledge chains whose conjunction is D(n) (with *fixed* nodes' ``K_Y E_X`` dropped).

    ``K_a`` distributes over conjunction and ``K_a K_a = K_a`` in S5, so D(n) is
    equivalent to a conjunction of alternation chains ending in an evaluation
    atom; there are at most 2·(players)·height distinct ones, so deciding every
    node costs a few prover calls and one linear sweep.

    >>> import kop
    >>> t = kop.GameTree.build(["A", "B"], ("A", [("B", [(1, 2), (3, 4)]), (0, 0)]))
    >>> sorted(required_chains(t, np.zeros(len(t), bool))[0])
    [((1,), 0), ((1, 0), 1)]
    """
    kind, offsets = tree.kind.tolist(), tree.offsets.tolist()
    fix = np.asarray(fixed, dtype=bool).tolist()
    n = len(kind)
    empty: frozenset[Chain] = frozenset()
    reqs: list[frozenset[Chain]] = [empty] * n

    def prefix(agent: int, chains: frozenset[Chain]) -> set[Chain]:
        return {(agents if agents[0] == agent else (agent, *agents), owner) for agents, owner in chains}

    for i in np.argsort(tree.heights, kind="stable").tolist():
        if kind[i] == LEAF:
            continue
        lo, hi = offsets[i], offsets[i + 1]
        if hi - lo == 1:
            reqs[i] = reqs[lo]
            continue
        if kind[i] == CHANCE:
            reqs[i] = frozenset().union(*(reqs[c] for c in range(lo, hi)))
            continue
        if kind[i] < 0:
            raise TreeError(_not_sequential(tree, i))
        mover = kind[i]
        other = 1 - mover
        acc: set[Chain] = set()
        for c in range(lo, hi):
            acc |= prefix(other, reqs[c])
            if strict:
                acc |= prefix(mover, reqs[c])
        if not fix[i]:
            acc.add(((other,), mover))
        reqs[i] = frozenset(acc)
    return reqs


def _chain_formula(tree: GameTree, chain: Chain) -> Formula:
    agents, owner = chain
    names = tree.player_names
    f: Formula = Atom(f"E_{names[owner]}")
    for a in reversed(agents):
        f = Know(names[a], f)
    return f


def _decide_partial(tree: GameTree, ks: tuple[Formula, ...], evaluations: tuple[EvaluationKnowledge, ...],
                    timeout: float | None, strict: bool = False) -> Decision:
    two_players(tree)
    resolved = resolve_all(tree, evaluations)
    premises = ks + knowledge_formulas(tree, resolved)
    if ks:
        check_consistent(tree, ks, resolved, timeout)
    fixed = np.zeros(len(tree), dtype=bool)
    atomic = np.zeros(len(tree), dtype=bool)
    for (k, o), r in resolved.items():
        if k != o:
            mine = r.choice_fixed()
            fixed |= mine
            if r.exact:
                atomic |= mine
    knows_exactly = {key for key, r in resolved.items() if r.exact}
    known: dict[Chain, bool] = {}
    by_set: dict[frozenset[Chain], bool] = {}

    def chain_holds(ch: Chain) -> bool:
        if not ks:
            # no other knowledge: the knowing-value model is the product of public candidate
            # sets, where K_a1 ... K_an E_o holds iff every a_i knows E_o exactly
            return all((a, ch[1]) in knows_exactly for a in ch[0])
        return entails(premises, _chain_formula(tree, ch), timeout=timeout).holds

    def holds(req: frozenset[Chain]) -> bool:
        ans = by_set.get(req)
        if ans is None:
            for ch in req:
                if ch not in known:
                    known[ch] = chain_holds(ch)
            ans = by_set[req] = all(known[ch] for ch in req)
        return ans

    decided = np.array([holds(r) for r in required_chains(tree, fixed, strict=strict)], dtype=bool)
    plain = np.array([holds(r) for r in required_chains(tree, atomic, strict=strict)], dtype=bool)
    only = decided & ~plain & (tree.kind != LEAF)
    return Decision(tree, tuple(decided.tolist()), decided_formulas(tree, fixed, strict=strict),
                    tuple(only.tolist()), tuple(r.spec for (k, o), r in sorted(resolved.items()) if k != o), strict)


def check_consistent(tree: GameTree, ks: Sequence[Formula], resolved: Mapping[tuple[int, int], ResolvedKnowledge], timeout: float | None) -> None:
    """An :class:`~kop.errors.EvaluationError` naming the statement that contradicts *ks*."""
    both = tuple(ks) + knowledge_formulas(tree, resolved)
    if satisfiable(conj(both), timeout=timeout).holds:
        return
    if ks and not satisfiable(conj(ks), timeout=timeout).holds:
        raise EvaluationError("the knowledge formulas are inconsistent on their own")
    for key, r in sorted(resolved.items()):
        one = tuple(ks) + knowledge_formulas(tree, {key: r})
        if not satisfiable(conj(one), timeout=timeout).holds:
            shown = "; ".join(to_ascii(f) for f in ks)
            knows = "knows" if r.exact else "does not know"
            raise EvaluationError(f"{r.spec.describe()} contradicts the knowledge formulas ({shown}): it says "
                                  f"that {r.spec.knower} {knows} E_{r.spec.owner}, and that this is common knowledge")
    raise EvaluationError("the partial-knowledge statements contradict the knowledge formulas together")
