"""The knowing-value model of partial knowledge of evaluations, as a Kripke model (SPEC §2.4).

Worlds carry candidate evaluation functions, one per player, and whether each
player's strategy is the actual one; each player's partition says which worlds
it cannot tell apart: a player knows its own evaluation and strategy, and
cannot tell apart the candidates for the other's evaluation that its
knowledge (:mod:`kop.selection.evaluations`) leaves open.  The atom ``E_A``
holds at a world whose A-candidate is A's actual evaluation, so ``K_B E_A``
holds iff every world B considers possible has A's actual evaluation.

An infinite candidate set (order, interval, subtree, nothing) is represented
by finitely many *witness* candidates
(:meth:`~kop.selection.evaluations.ResolvedKnowledge.witnesses`) that realize
every distinction the model speaks of: whether the evaluation is the actual
one, and each choice of the owner at a node of height 1.  Pairs of players
with no statement are read as knowing nothing of each other's evaluation.

:class:`KnowingValueModel` also decides the nodes of the tree and computes the
levels directly on the model (by model checking), independently of the prover
path of :func:`kop.decide`; the tests check that the two agree.

Example
-------
>>> import kop
>>> t = kop.figure2()
>>> m = kop.evaluation_model(t, [kop.knows_exactly("A", "B"), kop.knows_order("B", "A")])
>>> m
KripkeModel(worlds=8, agents=('A', 'B'), actual=('a0.b0.s11',))
>>> m.satisfies("K_A E_B & ~K_B E_A & K_B ~K_A S_B")
True
>>> KnowingValueModel.build(t, [kop.knows_exactly("A", "B")]).levels()
(1, 0)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from kop.games.trees.tree import LEAF, GameTree
from kop.selection.decide import two_players
from kop.selection.evaluations import EvaluationKnowledge, ResolvedKnowledge, knows_nothing, resolve_all
from kop.semantics.model import KripkeModel
from kop.errors import LimitError
from kop.syntax.formula import And, Atom, Common, conj
from kop.syntax.levels import chain, f_level
from kop.games.trees.checks import tree_argument

__all__ = ["evaluation_model", "KnowingValueModel", "MAX_WORLDS"]

#: the largest knowing-value model built
MAX_WORLDS = 200_000


def evaluation_model(tree: GameTree, evaluations: Iterable[EvaluationKnowledge]) -> KripkeModel:
    """The knowing-value Kripke model of *evaluations* on a two-player *tree* (see the module docstring).

    World ``a{i}.b{j}.s{x}{y}`` has A's i-th and B's j-th candidate (0 is the
    actual one) and strategy bits x, y; the actual world is ``a0.b0.s11``.
    Atoms: ``E_A``, ``E_B``, ``S_A``, ``S_B``.

    >>> import kop
    >>> m = kop.evaluation_model(kop.figure2(), [kop.knows_exactly("A", "B"), kop.knows_exactly("B", "A")])
    >>> m.satisfies("C{A,B}(E_A & E_B)"), len(m)
    (True, 4)

    Parameters
    ----------
    tree : GameTree
        Two players.
    evaluations : iterable of EvaluationKnowledge
        What each player knows of the other's evaluation (public); a pair of players with no
        statement is read as knowing nothing of each other's evaluation.

    Returns
    -------
    KripkeModel
        The model, with agents the two players.

    Examples
    --------
    >>> t = kop.GameTree.build(["A", "B"], ("B", [("A", [(1, 0), (5, 0)]), ("A", [(3, 0), (2, 0)])]))
    >>> m = kop.evaluation_model(t, [kop.knows_candidates("B", "A", [[1, 5, 3, 2], [5, 1, 3, 2]]),
    ...                              kop.knows_exactly("A", "B")])
    >>> len(m), m.satisfies("K_A E_B"), m.satisfies("K_B E_A")
    (8, True, False)
    """
    tree_argument(tree)
    return KnowingValueModel.build(tree, evaluations).model


@dataclass(frozen=True, eq=False)
class KnowingValueModel:
    """The knowing-value model with its candidates: ``model``, and per player the candidate
    matrix (rows: candidates, the actual first; columns: leaf rows of the tree) and
    each world's candidate index."""

    tree: GameTree
    model: KripkeModel
    candidates: tuple[np.ndarray, ...]
    world_candidate: tuple[np.ndarray, ...]
    evaluations: tuple[EvaluationKnowledge, ...] = ()

    @classmethod
    def build(cls, tree: GameTree, evaluations: Iterable[EvaluationKnowledge]) -> KnowingValueModel:
        evaluations = tuple(evaluations)
        first, second = two_players(tree)
        resolved = resolve_all(tree, evaluations)
        names = tree.player_names
        wit: list[np.ndarray] = []
        for o in range(2):
            k = 1 - o
            r: ResolvedKnowledge = resolved.get((k, o)) or knows_nothing(names[k], names[o]).resolve(tree)
            wit.append(r.witnesses())
        na, nb = len(wit[0]), len(wit[1])
        total = na * nb * 4
        if total > MAX_WORLDS:
            raise LimitError(f"the knowing-value model would have {total} worlds (limit {MAX_WORLDS})")
        ia, ib, sa, sb = (g.ravel() for g in np.meshgrid(np.arange(na), np.arange(nb), [0, 1], [0, 1],
                                                        indexing="ij"))
        worlds = [f"a{x}.b{y}.s{p}{q}" for x, y, p, q in zip(ia, ib, sa, sb)]
        atoms = {f"E_{names[0]}": ia == 0, f"E_{names[1]}": ib == 0,
                 f"S_{names[0]}": sa == 1, f"S_{names[1]}": sb == 1}
        # each player tells apart its own candidate and strategy bit, nothing else
        parts = {names[0]: ia * 2 + sa, names[1]: ib * 2 + sb}
        actual = int(np.flatnonzero((ia == 0) & (ib == 0) & (sa == 1) & (sb == 1))[0])
        model = KripkeModel(
            {w: [p for p, vec in atoms.items() if vec[i]] for i, w in enumerate(worlds)},
            {a: np.asarray(ids) for a, ids in parts.items()}, actual=worlds[actual], agents=names)
        return cls(tree, model, (wit[0], wit[1]), (ia, ib), tuple(evaluations))

    def levels(self, max_depth: int | None = None) -> tuple[float, float]:
        """(level of the first mover, level of the other), by model checking f(P, d) at the actual world."""
        p, q = two_players(self.tree)
        return self.level(p, q, max_depth), self.level(q, p, max_depth)

    def level(self, player: str, opponent: str, max_depth: int | None = None) -> float:
        """The largest d with every formula of f(player, d) true at the actual world (inf under
        common knowledge of both evaluations); -1 when f(player, 0) fails."""
        m = self.model
        if not all(m.satisfies(f) for f in f_level(player, opponent, 0)):
            return -1
        if m.satisfies(conj([*f_level(player, opponent, 0),
                             Common((player, opponent), And(Atom(f"E_{player}"), Atom(f"E_{opponent}")))])):
            return math.inf
        bound = max_depth if max_depth is not None else 2 * len(m) + 2
        d = 0
        while d < bound and m.satisfies(chain(player, opponent, d + 1)):
            d += 1
        return d

    def decided(self, strict: bool = False) -> np.ndarray:
        """Per node, the corrected Decide (SPEC §2.6 erratum) model-checked here: D(n) true at the
        actual world, where at a node of X with two or more children the base ``K_Y E_X`` is true
        throughout when the statement about E_X fixes X's choice there
        (:meth:`~kop.selection.evaluations.ResolvedKnowledge.choice_fixed`, public knowledge)."""
        t, m = self.tree, self.model
        kind, offsets = t.kind, t.offsets
        n_worlds = len(m)
        names = t.player_names
        blocks = [m.block_ids(a) for a in names]
        truth = np.ones((len(t), n_worlds), dtype=bool)
        fixed = np.zeros(len(t), dtype=bool)
        for (k, o), r in resolve_all(t, self.evaluations).items():
            if k != o:
                fixed |= r.choice_fixed()
        e_true = [self.world_candidate[p] == 0 for p in range(2)]

        def knows(agent: int, vec: np.ndarray) -> np.ndarray:
            ids = blocks[agent]
            bad = np.zeros(int(ids.max()) + 1, dtype=bool)
            np.logical_or.at(bad, ids, ~vec)
            known: np.ndarray = ~bad[ids]
            return known

        for i in np.argsort(t.heights, kind="stable").tolist():
            if kind[i] == LEAF:
                continue
            lo, hi = int(offsets[i]), int(offsets[i + 1])
            if hi - lo == 1:
                truth[i] = truth[lo]
                continue
            if kind[i] < 0:
                truth[i] = np.logical_and.reduce(truth[lo:hi], axis=0)
                continue
            mover = int(kind[i])
            other = 1 - mover
            acc = np.ones(n_worlds, dtype=bool) if fixed[i] else knows(other, e_true[mover])
            for c in range(lo, hi):
                acc &= knows(other, truth[c])
                if strict:
                    acc &= knows(mover, truth[c])
            truth[i] = acc
        actual = m.index(m.actual[0])
        return truth[:, actual].copy()
