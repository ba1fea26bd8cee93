"""The strategy selector: which strategy a player's knowledge justifies, and why (SPEC §4).

For player P moving first in a two-player tree, with knowledge given as
formulas true at the actual world, :func:`select` computes P's and the
opponent's knowledge levels with the prover and reports every candidate:

1. **M^h** when height(t) <= 1 or f(P, height(t) - 1) ⊆ K(P) (Theorem 6;
   Corollary 3 under common knowledge): it K-dominates every strategy.
2. **HM0M^d** with d = P's level >= 1 (Theorem 8): it K-dominates minimax.
3. **M^d** only under knowledge asymmetry (P's level exceeds the opponent's)
   when P also knows the opponent's strategy (``K_P S_Q``); no guarantee.
4. **minimax**, the worst-case baseline.

Each candidate carries its precondition, the theorem, the value it estimates
and the outcome it guarantees against every opponent behaviour P's knowledge
allows (:mod:`kop.selection.behaviours`).  The claimed dominance is checked by
playing all those behaviours.  The communication schemes (I: announce E_P and
E_Q; II: announce "I use M^h") are checked in the logic with the prover and
reported with the outcome they lead to.

Example
-------
>>> from kop.selection.examples import figure2, SCENARIOS
>>> s = select(figure2(), SCENARIOS[3].knowledge, "A")
>>> s.recommended.strategy, s.recommended.guaranteed
('HM0M2', (9, 4))
>>> s.best_with_communication.outcome
(10, 3)

Reference: Sang & Chen, *Beyond Minimax*, Theorems 5-8, Corollaries 3-4 and
the section "Knowledge Update via Communication".
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from kop.errors import LimitError
from kop.games.names import StrategyName
from kop.games.strategies.hm0m import hm0m
from kop.games.strategies.mh import mh
from kop.games.strategies.minimax import minimax
from kop.games.strategies.mstar import mstar
from kop.games.strategies.play import play
from kop.games.strategies.strategy import Strategy
from kop.games.trees.checks import tree_argument
from kop.games.trees.tree import GameTree, NodeRef, CHANCE as _CHANCE
from kop.selection.behaviours import Behaviours, outcomes_by_type
from kop.selection.decide import Decision, decide, two_players
from kop.syntax import arguments
from kop.syntax.formula import And, AnnounceDual, Common, Formula, Know, conj
from kop.syntax.levels import evaluation, f_level, strategy_atom
from kop.syntax.printer import to_ascii
from kop.games.registry import strategy
from kop.reasoning.entailment import cached_entails as entails
from kop.selection.evaluations import restrict_all, knowledge_formulas, resolve_all

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

    from kop.selection.evaluations import EvaluationKnowledge

__all__ = ["Candidate", "Communication", "Payoff", "Selection", "select"]

#: an outcome: one number per player, in the tree's player order
Payoff = tuple[int | float, ...]


def _level_text(x: float) -> str:
    return "inf" if x == math.inf else str(int(x))


@dataclass(frozen=True, kw_only=True)
class Candidate:
    """One strategy the selector considered for the player (built with keyword arguments).

    Attributes
    ----------
    name : StrategyName
        The strategy's name (``Mh``, ``HM0M2``, ``M2``, ``minimax``); :attr:`strategy`
        spells it.
    applicable : bool
        Whether the player's knowledge meets the precondition.
    precondition : str
        The precondition in words, with what the knowledge gives.
    justification : str
        The theorem (or reason) behind the candidate.
    estimate : Payoff
        The value the strategy predicts at the root.
    requires : Formula or None
        The knowledge the precondition asks of the player, in the logic: ``f(P, d)``
        as one conjunction for M^h and HM0M^d, ``K_P S_Q`` for M^d; None when it
        asks for none (minimax, M^h on a tree of height at most 1).
    guaranteed : Payoff or None
        The worst outcome over every opponent behaviour the knowledge allows
        (None when not verified or not applicable).
    dominates : tuple of str
        The strategies the candidate is claimed to K-dominate.
    verified : bool or None
        Whether playing every allowed behaviour confirmed the claims (None: not checked).
    note : str
        A remark (why the claims were not verified, the M* play).
    counterexample : str
        A behaviour against which a claim fails, in words.
    claims : tuple of (str, bool or None)
        Each claimed dominance "this K-dominates OTHER": OTHER's name and
        whether it held on this tree (None: not checked).
    outdone_by : tuple of str
        The other applicable candidates that do at least as well for the player against
        every allowed behaviour and better against one (never recommended over them).

    Example
    -------
    >>> c = Candidate(name=StrategyName.parse("minimax"), applicable=True, precondition="always",
    ...               justification="the worst-case baseline (Algorithm 1)", estimate=(4, 7))
    >>> c.strategy, c.to_json()["estimate"], c.requires is None, c.verified is None
    ('minimax', [4, 7], True, True)
    """

    name: StrategyName
    applicable: bool
    precondition: str
    justification: str
    estimate: Payoff
    requires: Formula | None = None
    guaranteed: Payoff | None = None
    dominates: tuple[str, ...] = ()
    verified: bool | None = None
    note: str = ""
    counterexample: str = ""
    claims: tuple[tuple[str, bool | None], ...] = ()
    outdone_by: tuple[str, ...] = ()

    @property
    def strategy(self) -> str:
        """The strategy's name as the CLI, theories and JSON reports spell it (``str(name)``)."""
        return str(self.name)

    def explain(self, recommended: bool = False) -> str:
        """The candidate as one line of :meth:`Selection.explain` (marked ``*`` when *recommended*).

        >>> c = Candidate(name=StrategyName.parse("minimax"), applicable=True, precondition="always",
        ...               justification="the worst-case baseline (Algorithm 1)", estimate=(4, 7))
        >>> c.explain()
        '   minimax  applies: always. the worst-case baseline (Algorithm 1). Estimate (4, 7).'
        """
        mark = "*" if recommended else " "
        status = "applies" if self.applicable else "does not apply"
        g = "" if self.guaranteed is None else f"; guarantees {self.guaranteed}"
        v = {True: " [claim verified on every allowed behaviour]",
             False: f" [claim FAILS on this tree: {self.counterexample}]", None: ""}[self.verified]
        out = f" Outdone by {', '.join(self.outdone_by)} on the allowed behaviours." if self.outdone_by else ""
        return (f" {mark} {self.strategy:<8} {status}: {self.precondition}. {self.justification}. "
                f"Estimate {self.estimate}{g}.{v}{(' ' + self.note) if self.note else ''}{out}")

    def to_json(self) -> dict[str, Any]:
        return {"strategy": self.strategy, "applicable": self.applicable,
                "precondition": self.precondition, "justification": self.justification,
                "estimate": list(self.estimate),
                "guaranteed": None if self.guaranteed is None else list(self.guaranteed),
                "dominates": list(self.dominates), "verified": self.verified,
                "counterexample": self.counterexample or None, "note": self.note,
                "outdone_by": list(self.outdone_by)}


