"""Running a theory: its statements in order, and the answers to its questions.

:func:`run_theory` keeps the state a theory builds -- agents, players, the
game, the model, the shared knowledge and the scenarios -- and answers each
question in the scenarios it names (every scenario by default, or the base
when there is none).  Results are structured (:class:`~kop.theory.model.Answer`
with a JSON-ready ``result``); the command line only formats them.

>>> import kop
>>> th = kop.parse_theory('''
... players A max, B min
... game A { L: B { (1,5) (3,2) }  R: B { (2,1) (0,0) } }
... scenario blind { core A = 0 }
... scenario sighted {
...   core A = 1
...   know K_B E_A
... }
... ask dominates A
... ''')
>>> [(a.scenario, a.result["recommended"]) for a in kop.run_theory(th)]
[('blind', 'minimax'), ('sighted', 'Mh')]
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any, assert_never

from kop.syntax.budget import OutOfTime, check_timeout
from kop.errors import KopError, ParseError
from kop.syntax.formula import Common, Formula
from kop.theory import statements as S
from kop.theory.knowledge import Context, Item
from kop.theory.model import Answer, Theory
from kop.theory.state import TheoryState
from kop.theory.statements import Statement
from kop.semantics.model import KripkeModel
from kop.games.registry import strategy
from kop.games.strategies.play import play
from kop.games.trees.tree import GameTree
from kop.io.efg import loads_efg
from kop.io.trees import dumps_tree
from kop.io.trees import loads_tree
from kop.reasoning.knowledge import level
from kop.selection.decide import decide
from kop.syntax.arguments import fail
from kop.theory import answers as A
from kop.theory.defines import apply_defines
from kop.theory.files import read_confined
from kop.theory.games import build_game
from kop.theory.games import players_of
from kop.theory.grammar import expand_includes
from kop.theory.observation import build_observation_model
from kop.theory.observation import model_atoms

__all__ = ["run_theory", "run_statements", "contexts", "TheoryState"]


def _level(x: float) -> int | str:
    return "inf" if x == math.inf else int(x)


def _load_tree(state: TheoryState, st: S.TreeFile) -> Any:

    name = st.path
    try:
        text = read_confined(name, state.base_path(st), allow_outside=state.theory.allow_outside, what="tree file")
    except OutOfTime:  # unknown within the limit: not an input error
        raise
    except KopError as exc:
        raise st.error(str(exc), name) from None
    head = text.lstrip()[:200]
    try:
        if name.lower().endswith(".efg") or head.startswith("EFG"):
            if not head.startswith("EFG"):
                raise KopError(f"tree file {name!r} is not a Gambit .efg file")

            return loads_efg(text)
        import json

        try:
            doc = json.loads(text)
        except (ValueError, RecursionError):
            doc = None
        if not isinstance(doc, dict) or doc.get("format") != "kop-tree/1":
            raise KopError(f"tree file {name!r} is not a kop-tree/1 JSON or Gambit .efg file")

        return loads_tree(text)
    except OutOfTime:  # unknown within the limit: not an input error
        raise
    except KopError as exc:
        raise st.error(str(exc) if str(exc).startswith("tree file") else f"tree file {name!r}: {exc}", name) from None


def _load_model(state: TheoryState, st: S.ModelFile) -> Any:
    import json


    name = st.path
    try:
        text = read_confined(name, state.base_path(st), allow_outside=state.theory.allow_outside,
                             what="model file")
        try:
            doc = json.loads(text)
        except (ValueError, RecursionError):
            doc = None
        if not isinstance(doc, dict) or not (doc.get("format") == "kop-model/1" or
                                             {"agents", "worlds"} <= set(doc)):
            raise KopError(f"model file {name!r} is not a kop-model/1 JSON file")
        return KripkeModel.from_json(text, source=name)
    except OutOfTime:  # unknown within the limit: not an input error
        raise
    except KopError as exc:
        raise st.error(str(exc), name) from None


def _set_players(state: TheoryState, st: S.Players) -> None:
    players = []
    seen = set()
    for (name, goal), at in zip(st.players, st.name_pos):
        if name in seen:
            raise st.error(f"player {name!r} is listed twice", name, at)
        seen.add(name)
        players.append((name, goal))
    # a player without a goal maximizes its own payoff, whatever the number of players (the
    # paper's convention is written out: players A max, B min)
    state.players = [(n, g or "max") for n, g in players]
    state.bare_players = frozenset(n for n, g in players if g is None)
    if state.agents is not None:
        missing = [n for n, _ in state.players if n not in state.agents]
        if missing:
            raise st.error(f"player {missing[0]!r} is not among the agents ({', '.join(state.agents)})", missing[0])
    if state.tree is not None:
        _match_players(state, st)


def _match_players(state: TheoryState, st: Statement) -> None:
    if state.players is None or state.tree is None:
        return
    names = tuple(n for n, _ in state.players)
    if tuple(state.tree.player_names) != names:
        raise st.error(f"the players ({', '.join(names)}) are not the game's "
                       f"({', '.join(state.tree.player_names)})")
    # goals given in the players statement replace the file's; a bare player keeps the file's goal
    goals = tuple(p.goal if n in state.bare_players else g
                  for (n, g), p in zip(state.players, state.tree.players))
    if tuple(p.goal for p in state.tree.players) != goals:
        import json

        doc = json.loads(dumps_tree(state.tree))
        doc["players"] = [{"name": n, "goal": g} for (n, _), g in zip(state.players, goals)]
        state.tree = GameTree.from_dict(doc)


def run_theory(theory: Theory, *, timeout: float | None = 60.0, scenario: str | None = None) -> list[Answer]:
    """Answer the theory's questions in order.

    Parameters
    ----------
    theory : Theory
        From :func:`~kop.theory.grammar.parse_theory` or :func:`~kop.theory.grammar.load_theory`.
    timeout : float, optional
        Seconds for each prover question.
    scenario : str, optional
        Answer only in this scenario (questions scoped elsewhere are skipped).

    Knowledge statements (``know``, ``common``, ``core``, partial knowledge)
    add to the shared base or, inside ``scenario NAME { ... }``, to that
    scenario; a question sees what is stated above it.  ``announce`` updates
    the model and reports what it changes in the game.

    Returns
    -------
    list of Answer
        One per question (and per scenario it is asked in), in order: its ``line``, ``question``,
        ``scenario``, a JSON-ready ``result`` and the ``text`` the command line prints.

    Examples
    --------
    >>> import kop
    >>> th = kop.parse_theory('''
    ... players A max, B min
    ... game A { L: B { (1,5) (3,2) }  R: B { (2,1) (0,0) } }
    ... core A = 1
    ... ask level A
    ... ask dominates A
    ... ''')
    >>> [(a.line, a.question) for a in kop.run_theory(th)]
    [(5, 'level A'), (6, 'dominates A')]
    >>> [a.result.get("level", a.result.get("recommended")) for a in kop.run_theory(th)]
    [1, 'Mh']

    References
    ----------
    T. Sang, J.-H. Chen, *Beyond Minimax: Nonzero-Sum Game Tree Search with Knowledge Oriented
    Players* (the strategies and theorems the questions apply).
    """
    if not isinstance(theory, Theory):

        raise fail("theory", "a Theory (from kop.load_theory(path) or kop.parse_theory(text))", theory)
    if scenario is not None and not isinstance(scenario, str):

        raise fail("scenario", "a scenario's name (a string) or None", scenario)
    return list(run_statements(theory, timeout=timeout, scenario=scenario).answers)


def prepared(theory: Theory) -> tuple[Statement, ...]:
    """The statements of *theory* as they run: its includes expanded, its definitions applied."""

    statements = theory.statements
    if any(isinstance(s, S.Include) for s in statements):
        statements = tuple(expand_includes(statements, theory.base, theory.allow_outside, []))
    return apply_defines(statements)


def declared_scenarios(statements: tuple[Statement, ...]) -> list[str]:
    """The names of the scenarios the statements declare, in order."""
    return [s.name for s in statements if isinstance(s, S.Scenario)]


def run_statements(theory: Theory, *, timeout: float | None = 60.0, scenario: str | None = None,
                   dominance_cache: dict[Any, Any] | None = None, answers: list[Answer] | None = None,
                   strict: bool = False, questions: bool = True, check_scenario: bool = True) -> TheoryState:
    """Run the statements; returns the final state with its answers (``state.answers``).

    *dominance_cache* holds dominance reports already computed (keyed by
    :func:`kop.theory.answers.dominance_key`), which the questions then reuse.  *answers*, when
    given, receives each answer as it is found (so that a caller keeps those found before an error).
    *strict* decides by the stricter reading of Definition 6 throughout, whatever
    the theory's ``decide`` statements say.  Without *questions*, the questions, expectations and
    announcements are left out (the state the theory states).  *check_scenario* refuses a
    *scenario* the theory does not declare, before running it.

    Examples
    --------
    >>> import kop
    >>> state = run_statements(kop.parse_theory("agents A, B\\nknow K_A p\\nask valid p -> p\\n"))
    >>> [a.text for a in state.answers], [c.formulas for c in state.contexts()]
    (['valid p -> p: yes'], [(kop.parse('K_A p'),)])
    """
    timeout = check_timeout(timeout)
    statements = prepared(theory)
    if check_scenario and scenario is not None and scenario != "base":
        declared = declared_scenarios(statements)
        if scenario not in declared:
            raise KopError(f"--scenario {scenario!r}: the theory has no such scenario "
                           f"(scenarios: {', '.join(declared) or 'none'})")
    state = TheoryState(theory, timeout, strict=strict, strict_forced=strict)
    if dominance_cache:
        state.dominance_cache.update(dominance_cache)
    if answers is None:
        answers = []
    for st in statements:
        if not questions and isinstance(st, (S.Announce, *S.QUESTIONS, *S.EXPECTATIONS)):
            continue
        before = len(answers)
        _run_one(state, st, answers, scenario)
        if st.pos is not None and st.pos.file:
            answers[before:] = [replace(a, file=st.pos.file) for a in answers[before:]]
    state.answers = answers
    return state


def _said(values: dict[str, Any]) -> str:
    """A computed answer in words, as the theory states it: ``recommended Mh, outcome (10, 3), ...``.

    >>> _said({"recommended": "Mh", "outcome": [10, 3], "outcome_with_communication": None})
    'recommended Mh, outcome (10, 3), outcome with communication none'
    """
    parts = []
    for key, v in values.items():
        if v is None:
            shown = "none"
        elif isinstance(v, list) and all(isinstance(x, (int, float)) for x in v):
            shown = "(" + ", ".join(map(str, v)) + ")"
        elif isinstance(v, list):
            shown = ", ".join(map(str, v)) or "none"
        else:
            shown = str(v)
        parts.append(f"{key.replace('_', ' ')} {shown}")
    return ", ".join(parts)


def _run_one(state: TheoryState, st: Statement, answers: list[Answer], only: str | None) -> None:
    try:
        _step(state, st, answers, only)
    except ParseError:
        raise
    except OutOfTime as exc:  # "unknown within the limit" stays one (exit 3), located at the statement
        if not getattr(exc, "where", None):
            exc.where = f"line {st.line}"  # type: ignore[attr-defined]
        raise
    except KopError as exc:
        raise st.error(str(exc)) from None


def _step(state: TheoryState, st: Statement, answers: list[Answer], only: str | None) -> None:
    """Run one statement on *state*."""
    match st:
        case S.Decide(reading=reading, reading_pos=at):
            if reading not in ("strict", "agreement"):
                raise st.error(f"expected 'strict' or 'agreement' after 'decide' (the reading of Definition 6), "
                               f"got {reading!r}", reading, at)
            state.strict = reading == "strict" or state.strict_forced
        case S.TreeFile():
            state.tree = _load_tree(state, st)
            _match_players(state, st)
        case S.Game(root=root):
            _set_game(state, st, root)
        case S.ModelFile():
            model = _load_model(state, st)
            state.model = state.stated_model = model
            state.model_atoms = frozenset().union(*(model.valuation(w) for w in model.worlds))
            state.atoms_declared = False
        case S.ModelBlock(spec=spec):

            state.model = state.stated_model = build_observation_model(spec)
            state.model_atoms, state.atoms_declared = model_atoms(spec), True
        case S.Agents(names=names):
            if len(set(names)) != len(names):
                dup = next(x for x in names if names.count(x) > 1)
                raise st.error(f"agent {dup!r} is listed twice", dup)
            state.agents = names
        case S.Players():
            _set_players(state, st)
        case S.Know() | S.Common() | S.Core() | S.KnowsEvaluation() | S.BelievesEvaluation():
            state.base.append(state.item(st))
        case S.Scenario():
            _add_scenario(state, st)
        case S.Announce():
            _announce(state, st, answers, only)
        case S.AskFormula() | S.AskPlay() | S.AskLevel() | S.AskSelect() | S.AskDominates() | S.AskDecided() \
                | S.AskWorlds():
            _ask(state, st, answers, only)
        case S.ExpectDominates() | S.ExpectPlay() | S.ExpectValue() | S.ExpectDecided() | S.ExpectLevel():
            _expect(state, st, answers, only)
        case S.Include() | S.Define():  # pragma: no cover - expanded before the statements run
            raise st.error(f"unexpanded statement {st.KEYWORD!r}")
        case _:  # pragma: no cover - the union is closed
            assert_never(st)


def _set_game(state: TheoryState, st: S.Game, root: Any) -> None:

    if state.players is None:
        names = players_of(root)
        if names:   # every mover maximizes its own payoff
            state.players = [(n, "max") for n in names]
        else:
            raise st.error("the game has no mover: declare 'players ...' first")
    state.tree = build_game(root, state.players)


def _add_scenario(state: TheoryState, st: S.Scenario) -> None:
    name, at = st.name, st.name_pos
    if name in ("all", "base"):
        raise st.error(f"{name!r} is reserved: name the scenario otherwise", name, at)
    if name in state.scenarios:
        raise st.error(f"scenario {name!r} is defined twice", name, at)
    items = []
    for sub in st.body:
        if not isinstance(sub, S.KNOWLEDGE):
            raise sub.error("a scenario holds knowledge only: know, common, core, P knows E_Q ...")
        items.append(state.item(sub))
    state.scenarios[name] = items


def _only(state: TheoryState, st: Statement, only: str | None) -> list[Context]:
    """The contexts *st* runs in, within the one scenario asked for (*only*)."""
    return [c for c in state.contexts(st) if only is None or c.name == only or (only == "base" and c.name is None)]


def _with_warning(ans: Answer, warning: str) -> Answer:
    return replace(ans, text=ans.text + warning, result={**ans.result, "warning": warning[11:]}) if warning else ans


def _ask(state: TheoryState, st: S.Question, answers: list[Answer], only: str | None) -> None:

    if isinstance(st, S.AskFormula) and st.verb != "check":
        state.check_s5n(st, st.formula)
    match st:
        case S.AskFormula(verb="valid" | "satisfiable" as verb, formula=f):
            state.check_formula(st, f)
            answers.append(A.prover_answer(state, st, verb, f, None))
            return
        case S.AskFormula(verb="check", formula=f):
            state.check_formula(st, f)
            state.need_model(st)
            warning = state.check_atoms(st, f)
            answers.append(_with_warning(A.check_answer(state, st, f), warning))
            return
        case S.AskWorlds():
            answers.append(A.worlds_answer(state, st))
            return
        case S.AskPlay():
            answers.append(A.play_answer(state, st))
            return
    ctxs = _only(state, st, only)
    several = len(ctxs) > 1 or any(c.name is not None for c in ctxs)
    for ctx in ctxs:
        state.consistent_in(ctx, st)
        scen = ctx.name if several else None
        match st:
            case S.AskFormula(verb=entails, formula=f):
                state.check_formula(st, f)
                ans = A.prover_answer(state, st, entails, f, ctx)
            case S.AskLevel(player=name, player_pos=at):
                ans = A.level_answer(state, st, ctx, name, at)
            case S.AskDecided():
                ans = A.decided_answer(state, st, ctx)
            case S.AskSelect(player=name, player_pos=at):
                ans = A.select_answer(state, st, ctx, name, at)
            case S.AskDominates(player=name, player_pos=at):
                ans = A.dominates_answer(state, st, ctx, name, at)
            case S.AskWorlds() | S.AskPlay():  # pragma: no cover - answered above
                raise st.error(f"unexpected question {st.KEYWORD!r}")
            case _:  # pragma: no cover - the union is closed
                assert_never(st)
        answers.append(Answer(ans.line, ans.question, ans.result, ans.text, scen))


def _expect(state: TheoryState, st: S.Expectation, answers: list[Answer], only: str | None) -> None:
    """Check an expected figure; the answer's result says whether it matches (``ok``)."""
    once = isinstance(st, (S.ExpectPlay, S.ExpectValue))   # about the game alone: checked once
    for ctx in _only(state, st, only):
        computed, expected, what = _expected(state, st, ctx)
        ok = computed == expected
        text = (f"expect {what}: "
                + ("ok" if ok else f"MISMATCH: computed {_said(computed)}"))
        answers.append(Answer(st.line, f"expect {what}", {"ok": ok, "expected": expected, "computed": computed},
                              text, None if once else ctx.name))
        if once:
            break


