"""Which strategy dominates for a player, and why: the selector's answer with its proofs.

:func:`dominance` runs the selector (:func:`kop.selection.selector.select`)
and adds what a reader checks: each candidate's knowledge precondition,
proved by the prover or refuted with a countermodel; the pairwise dominance
claims and whether playing every allowed opponent behaviour verified them on
this tree; the recommendation, its outcome and the outcome with
communication; and the paper's M* play (``M^d`` against the opponent's
``M^d'``) beside minimax against minimax.

Example
-------
>>> import kop
>>> from kop.selection.examples import figure2
>>> r = dominance(figure2(), kop.f_level("A", "B", 1) + kop.f_level("B", "A", 1), "A")
>>> r.recommended, r.outcome, r.outcome_with_communication
('HM0M1', (9, 4), (10, 3))
>>> r.mstar_note
'M1 against M1 gives (3, 8); minimax against minimax gives (4, 7): M1 is worse for both players'
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from kop.games.trees.tree import GameTree
from kop.reasoning.announcements import rebuild
from kop.syntax import formula as F
from kop.syntax.formula import Formula
from kop.syntax.fragments import has_belief
from kop.syntax.wording import plural
from kop.games.names import StrategyName
from kop.games.registry import strategy
from kop.games.strategies.play import play
from kop.reasoning.entailment import cached_entails as entails
from kop.selection.selector import select
from kop.syntax.printer import to_ascii

__all__ = ["Precondition", "Claim", "Dominance", "dominance", "as_belief"]


@dataclass(frozen=True)
class Precondition:
    """A candidate's knowledge precondition: the formula, whether it follows, and a countermodel if not."""

    formula: Formula | None
    holds: bool
    countermodel: Any = None
    text: str = ""
    #: the formula is refuted, but partial knowledge of evaluations meets the precondition
    by_partial: bool = False
    #: the formula is refuted, but its belief version (every ``K_a`` read as ``B_a``) follows
    believed: bool = False

    @property
    def status(self) -> str:
        if self.by_partial:
            return "met by partial knowledge"
        if self.holds:
            return "proved"
        return "holds only in belief" if self.believed else "refuted"

    def to_json(self) -> dict[str, Any]:

        return {"formula": None if self.formula is None else to_ascii(self.formula),
                "status": self.status, "text": self.text,
                "countermodel": None if self.countermodel is None else self.countermodel.to_json()}


@dataclass(frozen=True)
class Claim:
    """``strategy`` K-dominates ``over`` (claimed by a theorem); verified, refuted or unchecked on this tree."""

    strategy: str
    over: str
    claimed_by: str
    verified: bool | None

    def to_json(self) -> dict[str, Any]:
        return {"strategy": self.strategy, "over": self.over, "claimed_by": self.claimed_by,
                "verified": self.verified}