@dataclass(frozen=True)
class Communication:
    """A communication scheme: what P announces, the logical checks, and the outcome after it.

    ``checks`` pairs each formula the scheme needs to follow from the knowledge
    with whether it does.
    """

    scheme: str
    applicable: bool
    announcement: Formula
    checks: tuple[tuple[Formula, bool], ...]
    outcome: Payoff | None
    reason: str

    def explain(self) -> str:
        """The scheme as one line of :meth:`Selection.explain`: why, the checks, and the outcome."""
        checks = ", ".join(f"{to_ascii(f)}: {'yes' if h else 'no'}" for f, h in self.checks)
        out = f" -> both play Mh: {self.outcome}" if self.applicable else ""
        return f"   Scheme {self.scheme}: {self.reason}. Checks: {checks}.{out}"

    def to_json(self) -> dict[str, Any]:
        return {"scheme": self.scheme, "applicable": self.applicable,
                "announcement": to_ascii(self.announcement),
                "checks": [{"formula": to_ascii(f), "holds": h} for f, h in self.checks],
                "outcome": None if self.outcome is None else list(self.outcome), "reason": self.reason}


@dataclass(frozen=True)
class Selection:
    """The selector's report for one player on one tree.

    Parameters
    ----------
    tree, player, opponent, level, opponent_level, decision, candidates, communication, node
        What :func:`kop.select` found; build it with :func:`kop.select`.

    Examples
    --------
    >>> import kop
    >>> s = kop.select(kop.figure2(), kop.f_level("A", "B", 2) + kop.f_level("B", "A", 1), "A")
    >>> s
    Selection(player='A', level=2, recommended='HM0M2')
    >>> s.opponent_level, s.best_with_communication.outcome
    (1, (10, 3))

    References
    ----------
    T. Sang, J.-H. Chen, *Beyond Minimax: Nonzero-Sum Game Tree Search with Knowledge Oriented
    Players*, Theorems 5-8 and the communication schemes.
    """

    tree: GameTree
    player: str
    opponent: str
    level: float
    opponent_level: float
    decision: Decision
    candidates: tuple[Candidate, ...]
    communication: tuple[Communication, ...] = field(default=())
    node: str = "root"

    @property
    def height(self) -> int:
        return self.tree.height

    @property
    def recommended(self) -> Candidate:
        """The applicable candidate with the best guaranteed outcome for the player.

        Ties go to the earlier candidate in the paper's ranking (M^h, HM0M^d,
        M^d, minimax) that no other applicable candidate outdoes (at least as
        well against every allowed behaviour, better against one).  Without
        verification, the first applicable candidate.
        """
        usable = [c for c in self.candidates if c.applicable]
        if any(c.guaranteed is None for c in usable):
            return usable[0]
        pi = self.tree.player_index(self.player)
        sign = self.tree.players[pi].sign
        scored = [(sign * c.guaranteed[pi], c) for c in usable if c.guaranteed is not None]
        best = max(s for s, _ in scored)
        top = [c for s, c in scored if s == best]
        return next((c for c in top if not c.outdone_by), top[0])

    @property
    def best_with_communication(self) -> Communication | None:
        usable = [c for c in self.communication if c.applicable and c.outcome is not None]
        return usable[0] if usable else None

    def __repr__(self) -> str:
        return (f"Selection(player={self.player!r}, level={_level_text(self.level)}, "
                f"recommended={self.recommended.strategy!r})")

    def draw(self, file: str | None = None, **options: Any) -> Figure:
        """The tree with the decided nodes filled and the recommended strategy's predicted play
        highlighted (:func:`kop.drawing.trees.draw_tree`); saved to *file* when given.

        Returns the matplotlib Figure.  Needs the ``draw`` extra (matplotlib).
        """
        from kop.drawing.trees import draw_tree
        from kop.drawing.models import save_figure

        r = self.recommended
        line = strategy(self.tree, r.strategy, self.player).path
        comm = self.best_with_communication
        caption = (f"{self.player} (level {_level_text(self.level)}) plays {r.strategy}: "
                   f"{r.guaranteed or r.estimate}"
                   + (f"; with communication (scheme {comm.scheme}): {comm.outcome}" if comm else ""))
        options.setdefault("title", f"{self.player}'s recommendation: {r.strategy}")
        options.setdefault("caption", caption)
        fig = draw_tree(self.tree, decided=self.decision, play=line, **options)
        if file is not None:
            save_figure(fig, file)
        return fig

    def _repr_svg_(self) -> str | None:
        """The picture in Jupyter (:meth:`draw`); None without matplotlib."""
        from kop.drawing.models import repr_svg

        return repr_svg(self.draw)

    def to_json(self) -> dict[str, Any]:
        comm = self.best_with_communication
        return {
            "node": self.node, "player": self.player, "opponent": self.opponent, "height": self.height,
            "level": _level_text(self.level) if self.level == math.inf else int(self.level),
            "opponent_level": _level_text(self.opponent_level) if self.opponent_level == math.inf
            else int(self.opponent_level),
            "decided": [n.name for n in self.decision.decided_nodes()],
            "decided_by_partial_knowledge": [n.name for n in self.decision.decided_by_partial_knowledge()],
            "strict": self.decision.strict,
            "evaluations": [e.to_json() for e in self.decision.evaluations],
            "recommended": self.recommended.strategy,
            "outcome": list(self.recommended.guaranteed or self.recommended.estimate or ()),
            "outcome_with_communication": None if comm is None or comm.outcome is None else list(comm.outcome),
            "candidates": [c.to_json() for c in self.candidates],
            "communication": [c.to_json() for c in self.communication],
        }

    def explain(self) -> str:
        """A readable report: levels, decided nodes, every candidate and the communication schemes."""
        p, q = self.player, self.opponent
        at = "first" if self.node == "root" else f"at {self.node}"
        lines = [f"{p} moves {at}; the {'tree' if self.node == 'root' else 'subtree'} has height {self.height}. "
                 "Levels (by the prover): "
                 f"{p} = {_level_text(self.level)}, {q} = {_level_text(self.opponent_level)}."]
        dec = [n.name for n in self.decision.decided_nodes()]
        reading = "Definition 6, strict reading" if self.decision.strict else "Definition 6"
        lines.append(f"Decided nodes ({reading}, by the corrected Decide): {', '.join(dec) if dec else 'none'}.")
        if self.decision.evaluations:
            lines.append("Partial knowledge: " + "; ".join(e.describe() for e in self.decision.evaluations) + ".")
            extra = [n.name for n in self.decision.decided_by_partial_knowledge()]
            lines.append(f"Decided only thanks to partial knowledge: {', '.join(extra) if extra else 'none'}.")
        r = self.recommended
        lines += [c.explain(c is r) for c in self.candidates]
        lines += [m.explain() for m in self.communication]
        best = self.best_with_communication
        lines.append(f"Recommendation: {r.strategy}, outcome {r.guaranteed or r.estimate}"
                     + (f"; with communication (scheme {best.scheme}) {best.outcome}." if best else "."))
        return "\n".join(lines)