def _expected(state: TheoryState, st: S.Expectation, ctx: Context) -> tuple[dict[str, Any], dict[str, Any], str]:
    """(the figures computed, the figures expected, the expectation in words) of *st* in *ctx*."""

    match st:
        case S.ExpectDominates(player=who, strategy=strat, outcome=out, communication=comm, has_communication=has_comm):
            r = A.dominance_of(state, st, ctx, who)
            computed: dict[str, Any] = {"recommended": r.recommended, "outcome": list(r.outcome)}
            expected: dict[str, Any] = {"recommended": strat, "outcome": list(out)}
            what = f"{who}: {strat} {tuple(out)}"
            if has_comm:
                oc = r.outcome_with_communication
                computed["outcome_with_communication"] = None if oc is None else list(oc)
                expected["outcome_with_communication"] = None if comm is None else list(comm)
                what += f", communication {'none' if comm is None else tuple(comm)}"
            return computed, expected, what
        case S.ExpectPlay(strategies=pairs, outcome=out):

            tree = state.need_tree(st)
            value = play(tree, {w: strategy(tree, n, w) for w, n in pairs}).value
            return ({"outcome": list(value)}, {"outcome": list(out)},
                    "play " + " ".join(f"{w}={n}" for w, n in pairs) + f": {tuple(out)}")
        case S.ExpectValue(strategy=name, player=p, at=at_label, value=out):

            tree = state.need_tree(st)
            if p not in tree.player_names:
                raise st.error(f"unknown player {p!r} (players: {', '.join(tree.player_names)})", p)
            s = strategy(tree, name, p)
            value = s.value_at(at_label) if at_label is not None else s.value
            return ({"value": list(value)}, {"value": list(out)},
                    f"value {name} {p}{f' at {at_label}' if at_label else ''}: {tuple(out)}")
        case S.ExpectDecided(nodes=nodes):

            tree = state.need_tree(st)
            state.consistent_in(ctx, st)
            evs = state.evaluations(ctx, st)
            d = decide(tree, ctx.formulas, timeout=state.timeout, evaluations=evs or None, strict=state.strict)
            return ({"decided": [n.name for n in d.decided_nodes()]}, {"decided": list(nodes)},
                    f"decided: {', '.join(nodes) or 'none'}")
        case S.ExpectLevel(player=p, level=value):

            state.consistent_in(ctx, st)
            lv = level(ctx.formulas, p, state.opponent(st, p, None), timeout=state.timeout, agents=state.agents)
            return ({"level": _level(lv)}, {"level": value if value == "inf" else int(value)},
                    f"level {p}: {value}")
        case _:  # pragma: no cover - the union is closed
            assert_never(st)


def _announce(state: TheoryState, st: S.Announce, answers: list[Answer], only: str | None) -> None:

    f = st.formula
    state.check_formula(st, f)
    if state.model is None and state.tree is None:
        raise st.error("'announce' needs a model (model \"FILE\" or model { ... }) or a game")
    if state.model is not None:
        warning = state.check_atoms(st, f)
        answers.append(_with_warning(A.announce_model(state, st, f), warning))
        state.models_after.append(state.model)
    if state.tree is not None:
        state.check_s5n(st, f)       # the knowledge after it goes to the prover
        for ctx in state.contexts(st):
            if only is not None and ctx.name != only:
                continue
            state.consistent_in(ctx, st)
            answers.append(A.announce_game(state, st, ctx, f))
        _after_announcement(state, st, f)


def _after_announcement(state: TheoryState, st: S.Announce, f: Formula) -> None:
    """Later questions see the knowledge after the announcement: the preserved knowledge and C F."""
    names = state.known_agents() or ()
    new = Item((Common(tuple(names), f),), st, announced=True)
    scoped = [n for n in st.scope if n not in ("all", "base")]
    if scoped and "all" not in st.scope:
        for n in scoped:
            state.scenarios[n].append(new)
    else:
        state.base.append(new)