@dataclass(frozen=True)
class Dominance:
    """The answer to "which strategy dominates for P?" in one scenario."""

    scenario: str | None
    player: str
    selection: Any
    preconditions: tuple[Precondition, ...]
    claims: tuple[Claim, ...]
    mstar_play: tuple[str, str, tuple[Any, ...]] | None
    minimax_play: tuple[Any, ...]

    @property
    def recommended(self) -> str:
        return str(self.selection.recommended.strategy)

    @property
    def outcome(self) -> tuple[Any, ...]:
        r = self.selection.recommended
        return tuple(r.guaranteed or r.estimate)

    @property
    def outcome_with_communication(self) -> tuple[Any, ...] | None:
        c = self.selection.best_with_communication
        return None if c is None else tuple(c.outcome)

    @property
    def mstar_note(self) -> str:
        if self.mstar_play is None:
            return ""
        mine, theirs, out = self.mstar_play
        tree = self.selection.tree
        signs = [p.sign for p in tree.players]
        worse = [p.name for k, p in enumerate(tree.players) if signs[k] * out[k] < signs[k] * self.minimax_play[k]]
        verdict = ("worse for both players" if len(worse) == len(tree.players) else
                   f"worse for {', '.join(worse)}" if worse else "not worse for either player")
        return (f"{mine} against {theirs} gives {out}; minimax against minimax gives {self.minimax_play}: "
                f"{mine} is {verdict}")

    def to_json(self) -> dict[str, Any]:
        sel = self.selection
        cands = []
        for c, pre in zip(sel.candidates, self.preconditions):
            cands.append({"strategy": c.strategy, "applicable": c.applicable, "precondition": pre.to_json(),
                          "theorem": c.justification, "predicted": list(c.estimate),
                          "guaranteed": None if c.guaranteed is None else list(c.guaranteed)})
        return {"scenario": self.scenario, "player": self.player, "recommended": self.recommended,
                "outcome": list(self.outcome),
                "outcome_with_communication": None if self.outcome_with_communication is None
                else list(self.outcome_with_communication),
                "candidates": cands, "dominance": [c.to_json() for c in self.claims],
                "levels": {sel.player: _level(sel.level), sel.opponent: _level(sel.opponent_level)},
                "decided": [n.name for n in sel.decision.decided_nodes()],
                "mstar": None if self.mstar_play is None else {
                    "play": [self.mstar_play[0], self.mstar_play[1]], "outcome": list(self.mstar_play[2]),
                    "minimax_outcome": list(self.minimax_play), "note": self.mstar_note}}

    def explain(self) -> str:
        """The report as text."""

        sel = self.selection
        head = f"Scenario {self.scenario}: " if self.scenario is not None else ""
        lines = [f"{head}{sel.player} moves first; levels (by the prover): {sel.player} = "
                 f"{_level(sel.level)}, {sel.opponent} = {_level(sel.opponent_level)}; decided nodes: "
                 f"{', '.join(n.name for n in sel.decision.decided_nodes()) or 'none'}."]
        for i, (c, pre) in enumerate(zip(sel.candidates, self.preconditions), 1):
            mark = "*" if c is sel.recommended else " "
            if pre.by_partial:
                why = f"{to_ascii(pre.formula)} does not follow, but {pre.text}" if pre.formula else pre.text
            elif pre.formula is None:
                why = pre.text
            elif pre.holds:
                why = f"{to_ascii(pre.formula)} proved"
            else:
                size = "" if pre.countermodel is None else f" (countermodel: {plural(len(pre.countermodel.worlds), 'world')})"
                why = f"{to_ascii(pre.formula)} refuted{size}"
                if pre.believed:
                    why += f"; it holds only in belief ({to_ascii(as_belief(pre.formula))} follows)"
            lines.append(f" {mark}{i}. {c.strategy:<8} {'applies' if c.applicable else 'does not apply'}: {why}. "
                         f"{c.justification}. Predicted {tuple(c.estimate)}, {_guarantee_text(c)}.")
        for cl in self.claims:
            status = {True: "verified on every allowed behaviour", False: "REFUTED on this tree",
                      None: "not checked"}[cl.verified]
            lines.append(f"   {cl.strategy} K-dominates {cl.over} ({cl.claimed_by}): {status}.")
        if self.mstar_note:
            lines.append(f"   {self.mstar_note}.")
        comm = sel.best_with_communication
        lines.append(f"Recommendation: {self.recommended}, outcome {self.outcome}"
                     + (f"; with communication (scheme {comm.scheme}) {tuple(comm.outcome)}." if comm else
                        "; communication does not apply."))
        return "\n".join(lines)


def _guarantee_text(c: Any) -> str:
    """The guarantee of a candidate in words; why there is none when there is none.

    >>> from kop.games.names import StrategyName
    >>> from kop.selection.selector import Candidate
    >>> c = Candidate(name=StrategyName.hm0m(1), applicable=False, precondition="", justification="", estimate=(9, 4))
    >>> _guarantee_text(c)
    'guaranteed: none computed (it does not apply: its knowledge precondition fails, so no behaviour is checked for it)'
    """
    if c.guaranteed is not None:
        return f"guaranteed {tuple(c.guaranteed)}"
    if c.note:
        return f"guaranteed: not verified {c.note}"
    if not c.applicable:
        return "guaranteed: none computed (it does not apply: its knowledge precondition fails, so no behaviour is checked for it)"
    return "guaranteed: not checked"