def _focus(tree: GameTree, node: NodeRef | None, evaluations: Iterable[EvaluationKnowledge] | None
           ) -> tuple[GameTree, str, tuple[EvaluationKnowledge, ...]]:
    """The (sub)tree the selector reasons on, its root's name, and the partial knowledge restricted to it."""
    evals = tuple(evaluations) if evaluations is not None else ()
    if node is None:
        return tree, "root", evals
    if evals:
        evals = restrict_all(evals, tree, node)
    return tree.subtree(node), tree.node(node).name, evals


def _mover(tree: GameTree, player: str | None, where: str) -> tuple[str, str]:
    """P (the mover at the root of *tree*, checked against *player*) and the opponent Q."""
    first, second = two_players(tree)
    p = first if player is None else player
    tree.player(p)
    if p != first:
        raise LimitError(f"the selector reasons for the player who moves at {where} ({first}), not {p}")
    return p, second


@dataclass(frozen=True)
class _Situation:
    """What the candidates are judged on: the tree, P and Q, the knowledge, both levels, Decide's answer."""

    tree: GameTree
    p: str
    q: str
    knowledge: tuple[Formula, ...]
    level: float
    opponent_level: float
    decision: Decision
    timeout: float | None

    @property
    def depth(self) -> int:
        """d for HM0M^d and M^d: P's level, within 0..height."""
        h = self.tree.height
        return int(min(max(self.level, 0), h)) if self.level != math.inf else h

    @property
    def level_text(self) -> str:
        return _level_text(self.level)

    def opponent_nodes(self) -> npt.NDArray[np.intp]:
        """The indices of the nodes where Q moves."""
        return np.flatnonzero(self.tree.kind == self.tree.player_index(self.q))


