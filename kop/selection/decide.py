"""Decided nodes: Algorithm 3 (Decide) of Sang & Chen, with general knowledge.

A node n is *decided* when both players agree on next(n) and value(n).  The
formula D(n), "n is decided", is built bottom-up (SPEC §2.6):

* a leaf: ``true``;
* height 1: ``K_B E_A`` when A moves, ``K_A E_B`` when B moves;
* above: D(c) for the only child, else the conjunction over the children c of
  ``K_B D(c)`` when A moves and ``K_A D(c)`` when B moves (by axiom T this
  includes D(c)).

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

Reference: Sang & Chen, *Beyond Minimax*, Algorithm 3 and Theorems 1-2.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from kop.games.errors import TreeError
from kop.games.tree import GameTree, Node
from kop.syntax.formula import TRUE, Formula, Know, conj
from kop.syntax.levels import evaluation

__all__ = ["decided_formulas", "decide", "Decision", "two_players"]


def two_players(tree: GameTree) -> tuple[str, str]:
    """(first mover, opponent) of a two-player tree without chance nodes; a TreeError otherwise."""
    if len(tree.players) != 2:
        raise TreeError(f"knowledge-based selection needs a two-player tree; this one has "
                        f"{len(tree.players)} players ({', '.join(tree.player_names)})")
    if tree.has_chance:
        raise TreeError("knowledge-based selection handles trees without chance nodes")
    if tree.root.is_leaf:
        raise TreeError("the tree is a single leaf: nobody moves")
    first = tree.root.player
    assert first is not None  # the root is not a leaf
    other = next(p for p in tree.player_names if p != first)
    return first, other


def decided_formulas(tree: GameTree) -> dict[int, Formula]:
    """D(n) for every node index n (shared subformulas, so the total size is linear)."""
    two_players(tree)
    names = tree.player_names
    out: dict[int, Formula] = {}
    for n in sorted(tree.nodes(), key=lambda x: x.height):
        if n.is_leaf:
            out[n.index] = TRUE
            continue
        mover = n.player
        assert mover is not None  # not a leaf
        other = names[1] if mover == names[0] else names[0]
        if n.height == 1:
            out[n.index] = Know(other, evaluation(mover))
            continue
        kids = n.children
        if len(kids) == 1:
            out[n.index] = out[kids[0].index]
            continue
        parts = dict.fromkeys(Know(other, out[c.index]) for c in kids if out[c.index] is not TRUE)
        out[n.index] = conj(parts)
    return out


@dataclass(frozen=True)
class Decision:
    """Which nodes a knowledge base decides, with the agreed next(n) and value(n)."""

    tree: GameTree
    decided: tuple[bool, ...]
    formulas: dict

    def is_decided(self, node) -> bool:
        return self.decided[self.tree.node(node).index]

    def decided_nodes(self) -> list[Node]:
        """The decided internal nodes, in the tree's order."""
        return [n for n in self.tree.nodes() if not n.is_leaf and self.decided[n.index]]

    def formula(self, node) -> Formula:
        """D(node)."""
        return self.formulas[self.tree.node(node).index]

    def __repr__(self) -> str:
        internal = sum(1 for n in self.tree.nodes() if not n.is_leaf)
        return f"Decision(decided={len(self.decided_nodes())} of {internal} internal nodes)"


def decide(tree: GameTree, knowledge: Iterable[Formula | str], *, timeout: float | None = None) -> Decision:
    """Decide every node of *tree* under *knowledge* (formulas true at the actual world).

    Parameters
    ----------
    tree : GameTree
        Two players, no chance nodes; the first mover is the root's player.
    knowledge : formulas or strings
        What is true at the actual world, e.g. ``f_level("A","B",2) + f_level("B","A",1)``.
    timeout : float, optional
        Seconds for each entailment question.
    """
    from kop.reasoning.prover import entails
    from kop.syntax.parser import parse

    ks = tuple(parse(k) if isinstance(k, str) else k for k in knowledge)
    forms = decided_formulas(tree)
    answers: dict[Formula, bool] = {TRUE: True}
    decided = []
    for i in range(len(tree)):
        f = forms[i]
        if f not in answers:
            answers[f] = entails(ks, f, timeout=timeout).holds
        decided.append(answers[f])
    # a node is decided only if its children are (D(n) includes them by axiom T)
    return Decision(tree, tuple(decided), forms)
