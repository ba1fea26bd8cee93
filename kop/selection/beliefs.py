"""Uncertain knowledge of evaluation functions: beliefs that may be false, and probabilities over candidates.

:func:`kop.knows_candidates` states *knowledge*: the owner's evaluation is one of
the candidates, the actual one among them.  :func:`believes_candidates` states a
*belief*: the knower takes the owner's evaluation to be one of the candidates,
with optional probabilities -- and it may be wrong, the actual evaluation need
not be among them.  Each candidate is an *opponent type* as in
:mod:`kop.games.strategies.prom`: it plays the owner's minimax on that evaluation.

:func:`outcomes_under_belief` is the strategy selector under uncertainty: for
each candidate strategy of the knower it gives, side by side,

* ``expected`` -- the expected outcome, the type drawn once with the believed probabilities;
* ``believed`` -- the outcome against the most probable type (the first on ties);
* ``guaranteed`` -- the worst outcome (for the knower, by its goal) over every type
  it considers possible (positive probability);
* ``actual`` -- the outcome against the owner's real evaluation (its minimax on its real payoffs).

The paper's dominance theorems need knowledge.  Under belief, "guarantees g"
is a claim about the types the knower considers possible: it holds *in fact*
only when the actual evaluation is among them (the belief is true); each row
says whether its guarantee holds against the actual opponent, checked on the tree.

Example
-------
>>> import kop
>>> t = kop.figure2()
>>> adversarial = [4, 8, 7, 5, 10, 6, 3, 1, 2, 11, 9, 1]        # B minimizing E_A
>>> b = kop.believes_candidates("A", "B", [adversarial], [1])   # A's belief is false
>>> b.resolve(t).true
False
>>> rows = {r.strategy: r for r in kop.outcomes_under_belief(t, b)}
>>> rows["PrOM"].believed, rows["PrOM"].actual
((4, 7), (4, 7))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from kop.games.strategies.engine import sweep
from kop.games.errors import StrategyError
from kop.games.strategies.minimax import minimax
from kop.games.strategies.prom import _type_choices, candidate_rows, parse_probabilities, prom, prom_bayes
from kop.games.trees.tree import GameTree
from kop.selection.evaluations import EvaluationError
from kop.games.strategies.prom import preorder_leaves
from kop.games.trees.checks import tree_argument
from kop.syntax import arguments

if TYPE_CHECKING:  # pragma: no cover
    from kop.selection.selector import Payoff

__all__ = ["EvaluationBelief", "ResolvedBelief", "believes_candidates", "UncertainOutcome",
           "outcomes_under_belief"]


@dataclass(frozen=True)
class EvaluationBelief:
    """What *knower* believes of *owner*'s evaluation: one of *candidates*, with *probabilities* (or None).

    Build one with :func:`believes_candidates`; :meth:`resolve` checks it against a tree.

    Attributes
    ----------
    knower, owner : str
        The player who believes, and the player whose evaluation it is about.
    candidates : tuple
        The believed evaluations (each a tuple of leaf values, or of ``(leaf label, value)`` pairs).
    probabilities : tuple or None
        One per candidate, as given; None reads as uniform.

    Examples
    --------
    >>> import kop
    >>> b = kop.believes_candidates("A", "B", [[4, 8, 7, 5, 10, 6, 3, 1, 2, 11, 9, 1]])
    >>> b.describe(), b.resolve(kop.figure2()).true          # B's actual evaluation is another one
    ("believes_candidates('A', 'B', [1 candidate])", False)
    """

    knower: str
    owner: str
    candidates: tuple[Any, ...]
    probabilities: tuple[Any, ...] | None = None

    def describe(self) -> str:
        n = len(self.candidates)
        pr = "" if self.probabilities is None else ", probabilities"
        return f"believes_candidates({self.knower!r}, {self.owner!r}, [{n} candidate{'s' if n != 1 else ''}]{pr})"

    def resolve(self, tree: GameTree) -> ResolvedBelief:
        """Check the belief against *tree*: players, one value per leaf, the probabilities."""
        what = self.describe()
        names = tree.player_names
        for role, who in (("knower", self.knower), ("owner", self.owner)):
            if who not in names:
                raise EvaluationError(f"{what}: unknown player {who!r} as the {role} (players {', '.join(names)})")
        if self.knower == self.owner:
            raise EvaluationError(f"{what}: a player knows its own evaluation")
        try:
            rows = candidate_rows(tree, list(self.candidates), what)
            probs = parse_probabilities(self.probabilities, len(rows), what)
        except StrategyError as exc:
            raise EvaluationError(str(exc)) from None
        o = tree.player_index(self.owner)
        actual = tree.payoffs[:, o]
        match = [i for i, r in enumerate(rows) if np.array_equal(r, actual)]
        p_actual = float(sum(probs[i] for i in match))
        return ResolvedBelief(self, tree, tree.player_index(self.knower), o, rows, probs, p_actual > 0, p_actual)


@dataclass(frozen=True, eq=False)
class ResolvedBelief:
    """A belief checked against a tree: the candidates as rows (leaf-row order) and their probabilities.

    ``true`` says whether the actual evaluation is among the candidates with positive probability;
    ``p_actual`` is the probability the knower gives it."""

    spec: EvaluationBelief
    tree: GameTree
    knower: int
    owner: int
    rows: np.ndarray
    probabilities: np.ndarray
    true: bool
    p_actual: float


def believes_candidates(knower: str, owner: str, candidates: Iterable[Sequence[float] | Mapping[str, float]],
                        probabilities: Iterable[Any] | None = None) -> EvaluationBelief:
    """*knower* believes that *owner*'s evaluation is one of *candidates*, with *probabilities*.

    Unlike :func:`kop.knows_candidates` the actual evaluation need not be among them.

    Parameters
    ----------
    knower, owner : str
        The player who believes, and the player whose evaluation function it is about.
    candidates : iterable of sequences or mappings of float
        Each one value per leaf, left to right, or a mapping leaf label -> value.
    probabilities : iterable of numbers or strings, optional
        One per candidate (``"3/4"`` is exact); none given is read as uniform.

    Returns
    -------
    EvaluationBelief
        The statement, for :func:`kop.outcomes_under_belief` and :func:`kop.select`.

    Examples
    --------
    >>> believes_candidates("A", "B", [[1, 2], [2, 1]], ["0.7", "0.3"])
    EvaluationBelief(knower='A', owner='B', candidates=((1, 2), (2, 1)), probabilities=('0.7', '0.3'))
    """
    where = f"believes_candidates({knower!r}, {owner!r})"
    if isinstance(candidates, (str, bytes, Mapping)) or not isinstance(candidates, Iterable):
        raise EvaluationError(f"{where}: candidates must be a list of candidate evaluations")
    cands = tuple(dict(c) if isinstance(c, Mapping) else tuple(c) for c in candidates)
    if not cands:
        raise EvaluationError(f"{where}: no candidates (a belief names at least one)")
    probs = None
    if probabilities is not None:
        probs = tuple(probabilities)
        try:
            parse_probabilities(probs, len(cands), where)
        except StrategyError as exc:
            raise EvaluationError(str(exc)) from None
    return EvaluationBelief(knower, owner, cands, probs)


@dataclass(frozen=True)
class UncertainOutcome:
    """One candidate strategy of the knower under its belief (see the module docstring)."""

    strategy: str
    move: str | None
    expected: Payoff
    believed: Payoff
    guaranteed: Payoff
    actual: Payoff
    #: does the guarantee hold against the actual opponent (checked on the tree)?
    guarantee_holds: bool
    #: "in fact" when the belief is true (the actual evaluation is a type considered possible), else "in belief"
    holds: str

    def to_json(self) -> dict[str, Any]:
        return {"strategy": self.strategy, "move": self.move, "expected": list(self.expected),
                "believed": list(self.believed), "guaranteed": list(self.guaranteed), "actual": list(self.actual),
                "guarantee_holds": self.guarantee_holds, "holds": self.holds}


def _outcome(tree: GameTree, moves: np.ndarray) -> np.ndarray:
    """Root value when every mover follows *moves* (chance nodes: the expectation)."""
    n_players = len(tree.players)
    sol = sweep(tree, np.zeros(n_players, dtype=np.int64), np.ones(n_players), fixed=moves,
                fixed_movers=np.ones(n_players, dtype=bool))
    return np.asarray(sol.table[sol.ref[0]], dtype=np.float64)


def _num(x: float) -> int | float:
    r = round(float(x), 9)
    return int(r) if r.is_integer() else r


def outcomes_under_belief(tree: GameTree, belief: EvaluationBelief) -> list[UncertainOutcome]:
    """The knower's candidate strategies side by side: expected, believed, guaranteed and actual outcomes.

    The strategies: minimax; M^1 believing each candidate for sure (``M1[i]``); PrOM; PrOM-Bayes.

    Parameters
    ----------
    tree : GameTree
        Two players.
    belief : EvaluationBelief
        What the knower believes of the other's evaluation.

    Returns
    -------
    list of UncertainOutcome
        One row per strategy: its first move and the ``expected``, ``believed``, ``guaranteed``
        and ``actual`` outcomes, and whether the guarantee holds ``"in fact"`` or ``"in belief"``.

    Examples
    --------
    >>> import kop
    >>> EB = [7, 9, 4, 6, 3, 10, 8, 9, 2, 12, 4, 5]                          # B's actual payoffs
    >>> belief = believes_candidates("A", "B", [[4, 8, 7, 5, 10, 6, 3, 1, 2, 11, 9, 1], EB], ["1/4", "3/4"])
    >>> for r in outcomes_under_belief(kop.figure2(), belief):
    ...     print(r.strategy, r.move, r.expected, r.actual, r.holds)
    minimax R (4, 7) (4, 7) in fact
    M1[1] R (4, 7) (4, 7) in fact
    M1[2] S (7.75, 4.5) (10, 3) in fact
    PrOM S (7.75, 4.5) (10, 3) in fact
    PrOM-Bayes S (8, 2.75) (10, 3) in fact

    References
    ----------
    H. H. L. M. Donkers, J. W. H. M. Uiterwijk, H. J. van den Herik, *Probabilistic opponent-model
    search*, Information Sciences 135 (2001) (PrOM); T. Sang, J.-H. Chen, *Beyond Minimax* (M^1).
    """
    tree_argument(tree)
    arguments.instance(belief, EvaluationBelief, "belief", "an EvaluationBelief (kop.believes_candidates)")
    r = belief.resolve(tree)
    p, o = r.knower, r.owner
    pname, oname = tree.players[p].name, tree.players[o].name
    sp = tree.players[p].sign
    probs = r.probabilities
    choices = _type_choices(tree, r.rows, o, "first")
    actual_choice = _type_choices(tree, tree.payoffs[:, o][None, :], o, "first")[0]
    opp = tree.kind == o
    cands = _ltr(tree, r.rows)
    strategies: list[tuple[str, np.ndarray]] = [("minimax", minimax(tree, pname).next_array)]
    for i in range(len(r.rows)):
        one = [0.0] * len(r.rows)
        one[i] = 1.0
        strategies.append((f"M1[{i + 1}]", prom(tree, pname, cands, one, opponent=oname).next_array))
    strategies.append(("PrOM", prom(tree, pname, cands, list(probs), opponent=oname).next_array))
    strategies.append(("PrOM-Bayes", prom_bayes(tree, pname, cands, list(probs), opponent=oname).next_array))
    top = int(np.argmax(probs))
    possible = np.flatnonzero(probs > 0)
    out = []
    for name, nxt in strategies:
        per_type = []
        for i in range(len(r.rows)):
            moves = np.where(opp, choices[i], nxt)
            per_type.append(_outcome(tree, moves))
        act = _outcome(tree, np.where(opp, actual_choice, nxt))
        expected = sum(probs[i] * per_type[i] for i in range(len(per_type)))
        worst = min(possible, key=lambda i: (sp * per_type[i][p], i))
        guaranteed = per_type[worst]
        child = int(nxt[0])
        move = tree.node(child).step if child >= 0 else None
        out.append(UncertainOutcome(
            name, None if move is None else str(move), tuple(_num(x) for x in expected),
            tuple(_num(x) for x in per_type[top]), tuple(_num(x) for x in guaranteed),
            tuple(_num(x) for x in act), bool(sp * act[p] >= sp * guaranteed[p] - 1e-9),
            "in fact" if r.true else "in belief"))
    return out


def _ltr(tree: GameTree, rows: np.ndarray) -> list[list[float]]:
    """Candidate rows (leaf-row order) as lists left to right."""
    order = tree.leaf_rows()[preorder_leaves(tree)]
    return [[float(x) for x in row[order]] for row in rows]