def as_belief(f: Formula) -> Formula:
    """*f* with every ``K_a`` read as ``B_a`` (``M_a`` as ``~B_a ~``): what the precondition says as belief.

    >>> from kop import parse
    >>> as_belief(parse("K_A (E_A & K_B E_B)"))
    kop.parse('B_A (E_A & B_B E_B)')
    """
    out: dict[Formula, Formula] = {}
    for g in f.subformulas():
        kids = tuple(out[c] for c in g.children)
        if isinstance(g, F.Know):
            out[g] = F.Belief(g.agent, kids[0])
        elif isinstance(g, F.Possible):
            out[g] = F.Not(F.Belief(g.agent, F.Not(kids[0])))
        else:
            out[g] = rebuild(g, kids)
    return out[f]


def _level(x: float) -> int | str:
    return "inf" if x == math.inf else int(x)


def dominance(tree: GameTree, knowledge: Iterable[Formula], player: str | None = None, *,
              scenario: str | None = None, timeout: float | None = None,
              evaluations: Sequence[Any] = (), strict: bool = False) -> Dominance:
    """The strategies *knowledge* justifies for *player* on *tree*, with proofs, claims and outcomes.

    Parameters
    ----------
    tree : GameTree
        Two players (chance nodes allowed); *player* moves at the root.
    knowledge : formulas
        What is true at the actual world.
    player : str, optional
        The player (default: the root's mover).
    scenario : str, optional
        A name to report.
    timeout : float, optional
        Seconds per prover question.
    evaluations : sequence
        Partial knowledge of evaluation functions (``kop.knows_candidates`` ...).
    strict : bool
        Decide by the stricter reading of Definition 6 (:func:`kop.decide`).
    """

    ks = tuple(knowledge)
    if evaluations:
        sel = select(tree, ks, player, timeout=timeout, evaluations=list(evaluations), strict=strict)
    else:
        sel = select(tree, ks, player, timeout=timeout, strict=strict)
    p, q = sel.player, sel.opponent
    h = tree.height

    believing = any(has_belief(k) for k in ks)

    def prove(f: Formula) -> Precondition:
        v = entails(ks, f, timeout=timeout)
        if v.holds or not believing:
            return Precondition(f, bool(v.holds), None if v.holds else v.model)
        # knowledge with beliefs: a precondition that fails as knowledge may still hold as belief
        b = entails(ks, as_belief(f), timeout=timeout)
        return Precondition(f, False, v.model, believed=bool(b.holds))

    pres = []
    for c in sel.candidates:
        if c.requires is None:  # minimax, or M^h on a tree of height at most 1
            pres.append(Precondition(None, True, text="height(t) <= 1" if c.name.kind == "Mh" else "always"))
        elif c.name.kind == "M":  # M^d also needs the knowledge asymmetry
            pre = prove(c.requires)
            asym = sel.level > sel.opponent_level
            pres.append(Precondition(pre.formula, pre.holds and asym, pre.countermodel,
                                     f"knowledge asymmetry: {'yes' if asym else 'no'}"))
        else:
            pres.append(prove(c.requires))
        if evaluations and c.applicable and not pres[-1].holds:
            pres[-1] = Precondition(pres[-1].formula, True, pres[-1].countermodel,
                                    f"partial knowledge of evaluations meets it ({c.precondition})", True)
    claims = []
    for c in sel.candidates:
        if not c.applicable:
            continue
        theorem = c.justification.split(":")[0]
        for over, ok in c.claims:
            claims.append(Claim(c.strategy, over, theorem, ok))
    minimax_play = play(tree, {p: strategy(tree, "minimax", p), q: strategy(tree, "minimax", q)}).value
    mstar_play = None
    lp, lq = sel.level, sel.opponent_level
    if 1 <= lp < math.inf and 0 <= lq < math.inf:
        dp, dq = int(min(lp, h)), int(min(lq, h))
        mp, mq = StrategyName.mstar(dp), StrategyName.mstar(dq)
        out = play(tree, {p: strategy(tree, mp, p), q: strategy(tree, mq, q)}).value
        mstar_play = (str(mp), str(mq), tuple(out))
    return Dominance(scenario, p, sel, tuple(pres), tuple(claims), mstar_play, tuple(minimax_play))