def _situation(tree: GameTree, formulas: tuple[Formula, ...], p: str, q: str, decision: Decision,
               evals: tuple[EvaluationKnowledge, ...], timeout: float | None) -> _Situation:
    """Both players' levels by the prover, from the knowledge and what partial knowledge states in the logic."""
    from kop.reasoning.knowledge import level as knowledge_level

    ks = formulas
    if evals:
        ks = formulas + knowledge_formulas(tree, resolve_all(tree, evals))
    h = tree.height
    lp = knowledge_level(ks, p, q, max_depth=h + 1, timeout=timeout)
    lq = knowledge_level(ks, q, p, max_depth=h + 1, timeout=timeout)
    return _Situation(tree, p, q, ks, lp, lq, decision, timeout)


@dataclass(frozen=True)
class _Strategies:
    """The strategies in the paper's ranking; HM0M^d and M^d only when P's level is at least 1."""

    mh: Strategy
    hm0m: Strategy | None
    md: Strategy | None
    minimax: Strategy

    @classmethod
    def of(cls, s: _Situation) -> _Strategies:
        deep = s.level >= 1
        return cls(mh(s.tree), hm0m(s.tree, max(s.depth, 1), s.p) if deep else None,
                   mstar(s.tree, s.depth, s.p) if deep else None, minimax(s.tree, s.p))

    def named(self) -> list[tuple[str, Strategy]]:
        """(family name, strategy) of the strategies computed, in the ranking's order."""
        named = [("Mh", self.mh), ("HM0M", self.hm0m), ("M", self.md), ("minimax", self.minimax)]
        return [(n, st) for n, st in named if st is not None]


