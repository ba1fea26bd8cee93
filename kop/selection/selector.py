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

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from kop.games.strategies.hm0m import hm0m
from kop.games.strategies.mh import mh
from kop.games.strategies.minimax import minimax
from kop.games.strategies.mstar import mstar
from kop.games.strategies.play import play
from kop.games.trees.tree import GameTree
from kop.selection.behaviours import Behaviours, outcomes_against_allowed
from kop.selection.decide import Decision, decide, two_players
from kop.errors import LimitError
from kop.syntax.formula import And, Common, Formula, Know
from kop.syntax.levels import evaluation, strategy_atom
from kop.syntax.printer import to_ascii
from kop.games.trees.checks import tree_argument
from kop.syntax import arguments

if TYPE_CHECKING:  # pragma: no cover
    from kop.selection.evaluations import EvaluationKnowledge

__all__ = ["Candidate", "Communication", "Selection", "select"]


def _level_text(x: float) -> str:
    return "inf" if x == math.inf else str(int(x))


@dataclass(frozen=True)
class Candidate:
    """One strategy the selector considered for the player."""

    strategy: str
    applicable: bool
    precondition: str
    justification: str
    estimate: tuple
    guaranteed: tuple | None
    dominates: tuple[str, ...] = ()
    verified: bool | None = None
    note: str = ""
    counterexample: str = ""
    #: each claimed dominance "this K-dominates OTHER": (OTHER, verified on this tree or None)
    claims: tuple[tuple[str, bool | None], ...] = ()

    def to_json(self) -> dict:
        return {"strategy": self.strategy, "applicable": self.applicable,
                "precondition": self.precondition, "justification": self.justification,
                "estimate": list(self.estimate),
                "guaranteed": None if self.guaranteed is None else list(self.guaranteed),
                "dominates": list(self.dominates), "verified": self.verified,
                "counterexample": self.counterexample or None, "note": self.note}


@dataclass(frozen=True)
class Communication:
    """A communication scheme: what P announces, the logical checks, and the outcome after it."""

    scheme: str
    applicable: bool
    announcement: Formula
    checks: tuple[tuple[str, bool], ...]
    outcome: tuple | None
    reason: str

    def to_json(self) -> dict:
        return {"scheme": self.scheme, "applicable": self.applicable,
                "announcement": to_ascii(self.announcement),
                "checks": [{"formula": f, "holds": h} for f, h in self.checks],
                "outcome": None if self.outcome is None else list(self.outcome), "reason": self.reason}


