"""The answer to each kind of question: a JSON-ready result and a line of text."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from kop.syntax.budget import OutOfTime
from kop.syntax.formula import And, Announce, Atom, Common, Formula, conj
from kop.syntax.printer import to_ascii
from kop.syntax.wording import plural
from kop.theory import statements as S
from kop.theory.knowledge import Context, is_preserved
from kop.theory.model import Answer
from kop.theory.source import Position
from kop.theory.state import DominanceKey, TheoryState
from kop.theory.statements import Statement
from kop.games.registry import strategy
from kop.games.strategies.play import play
from kop.games.strategies.strategy import path_words
from kop.reasoning.entailment import cached_entails as entails
from kop.reasoning.knowledge import level
from kop.reasoning.prover import entails
from kop.reasoning.prover import satisfiable
from kop.reasoning.prover import valid
from kop.selection.decide import decide
from kop.selection.decide import decided_formulas
from kop.selection.decide import two_players
from kop.selection.missing import missing_knowledge
from kop.selection.selector import select
from kop.syntax.levels import chain
from kop.syntax.levels import f_level
from kop.errors import KopError
from kop.theory.beliefs import belief_tables
from kop.theory.beliefs import tables_text
import kop.theory.dominance as dominance_module  # looked up at call time (tests count the calls)

if TYPE_CHECKING:  # pragma: no cover
    from kop.games.trees.tree import GameTree
    from kop.selection.missing import Gap
    from kop.theory.dominance import Dominance

__all__ = ["prover_answer", "check_answer", "worlds_answer", "play_answer", "level_answer", "decided_answer",
           "select_answer", "dominates_answer", "announce_model", "announce_game"]


def _level(x: float) -> int | str:
    return "inf" if x == math.inf else int(x)


def prover_answer(state: TheoryState, st: Statement, verb: str, f: Formula, ctx: Context | None) -> Answer:

    q = f"{verb} {to_ascii(f)}"
    agents = state.agents
    if verb == "valid":
        v = valid(f, agents=agents, timeout=state.timeout)
    elif verb == "satisfiable":
        v = satisfiable(f, agents=agents, timeout=state.timeout)
    else:
        assert ctx is not None
        v = entails(ctx.formulas, f, agents=agents, timeout=state.timeout)
    witness = v.model if (v.holds and verb == "satisfiable") or (not v.holds and verb != "satisfiable") else None
    text = f"{q}: {'yes' if v.holds else 'no'}"
    if witness is not None:
        text += f" ({'model' if verb == 'satisfiable' else 'countermodel'} with {plural(len(witness.worlds), 'world')})"
    return Answer(st.line, q, {"holds": bool(v.holds), "model": None if witness is None else witness.to_json()},
                  text)


def check_answer(state: TheoryState, st: Statement, f: Formula) -> Answer:
    model = state.need_model(st)
    q = f"check {to_ascii(f)}"
    holds = model.satisfies(f)
    worlds = sorted(model.truth_set(f))
    return Answer(st.line, q, {"holds": bool(holds), "worlds": worlds},
                  f"{q}: {'yes' if holds else 'no'} (true at {plural(len(worlds), 'world')})")


def worlds_answer(state: TheoryState, st: Statement) -> Answer:
    model = state.need_model(st)
    actual = list(model.actual)
    shown = []
    for w in actual[:20]:
        val = sorted(model.valuation(w))
        shown.append(f"{w} ({' '.join(val) or 'nothing true'})")
    more = f", ... ({len(actual)} in all)" if len(actual) > 20 else ""
    return Answer(st.line, "worlds", {"worlds": actual,
                                      "valuations": {w: sorted(model.valuation(w)) for w in actual[:1000]}},
                  f"worlds: {', '.join(shown) or 'none'}{more}")


def play_answer(state: TheoryState, st: S.AskPlay) -> Answer:

    tree = state.need_tree(st)
    chosen: dict[str, Any] = {}
    for (who, name), (at, name_at) in zip(st.strategies, st.strategy_pos):
        if who not in tree.player_names:
            raise st.error(f"unknown player {who!r} (players: {', '.join(tree.player_names)})", who, at)
        try:
            chosen[who] = strategy(tree, name, who)
        except Exception as exc:

            if isinstance(exc, KopError) and not isinstance(exc, OutOfTime):
                raise st.error(str(exc), name, name_at) from None
            raise
    out = play(tree, chosen)
    q = "play " + " ".join(f"{w}={n}" for w, n in st.strategies)
    path = [n.name for n in out.path]
    moves = [str(m) for m in out.steps]

    words = path_words(out.path)
    return Answer(st.line, q, {"outcome": list(out.value), "path": path, "moves": moves},
                  f"{q}: {tuple(out.value)}, moves {' -> '.join(words) or 'none'}")


def level_answer(state: TheoryState, st: Statement, ctx: Context, p: str, at: Position | None) -> Answer:

    q = state.opponent(st, p, at)
    lv = level(ctx.formulas, p, q, timeout=state.timeout, agents=state.agents)
    return Answer(st.line, f"level {p}", {"level": _level(lv)}, f"level {p}: {_level(lv)}")


def decision_report(state: TheoryState, st: Statement | None, ctx: Context
                    ) -> tuple[list[str], list[str] | None, list[Gap]]:
    """(decided nodes, nodes decided by partial knowledge only or None, gaps of the undecided nodes)."""

    tree = state.need_tree(st)
    state.consistent_in(ctx, st)
    evs = state.evaluations(ctx, st)
    d = decide(tree, ctx.formulas, timeout=state.timeout, evaluations=evs or None, strict=state.strict)
    names = [n.name for n in d.decided_nodes()]
    extra = [n.name for n in d.decided_by_partial_knowledge()] if evs else None
    gaps = [g for g in missing_knowledge(tree, ctx.formulas, timeout=state.timeout, evaluations=evs or None,
                                         strict=state.strict)
            if g.node not in names]
    return names, extra, gaps


def decided_answer(state: TheoryState, st: Statement, ctx: Context) -> Answer:
    names, extra, gaps = decision_report(state, st, ctx)
    text = f"decided nodes: {', '.join(names) or 'none'}"
    result: dict[str, Any] = {"decided": names, "undecided": [g.to_json() for g in gaps]}
    if extra is not None:
        text += f"; by partial knowledge (not by the atoms alone): {', '.join(extra) or 'none'}"
        result["by_partial_knowledge"] = extra
    for g in gaps:
        text += f"\n  undecided: {g.explain()}"
    return Answer(st.line, "decided", result, text)


def _player(state: TheoryState, st: Statement, name: str | None, at: Position | None) -> str | None:
    tree = state.need_tree(st)
    if name is None:
        return None
    if name not in tree.player_names:
        raise st.error(f"unknown player {name!r} (players: {', '.join(tree.player_names)})", name, at)
    return name


def select_answer(state: TheoryState, st: Statement, ctx: Context, name: str | None,
                  at: Position | None) -> Answer:

    tree = state.need_tree(st)
    p = _player(state, st, name, at)
    evs = state.evaluations(ctx, st)
    try:
        s = select(tree, ctx.formulas, p, timeout=state.timeout, evaluations=evs or None, strict=state.strict)
    except Exception as exc:

        if isinstance(exc, KopError) and not isinstance(exc, OutOfTime) and name is not None:
            raise st.error(str(exc), name, at) from None
        raise
    return Answer(st.line, f"select {s.player}", s.to_json(), s.explain())


def dominance_key(ctx: Context, player: str | None, tree: GameTree | None, strict: bool = False) -> DominanceKey:
    """What a dominance report depends on: the scenario, its knowledge, the player asked about, the tree (by value).

    >>> from kop.theory.knowledge import Context
    >>> dominance_key(Context("s1", ()), "A", None)
    ('s1', (), (), 'A', None)
    """
    return (ctx.name, ctx.formulas, ctx.partials, player, tree) + (("strict",) if strict else ())


def dominance_of(state: TheoryState, st: Statement, ctx: Context, player: str | None,
                 at: Position | None = None) -> Dominance:
    """The dominance report for *player* in *ctx* (computed once per theory run)."""

    tree = state.need_tree(st)
    if player is not None and player not in tree.player_names:
        raise st.error(f"unknown player {player!r} (players: {', '.join(tree.player_names)})", player, at)
    key = dominance_key(ctx, player, tree, state.strict)
    state.consistent_in(ctx, st)   # checked even when the report is known (``kop dominates`` shares them)
    if key not in state.dominance_cache:
        evs = state.evaluations(ctx, st)
        try:
            r = dominance_module.dominance(tree, ctx.formulas, player, scenario=ctx.name, timeout=state.timeout,
                                           evaluations=evs, strict=state.strict)
            state.dominance_cache[key] = r
            state.dominance_cache.setdefault(dominance_key(ctx, r.player, tree, state.strict), r)
        except Exception as exc:

            if isinstance(exc, KopError) and not isinstance(exc, OutOfTime):
                raise st.error(str(exc), player or "", at) from None
            raise
    return state.dominance_cache[key]


def dominates_answer(state: TheoryState, st: Statement, ctx: Context, name: str | None,
                     at: Position | None) -> Answer:
    r = dominance_of(state, st, ctx, name, at)
    if not ctx.beliefs:
        return Answer(st.line, f"dominates {r.player}", r.to_json(), r.explain())

    tables = belief_tables(state.need_tree(st), ctx.beliefs, r.player)
    if not tables:
        return Answer(st.line, f"dominates {r.player}", r.to_json(), r.explain())
    return Answer(st.line, f"dominates {r.player}", {**r.to_json(), "uncertainty": tables},
                  r.explain() + "\n" + tables_text(tables))


def announce_model(state: TheoryState, st: Statement, f: Formula) -> Answer:
    state.model = state.need_model(st).announce(f)
    n = len(state.model.worlds)
    return Answer(st.line, f"announce {to_ascii(f)}", {"worlds": n},
                  f"announced {to_ascii(f)}: {n} world{'s' if n != 1 else ''} remain{'s' if n == 1 else ''}")


def _levels_after(ks: tuple[Formula, ...], f: Formula, p: str, q: str, h: int, timeout: float | None) -> float:
    """P's level after the announcement of f: the largest d with ks |= [!f] f(P, d) (up to height + 1)."""

    if not entails(ks, Announce(f, conj(f_level(p, q, 0))), timeout=timeout).holds:
        return -1
    ck = Common((p, q), And(Atom(f"E_{p}"), Atom(f"E_{q}")))
    if entails(ks, Announce(f, ck), timeout=timeout).holds:
        return math.inf
    d = 0
    while d <= h and entails(ks, Announce(f, chain(p, q, d + 1)), timeout=timeout).holds:
        d += 1
    return d