@dataclass(frozen=True)
class _Verdict:
    """A dominance claim checked on the allowed behaviours: verified (None: unchecked), why not, per pair."""

    verified: bool | None = None
    counterexample: str = ""
    claims: tuple[tuple[str, bool | None], ...] = ()


def allowed_behaviours(s: _Situation, mh_strategy: Strategy) -> Behaviours:
    """The opponent behaviours the definitions allow P to expect (:mod:`kop.selection.behaviours`).

    Q's agreed moves: its decided nodes.  Q's agreed predictions of P: P's decided
    nodes with ``K_P D(n)`` (the prover).  Q's possible evaluations: its actual
    one when ``K_P E_Q`` follows (or P knows it exactly); the candidates of a
    candidate statement; the order's ranks on a tree without chance nodes (every
    comparison of two leaves is then fixed by the order); otherwise any (Q free).
    """
    tree, p, q = s.tree, s.p, s.q
    nxt = mh_strategy.next_array
    decided = np.asarray(s.decision.decided, dtype=bool)
    multi = (tree.offsets[1:] - tree.offsets[:-1]) > 1
    fixed = {int(i): int(nxt[i]) for i in s.opponent_nodes() if decided[i]}
    predicted = {}
    for i in np.flatnonzero((tree.kind == tree.player_index(p)) & decided & multi).tolist():
        if entails(s.knowledge, Know(p, s.decision.formulas[i]), timeout=s.timeout).holds:
            predicted[i] = int(nxt[i])
    return Behaviours(tree, q, fixed, predicted, _opponent_types(s))


def _opponent_types(s: _Situation) -> tuple[np.ndarray, ...] | None:
    """The evaluations of Q that P considers possible, Q's actual one first (None: every evaluation)."""
    tree = s.tree
    qi, pi = tree.player_index(s.q), tree.player_index(s.p)
    actual = np.asarray(tree.payoffs[:, qi], dtype=float)
    if s.decision.evaluations:
        r = resolve_all(tree, s.decision.evaluations).get((pi, qi))
        if r is not None:
            if r.exact:
                return (actual,)
            if r.candidates is not None:
                rows = [actual] + [np.asarray(c, dtype=float) for c in r.candidates]
                return tuple(dict((row.tobytes(), row) for row in rows).values())
            if r.spec.kind == "order" and not np.any(tree.kind == _CHANCE):
                levels = np.unique(actual)
                return (np.searchsorted(levels, actual).astype(float),)
    if entails(s.knowledge, Know(s.p, evaluation(s.q)), timeout=s.timeout).holds:
        return (actual,)
    return None