@dataclass(frozen=True)
class Selection:
    """The selector's report for one player on one tree."""

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
        M^d, minimax).  Without verification, the first applicable candidate.
        """
        usable = [c for c in self.candidates if c.applicable]
        if any(c.guaranteed is None for c in usable):
            return usable[0]
        pi = self.tree.player_index(self.player)
        sign = self.tree.players[pi].sign
        scored = [(sign * c.guaranteed[pi], c) for c in usable if c.guaranteed is not None]
        best = max(s for s, _ in scored)
        return next(c for s, c in scored if s == best)

    @property
    def best_with_communication(self) -> Communication | None:
        usable = [c for c in self.communication if c.applicable and c.outcome is not None]
        return usable[0] if usable else None

    def __repr__(self) -> str:
        return (f"Selection(player={self.player!r}, level={_level_text(self.level)}, "
                f"recommended={self.recommended.strategy!r})")

    def draw(self, file: str | None = None, **options: Any) -> Any:
        """The tree with the decided nodes filled and the recommended strategy's predicted play
        highlighted (:func:`kop.games.trees.draw.draw_tree`); saved to *file* when given.

        Returns the matplotlib Figure.  Needs the ``draw`` extra (matplotlib).
        """
        from kop.games.trees.draw import draw_tree
        from kop.games.registry import strategy
        from kop.semantics.draw import save_figure

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
        from kop.semantics.draw import repr_svg

        return repr_svg(self.draw)

    def to_json(self) -> dict:
        comm = self.best_with_communication
        return {
            "node": self.node, "player": self.player, "opponent": self.opponent, "height": self.height,
            "level": _level_text(self.level) if self.level == math.inf else int(self.level),
            "opponent_level": _level_text(self.opponent_level) if self.opponent_level == math.inf
            else int(self.opponent_level),
            "decided": [n.name for n in self.decision.decided_nodes()],
            "decided_by_partial_knowledge": [n.name for n in self.decision.decided_by_partial_knowledge()],
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
        lines.append(f"Decided nodes (Algorithm 3): {', '.join(dec) if dec else 'none'}.")
        if self.decision.evaluations:
            lines.append("Partial knowledge: " + "; ".join(e.describe() for e in self.decision.evaluations) + ".")
            extra = [n.name for n in self.decision.decided_by_partial_knowledge()]
            lines.append(f"Decided only thanks to partial knowledge: {', '.join(extra) if extra else 'none'}.")
        for c in self.candidates:
            mark = "*" if c is self.recommended else " "
            status = "applies" if c.applicable else "does not apply"
            g = "" if c.guaranteed is None else f"; guarantees {c.guaranteed}"
            v = {True: " [claim verified on every allowed behaviour]",
                 False: f" [claim FAILS on this tree: {c.counterexample}]", None: ""}[c.verified]
            lines.append(f" {mark} {c.strategy:<8} {status}: {c.precondition}. {c.justification}. "
                         f"Estimate {c.estimate}{g}.{v}{(' ' + c.note) if c.note else ''}")
        for m in self.communication:
            checks = ", ".join(f"{f}: {'yes' if h else 'no'}" for f, h in m.checks)
            out = f" -> both play Mh: {m.outcome}" if m.applicable else ""
            lines.append(f"   Scheme {m.scheme}: {m.reason}. Checks: {checks}.{out}")
        r = self.recommended
        best = self.best_with_communication
        lines.append(f"Recommendation: {r.strategy}, outcome {r.guaranteed or r.estimate}"
                     + (f"; with communication (scheme {best.scheme}) {best.outcome}." if best else "."))
        return "\n".join(lines)


def _better(a: np.ndarray, b: np.ndarray, comp: int, sign: int) -> bool:
    return bool(np.all(sign * a[:, comp] >= sign * b[:, comp] - 1e-12))


def select(tree: GameTree, knowledge: Iterable[Formula | str], player: str | None = None, *,
           timeout: float | None = None, verify: bool = True, node: object = None,
           evaluations: Iterable[EvaluationKnowledge] | None = None) -> Selection:
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
    knowledge = arguments.formulas(knowledge, "knowledge")
    from kop.reasoning.knowledge import level as knowledge_level
    from kop.reasoning.entailment import cached_entails as entails

    where = "root"
    evals = tuple(evaluations) if evaluations is not None else ()
    if node is not None:
        if evals:
            from kop.selection.evaluations import restrict_all
            evals = restrict_all(evals, tree, node)  # type: ignore[arg-type]
        where = tree.node(node).name  # type: ignore[arg-type]
        tree = tree.subtree(node)  # type: ignore[arg-type]
    first, second = two_players(tree)
    p = first if player is None else player
    tree.player(p)
    if p != first:
        raise LimitError(f"the selector reasons for the player who moves at {where} ({first}), not {p}")
    q = second
    formulas = tuple(arguments.formulas(knowledge, "knowledge"))
    decision = decide(tree, formulas, timeout=timeout, evaluations=evals)
    ks = formulas
    if evals:
        from kop.selection.evaluations import knowledge_formulas, resolve_all
        ks = formulas + knowledge_formulas(tree, resolve_all(tree, evals))
    h = tree.height
    lp = knowledge_level(ks, p, q, max_depth=h + 1, timeout=timeout)
    lq = knowledge_level(ks, q, p, max_depth=h + 1, timeout=timeout)
    pi = tree.player_index(p)
    sign = tree.players[pi].sign

    s_mh = mh(tree)
    # the opponent makes the agreed (M^h) move at every decided node where it moves
    mh_next = s_mh.next_array
    q_decided = np.flatnonzero(np.asarray(decision.decided, dtype=bool) & (tree.kind == tree.player_index(q)))
    fixed = {int(i): int(mh_next[i]) for i in q_decided}
    behaviours = Behaviours(tree, q, fixed)

    d_h = int(min(max(lp, 0), h)) if lp != math.inf else h
    s_hm = hm0m(tree, max(d_h, 1), p) if lp >= 1 else None
    s_min = minimax(tree, p)
    s_md = mstar(tree, d_h, p) if lp >= 1 else None
    named = [("Mh", s_mh), ("HM0M", s_hm), ("M", s_md), ("minimax", s_min)]
    strategies = [s for _, s in named if s is not None]
    outcomes = None
    note = ""
    if verify:
        try:
            outcomes = outcomes_against_allowed(behaviours, strategies, p)
        except LimitError as exc:
            note = f"(not verified: {exc})"
    col = {id(s): k for k, s in enumerate(strategies)}

    def guaranteed(s):
        if outcomes is None:
            return None
        vals = outcomes[:, col[id(s)], :]
        worst = vals[np.argmin(sign * vals[:, pi])]
        return tree.value_of(worst)

    def dominates(s, others):
        """(verified, counterexample text, per-pair results) for "s K-dominates each of others"."""
        if outcomes is None:
            return None, "", tuple((o.name, None) for o in others)
        mine = outcomes[:, col[id(s)], :]
        pairs: list[tuple[str, bool | None]] = []
        first = ""
        for o in others:
            theirs = outcomes[:, col[id(o)], :]
            worse = np.flatnonzero(sign * mine[:, pi] < sign * theirs[:, pi] - 1e-12)
            pairs.append((o.name, not len(worse)))
            if len(worse) and not first:
                k = int(worse[0])
                first = (f"against one allowed behaviour of {q}, {s.name} reaches "
                         f"{tree.value_of(mine[k])} but {o.name} reaches {tree.value_of(theirs[k])}")
        return not first, first, tuple(pairs)

    need = max(h - 1, 0)
    paper_ok = h <= 1 or lp >= need
    # knowing-value generalization of Theorem 6: when partial knowledge of evaluations lets P
    # predict every move of Q (every Q node decided, some only thanks to it), Q's behaviour is
    # the M^h one and M^h is P's best response to it
    predicts_all = bool(any(decision.partial_only)) and all(
        decision.decided[i] for i in np.flatnonzero(tree.kind == tree.player_index(q)))
    mh_ok = paper_ok or predicts_all
    mh_claim = dominates(s_mh, [s for s in strategies if s is not s_mh]) if mh_ok else (None, "", ())
    pre = f"height(t) <= 1 or f({p},{need}) ⊆ K({p}); {p}'s level is {_level_text(lp)}"
    if decision.evaluations:
        pre += (f"; or partial knowledge decides every node where {q} moves "
                f"({'yes' if predicts_all else 'no'})")
    if lp == math.inf:
        why = "Corollary 3: common knowledge of E_A and E_B"
    elif paper_ok:
        why = "Theorem 6: K-dominates every strategy"
    elif predicts_all:
        why = f"partial knowledge: {p} predicts every move of {q}, and M^h is the best response to it"
    else:
        why = "Theorem 6: K-dominates every strategy"
    cands = [Candidate(
        "Mh", mh_ok, pre, why,
        s_mh.value, guaranteed(s_mh), tuple(n for n, s in named if s is not None and s is not s_mh),
        mh_claim[0], note, mh_claim[1], mh_claim[2])]
    if s_hm is not None:
        hm_claim = dominates(s_hm, [s_min])
        cands.append(Candidate(
            f"HM0M{max(d_h, 1)}", True, f"{p}'s level d = {_level_text(lp)} >= 1",
            "Theorem 8: K-dominates minimax", s_hm.value, guaranteed(s_hm), ("minimax",),
            hm_claim[0], note, hm_claim[1], hm_claim[2]))
    else:
        cands.append(Candidate("HM0M1", False, f"needs f({p},1) ⊆ K({p}); {p}'s level is {_level_text(lp)}",
                               "Theorem 8: K-dominates minimax", hm0m(tree, 1, p).value, None))
    if s_md is not None:
        knows_strategy = entails(ks, Know(p, strategy_atom(q)), timeout=timeout).holds
        asym = lp > lq
        cands.append(Candidate(
            f"M{d_h}", asym and knows_strategy,
            f"knowledge asymmetry ({p}'s level {_level_text(lp)} > {q}'s {_level_text(lq)}: "
            f"{'yes' if asym else 'no'}) and K_{p} S_{q} ({'yes' if knows_strategy else 'no'})",
            f"Carmel & Markovitch: exact against {q} playing M{d_h - 1}; no guarantee otherwise",
            s_md.value, guaranteed(s_md), (), None,
            f"play(M{d_h}, M{d_h - 1}) = {play(tree, {p: s_md, q: mstar(tree, d_h - 1, q)}).value}"))
    cands.append(Candidate("minimax", True, "always", "the worst-case baseline (Algorithm 1)",
                           s_min.value, guaranteed(s_min), (), None, note))
    comm = _communication(tree, ks, p, q, lp, timeout)
    return Selection(tree, p, q, lp, lq, decision, tuple(cands), comm, where)


def _communication(tree: GameTree, ks: tuple[Formula, ...], p: str, q: str, lp: float,
                   timeout: float | None) -> tuple[Communication, ...]:
    from kop.reasoning.entailment import cached_entails as entails
    from kop.syntax.formula import AnnounceDual

    outcome = play(tree, {p: mh(tree), q: mh(tree)}).value
    ev = And(evaluation(p), evaluation(q))
    ck = Common((p, q), ev)
    after = AnnounceDual(ev, ck)
    c1 = entails(ks, after, timeout=timeout).holds
    s1 = Communication(
        "I", lp >= 1 and c1, ev, ((f"<!{to_ascii(ev)}> {to_ascii(ck)}", c1),), outcome if lp >= 1 and c1 else None,
        f"needs d >= 1 (level {_level_text(lp)}): {p} announces E_{p} and E_{q}; afterwards they are "
        f"common knowledge and M^h K-dominates for both (Corollary 3)")
    verify = Know(q, evaluation(p))
    c2 = entails(ks, verify, timeout=timeout).holds
    s2 = Communication(
        "II", lp >= 2 and c2, strategy_atom(p), ((to_ascii(verify), c2),), outcome if lp >= 2 and c2 else None,
        f"needs d >= 2 (level {_level_text(lp)}): {p} announces that it uses M^h; {q} can verify it "
        f"during play (K_{q} E_{p}, property 6), so M^h is mutually enforced (Theorem 5)")
    return (s1, s2)