def announce_game(state: TheoryState, st: Statement, ctx: Context, f: Formula) -> Answer:
    """What announcing *f* changes in the game: levels, decided nodes, recommendation and outcome."""

    tree = state.need_tree(st)
    ks = ctx.formulas
    truthful = entails(ks, f, timeout=state.timeout)
    if not truthful.holds:
        raise st.error(f"the announcement {to_ascii(f)} does not follow from the knowledge of {ctx.label}: "
                       "a public announcement must be true")
    bad = [g for g in ks if not is_preserved(g)]
    if not is_preserved(f) or bad:
        what = to_ascii(f) if not is_preserved(f) else to_ascii(bad[0])
        raise st.error(f"announce on a game needs knowledge that announcements preserve (no negation or M "
                       f"over knowledge); {what} is not")
    p, q = two_players(tree)
    h = tree.height
    before = select(tree, ks, p, timeout=state.timeout)
    after_ks = ks + (Common((p, q), f),)
    after = select(tree, after_ks, p, timeout=state.timeout)
    # exactness: the knowledge base after (preserved knowledge and C f) must give what [!f] gives
    exact_lp = _levels_after(ks, f, p, q, h, state.timeout)
    exact_lq = _levels_after(ks, f, q, p, h, state.timeout)
    lp_after = level(after_ks, p, q, max_depth=h + 1, timeout=state.timeout)
    lq_after = level(after_ks, q, p, max_depth=h + 1, timeout=state.timeout)
    forms = decided_formulas(tree)
    exact_decided = [n.name for n in tree.nodes() if not n.is_leaf
                     and entails(ks, Announce(f, forms[n.index]), timeout=state.timeout).holds]
    dec_after = [n.name for n in decide(tree, after_ks, timeout=state.timeout).decided_nodes()]
    if (min(exact_lp, h + 1), min(exact_lq, h + 1)) != (min(lp_after, h + 1), min(lq_after, h + 1)) or \
            exact_decided != dec_after:
        raise st.error("kop cannot compute the knowledge after this announcement exactly "
                       "(the preserved knowledge and common knowledge of the announcement differ from [!F])")

    def side(s: Any) -> dict[str, Any]:
        r = s.recommended
        return {"levels": {p: _level(s.level), q: _level(s.opponent_level)},
                "decided": [n.name for n in s.decision.decided_nodes()], "recommended": r.strategy,
                "outcome": list(r.guaranteed or r.estimate)}

    b, a = side(before), side(after)
    text = (f"announce {to_ascii(f)}{'' if ctx.name is not None else ' (' + ctx.label + ')'}: levels {p} {b['levels'][p]} -> {a['levels'][p]}, "
            f"{q} {b['levels'][q]} -> {a['levels'][q]}; decided {len(b['decided'])} -> {plural(len(a['decided']), 'node')}; "
            f"{p} plays {b['recommended']} {tuple(b['outcome'])} -> {a['recommended']} {tuple(a['outcome'])}")
    return Answer(st.line, f"announce {to_ascii(f)}", {"before": b, "after": a}, text, ctx.name)