class _Outcomes:
    """Every strategy played against every opponent behaviour the definitions allow (or None: not verified).

    Q takes the agreed (M^h) move at every decided node where it moves, predicts
    the agreed move at every node of P that P knows is decided, and elsewhere
    moves selfishly by every evaluation P considers possible for it (free when P
    does not know E_Q): :mod:`kop.selection.behaviours`.
    """

    def __init__(self, s: _Situation, strategies: _Strategies, verify: bool):
        tree = s.tree
        self.tree, self.q = tree, s.q
        self.pi = tree.player_index(s.p)
        self.sign = tree.players[self.pi].sign
        played = [st for _, st in strategies.named()]
        self.column = {id(st): k for k, st in enumerate(played)}
        self.tables: list[npt.NDArray[np.float64]] = []
        self.table: npt.NDArray[np.float64] | None = None
        self.note = ""
        self.behaviours: Behaviours | None = None
        if not verify:
            return
        try:
            self.behaviours = allowed_behaviours(s, strategies.mh)
            self.tables = outcomes_by_type(self.behaviours, played, s.p)
        except LimitError as exc:
            self.note = f"(not verified: {exc})"
            return
        rows = {tuple(map(tuple, r.tolist())): r for tab in self.tables for r in tab}
        self.table = np.array(list(rows.values()), dtype=float)

    def guaranteed(self, st: Strategy) -> Payoff | None:
        """*st*'s worst outcome for P over the allowed behaviours."""
        if self.table is None:
            return None
        vals = self.table[:, self.column[id(st)], :]
        return self.tree.value_of(vals[np.argmin(self.sign * vals[:, self.pi])])

    def dominance(self, st: Strategy, others: Sequence[Strategy]) -> _Verdict:
        """Whether *st* K-dominates each of *others*: P does at least as well against every allowed behaviour."""
        if self.table is None:
            return _Verdict(claims=tuple((o.name, None) for o in others))
        mine = self.table[:, self.column[id(st)], :]
        pairs: list[tuple[str, bool | None]] = []
        first = ""
        for o in others:
            theirs = self.table[:, self.column[id(o)], :]
            worse = np.flatnonzero(self.sign * mine[:, self.pi] < self.sign * theirs[:, self.pi] - 1e-12)
            pairs.append((o.name, not len(worse)))
            if len(worse) and not first:
                k = int(worse[0])
                first = (f"against one allowed behaviour of {self.q}, {st.name} reaches "
                         f"{self.tree.value_of(mine[k])} but {o.name} reaches {self.tree.value_of(theirs[k])}")
        return _Verdict(not first, first, tuple(pairs))

    def outdoes(self, st: Strategy, o: Strategy) -> bool:
        """*st* does at least as well as *o* for P against every allowed behaviour, and better against one."""
        if self.table is None:
            return False
        a, b = self.sign * self.table[:, self.column[id(st)], self.pi], self.sign * self.table[:, self.column[id(o)], self.pi]
        return bool(np.all(a >= b - 1e-12) and np.any(a > b + 1e-12))


def _mh_candidate(s: _Situation, strategies: _Strategies, outcomes: _Outcomes) -> Candidate:
    """M^h: Theorem 6 (height <= 1 or f(P, height-1) known), or partial knowledge predicting every move of Q."""
    p, q, h = s.p, s.q, s.tree.height
    need = max(h - 1, 0)
    paper_ok = h <= 1 or s.level >= need
    # knowing-value generalization of Theorem 6: when partial knowledge of evaluations lets P
    # predict every move of Q (every Q node decided, some only thanks to it), Q's behaviour is
    # the M^h one and M^h is P's best response to it
    predicts_all = bool(any(s.decision.partial_only)) and all(s.decision.decided[i] for i in s.opponent_nodes())
    applies = paper_ok or predicts_all
    others = [st for _, st in strategies.named() if st is not strategies.mh]
    verdict = outcomes.dominance(strategies.mh, others) if applies else _Verdict()
    pre = f"height(t) <= 1 or f({p},{need}) ⊆ K({p}); {p}'s level is {s.level_text}"
    if s.decision.evaluations:
        pre += (f"; or partial knowledge decides every node where {q} moves "
                f"({'yes' if predicts_all else 'no'})")
    if s.level == math.inf:
        why = "Corollary 3: common knowledge of E_A and E_B"
    elif predicts_all and not paper_ok:
        why = f"partial knowledge: {p} predicts every move of {q}, and M^h is the best response to it"
    else:
        why = "Theorem 6: K-dominates every strategy"
    return Candidate(
        name=StrategyName.parse("Mh"), applicable=applies, precondition=pre, justification=why,
        requires=None if h <= 1 else conj(f_level(p, q, need)),
        estimate=strategies.mh.value, guaranteed=outcomes.guaranteed(strategies.mh),
        dominates=tuple(n for n, st in strategies.named() if st is not strategies.mh),
        verified=verdict.verified, note=outcomes.note, counterexample=verdict.counterexample,
        claims=verdict.claims)


def _hm0m_candidate(s: _Situation, strategies: _Strategies, outcomes: _Outcomes) -> Candidate:
    """HM0M^d with d = P's level >= 1: Theorem 8, it K-dominates minimax."""
    p = s.p
    why = "Theorem 8: K-dominates minimax"
    if strategies.hm0m is None:
        return Candidate(name=StrategyName.hm0m(1), applicable=False,
                         precondition=f"needs f({p},1) ⊆ K({p}); {p}'s level is {s.level_text}",
                         requires=conj(f_level(p, s.q, 1)), justification=why,
                         estimate=hm0m(s.tree, 1, p).value)
    d = max(s.depth, 1)
    verdict = outcomes.dominance(strategies.hm0m, [strategies.minimax])
    return Candidate(
        name=StrategyName.hm0m(d), applicable=True, precondition=f"{p}'s level d = {s.level_text} >= 1",
        requires=conj(f_level(p, s.q, d)), justification=why,
        estimate=strategies.hm0m.value, guaranteed=outcomes.guaranteed(strategies.hm0m),
        dominates=("minimax",), verified=verdict.verified, note=outcomes.note,
        counterexample=verdict.counterexample, claims=verdict.claims)


def _md_candidate(s: _Situation, md: Strategy, outcomes: _Outcomes) -> Candidate:
    """M^d: exact only against Q playing M^(d-1); applies under knowledge asymmetry when P knows Q's strategy."""
    p, q, d = s.p, s.q, s.depth
    knows = Know(p, strategy_atom(q))
    knows_strategy = entails(s.knowledge, knows, timeout=s.timeout).holds
    asym = s.level > s.opponent_level
    against = play(s.tree, {p: md, q: mstar(s.tree, d - 1, q)}).value
    return Candidate(
        name=StrategyName.mstar(d), applicable=asym and knows_strategy,
        precondition=(f"knowledge asymmetry ({p}'s level {s.level_text} > {q}'s {_level_text(s.opponent_level)}: "
                      f"{'yes' if asym else 'no'}) and K_{p} S_{q} ({'yes' if knows_strategy else 'no'})"),
        requires=knows, justification=f"Carmel & Markovitch: exact against {q} playing M{d - 1}; no guarantee otherwise",
        estimate=md.value, guaranteed=outcomes.guaranteed(md), note=f"play(M{d}, M{d - 1}) = {against}")


def _minimax_candidate(strategies: _Strategies, outcomes: _Outcomes) -> Candidate:
    """Minimax: always applies, the worst-case baseline."""
    return Candidate(name=StrategyName.parse("minimax"), applicable=True, precondition="always",
                     justification="the worst-case baseline (Algorithm 1)", estimate=strategies.minimax.value,
                     guaranteed=outcomes.guaranteed(strategies.minimax), note=outcomes.note)


def select(tree: GameTree, knowledge: Iterable[Formula | str], player: str | None = None, *,
           timeout: float | None = None, verify: bool = True, node: NodeRef | None = None,
           evaluations: Iterable[EvaluationKnowledge] | None = None, strict: bool = False) -> Selection:
    """Report the strategies P's knowledge justifies on *tree* (or at *node*), best first.

    At a *node* other than the root the selector reasons about the subtree
    below it, for the player who moves there: its height, its decided nodes
    and the levels the knowledge gives (as it is at that point of the play).

    Parameters
    ----------
    tree : GameTree
        Two players (chance nodes allowed: a chance node is decided when its children are); P must move at the root.
    knowledge : formulas or strings
        What is true at the actual world (both players' knowledge; common
        knowledge written with ``C{A,B}``).
    player : str, optional
        P (default: the root's mover).
    timeout : float, optional
        Seconds for each prover question.
    verify : bool
        Check the claimed K-dominance by playing every allowed opponent behaviour.
    node : node reference, optional
        Reason at this node (a label, ``root/i/j`` path, index or Node) for its
        mover, on the subtree below it.
    evaluations : EvaluationKnowledge values, optional
        Partial knowledge of evaluation functions (:func:`kop.knows_candidates`,
        :func:`kop.knows_order`, ...; public, so common knowledge).  The levels
        and the communication checks then use what the statements say in the
        logic, Decide uses what they fix (:func:`kop.decide`), and the opponent
        behaviours P's knowledge allows are fixed at every node so decided.
        M^h also applies when partial knowledge decides every node where the
        opponent moves (P can then predict every move of it).
    strict : bool
        Decide by the stricter reading of Definition 6 (the mover must also know
        that its children are decided: :func:`kop.decide`).

    Returns
    -------
    Selection
        The levels, the decided nodes, every candidate strategy with its precondition, theorem,
        estimate and guarantee, the recommendation and the communication schemes.

    Examples
    --------
    >>> from kop.selection.examples import figure2, SCENARIOS
    >>> s = select(figure2(), SCENARIOS[3].knowledge, "B", node="S")
    >>> s.node, s.height, s.recommended.strategy
    ('S', 3, 'HM0M1')

    With partial knowledge: B knows E_A only up to two candidates.

    >>> import kop
    >>> s = kop.select(figure2(), kop.f_level("A", "B", 1) + kop.f_level("B", "A", 0),
    ...                evaluations=[kop.knows_candidates("B", "A", [[4, 8, 7, 5, 10, 6, 3, 1, 2, 11, 9, 1],
    ...                                                              [4, 8, 7, 5, 6, 10, 3, 1, 2, 11, 9, 1]])])
    >>> s.level, s.opponent_level, s.recommended.strategy, s.recommended.guaranteed
    (1, 0, 'HM0M1', (9, 4))
    """
    tree_argument(tree)
    formulas = tuple(arguments.formulas(knowledge, "knowledge"))
    tree, where, evals = _focus(tree, node, evaluations)
    p, q = _mover(tree, player, where)
    decision = decide(tree, formulas, timeout=timeout, evaluations=evals, strict=strict)
    s = _situation(tree, formulas, p, q, decision, evals, timeout)
    strategies = _Strategies.of(s)
    outcomes = _Outcomes(s, strategies, verify)
    candidates = [_mh_candidate(s, strategies, outcomes), _hm0m_candidate(s, strategies, outcomes)]
    if strategies.md is not None:
        candidates.append(_md_candidate(s, strategies.md, outcomes))
    candidates.append(_minimax_candidate(strategies, outcomes))
    candidates = _outdone(candidates, strategies, outcomes)
    comm = _communication(tree, s.knowledge, p, q, s.level, timeout)
    return Selection(tree, p, q, s.level, s.opponent_level, decision, tuple(candidates), comm, where)


def _outdone(candidates: list[Candidate], strategies: _Strategies, outcomes: _Outcomes) -> list[Candidate]:
    """Mark each applicable candidate with the applicable ones that outdo it on the allowed behaviours."""
    by_name = {str(st.name): st for _, st in strategies.named()}
    usable = [c for c in candidates if c.applicable and c.strategy in by_name]
    out = []
    for c in candidates:
        better = tuple(o.strategy for o in usable if c in usable and o is not c
                       and outcomes.outdoes(by_name[o.strategy], by_name[c.strategy]))
        out.append(dataclasses.replace(c, outdone_by=better) if better else c)
    return out


def _communication(tree: GameTree, ks: tuple[Formula, ...], p: str, q: str, lp: float,
                   timeout: float | None) -> tuple[Communication, ...]:
    """Schemes I (announce E_P and E_Q) and II (announce "I use M^h"), checked with the prover."""
    outcome = play(tree, {p: mh(tree), q: mh(tree)}).value
    ev = And(evaluation(p), evaluation(q))
    after = AnnounceDual(ev, Common((p, q), ev))
    c1 = entails(ks, after, timeout=timeout).holds
    s1 = Communication(
        "I", lp >= 1 and c1, ev, ((after, c1),), outcome if lp >= 1 and c1 else None,
        f"needs d >= 1 (level {_level_text(lp)}): {p} announces E_{p} and E_{q}; afterwards they are "
        f"common knowledge and M^h K-dominates for both (Corollary 3)")
    verify = Know(q, evaluation(p))
    c2 = entails(ks, verify, timeout=timeout).holds
    s2 = Communication(
        "II", lp >= 2 and c2, strategy_atom(p), ((verify, c2),), outcome if lp >= 2 and c2 else None,
        f"needs d >= 2 (level {_level_text(lp)}): {p} announces that it uses M^h; {q} can verify it "
        f"during play (K_{q} E_{p}, property 6), so M^h is mutually enforced (Theorem 5)")
    return (s1, s2)
