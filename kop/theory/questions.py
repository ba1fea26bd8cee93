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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from kop.syntax.budget import OutOfTime, check_timeout
from kop.errors import KopError, ParseError, source_lines
from kop.syntax.formula import Common, Formula
from kop.theory.knowledge import Context, Item, check_consistent, core_for
from kop.theory.model import Answer, Statement, Theory
from kop.theory.source import Position

__all__ = ["run_theory", "contexts", "TheoryState"]

_KNOWLEDGE = ("know", "common", "core", "partial", "belief")


def _level(x: float) -> int | str:
    return "inf" if x == math.inf else int(x)


@dataclass
class TheoryState:
    """What the statements above the current one have built."""

    theory: Theory
    timeout: float | None
    agents: tuple[str, ...] | None = None
    players: list[tuple[str, str]] | None = None
    bare_players: frozenset[str] = frozenset()   # listed without a goal: a tree file's goal stands
    tree: Any = None
    model: Any = None
    #: the model's atoms, and whether it declares them (model { ... }) or only shows those true somewhere (a file)
    model_atoms: frozenset[str] = frozenset()
    atoms_declared: bool = False
    base: list[Item] = field(default_factory=list)
    scenarios: dict[str, list[Item]] = field(default_factory=dict)
    consistent: dict[Any, bool] = field(default_factory=dict)
    answers: list[Answer] = field(default_factory=list)
    dominance_cache: dict[Any, Any] = field(default_factory=dict)
    #: Decide by the stricter reading of Definition 6 (``decide strict``, or ``--strict``: forced)
    strict: bool = False
    strict_forced: bool = False

    # -- names -----------------------------------------------------------------
    def known_agents(self) -> tuple[str, ...] | None:
        if self.agents is not None:
            return self.agents
        if self.players is not None:
            return tuple(p for p, _ in self.players)
        if self.tree is not None:
            return tuple(self.tree.player_names)
        return None

    def check_agent(self, st: Statement, name: str, at: Position | None, what: str = "agent") -> None:
        names = self.known_agents()
        if names is not None and name not in names:
            raise st.error(f"unknown {what} {name!r} (declared: {', '.join(names)})", name, at)

    def check_formula(self, st: Statement, f: Formula) -> None:
        names = self.known_agents()
        if names is None:
            return
        bad = sorted(f.agents() - set(names))
        if bad:
            raise st.error(f"the formula names agent {bad[0]!r}, which is not declared "
                           f"(agents: {', '.join(names)})", bad[0], _formula_pos(st))

    def check_atoms(self, st: Statement, f: Formula) -> str:
        """A formula asked of the model names only its atoms: an unknown one is a located error when the
        model declares its atoms (``model { ... }``); for a model file, a warning (returned) that it is
        true at no world."""
        bad = sorted(f.atoms() - self.model_atoms)
        if not bad or self.model is None:
            return ""
        if self.atoms_declared:
            shown = ", ".join(sorted(self.model_atoms)[:12]) + (", ..." if len(self.model_atoms) > 12 else "")
            raise st.error(f"unknown atom {bad[0]!r}: not in the model's vocabulary ({shown})", bad[0],
                           _atom_pos(st, bad[0]))
        return "; warning: " + ", ".join(map(repr, bad)) + " true at no world of the model file (misspelt?)"

    def check_s5n(self, st: Statement, f: Formula) -> None:
        """Refuse probability in a formula that goes to the prover (it decides knowledge and belief), located in the theory."""
        from kop.errors import LanguageError
        from kop.syntax.fragments import refuse_probability

        try:
            refuse_probability(f, "the prover")
        except LanguageError as exc:
            at = _formula_pos(st)
            if at is not None:
                from kop.syntax.parser import locate_token

                line = source_lines(at.text)[at.line - 1] if 0 < at.line <= len(source_lines(at.text)) else ""
                _, col, _ = locate_token(line[at.column - 1:], "PROB")
                at = Position(at.text, at.line, at.column + col - 1, at.file)
            raise st.error(exc.expected + " (a theory's knowledge, its announcements on a game and its "
                           "valid, satisfiable and entails "
                           "questions go to the prover)", exc.found, at) from None

    def opponent(self, st: Statement, p: str, at: Position | None) -> str:
        self.check_agent(st, p, at)
        names = self.known_agents() or ()
        rest = [a for a in names if a != p]
        if len(rest) != 1:
            raise st.error(f"cannot tell who {p}'s opponent is: declare 'agents {p}, Q', 'players {p}, Q' "
                           "or a two-player game", p, at)
        return rest[0]

    def base_path(self, st: Statement) -> Path:
        return st.base or self.theory.base

    # -- knowledge -------------------------------------------------------------
    def item(self, st: Statement) -> Item:
        k, a = st.kind, st.args
        if k == "know":
            self.check_formula(st, a[0])
            self.check_s5n(st, a[0])
            return Item((a[0],), st)
        if k == "common":
            self.check_formula(st, a[0])
            self.check_s5n(st, a[0])
            names = self.known_agents()
            if not names:
                raise st.error("'common' needs the agents: declare 'agents A, B' or the players first")
            return Item((Common(tuple(names), a[0]),), st)
        if k == "core":
            p, d, at = a
            q = self.opponent(st, p, at)
            try:
                return Item(core_for(p, q, d), st)
            except OutOfTime:  # unknown within the limit: not an input error
                raise
            except KopError as exc:
                raise st.error(str(exc), str(d)) from None
        spec = a[0]
        self.check_agent(st, spec.knower, spec.knower_pos, "player")
        self.check_agent(st, spec.owner, spec.owner_pos, "player")
        if k == "belief":
            return Item((), st, None, spec)
        return Item((), st, spec)

    def contexts(self, st: Statement) -> list[Context]:
        """The contexts a question runs in: its scope, or every scenario, or the base."""
        agents = self.agents
        if st.scope:
            names = list(st.scope)
            if "all" in names:
                names = list(self.scenarios) or ["base"]
        else:
            names = list(self.scenarios) or ["base"]
        out = []
        for i, name in enumerate(dict.fromkeys(names)):
            if name == "base":
                out.append(Context(None, tuple(self.base), agents))
                continue
            if name not in self.scenarios:
                at = st.scope_pos[i] if i < len(st.scope_pos) else None
                known = ", ".join(self.scenarios) or "none"
                raise st.error(f"no scenario {name!r} (scenarios: {known})", name, at)
            out.append(Context(name, tuple(self.base) + tuple(self.scenarios[name]), agents))
        return out

    def consistent_in(self, ctx: Context, st: Statement) -> None:
        check_consistent(ctx, st, timeout=self.timeout, cache=self.consistent)

    def evaluations(self, ctx: Context, st: Statement) -> list[Any]:
        if not ctx.partials:
            return []
        from kop.selection.evaluations import knowledge_formulas, resolve_all
        from kop.theory.partial import build_evaluations

        tree = self.need_tree(st)
        evs = build_evaluations(ctx.partials, tree)
        by_spec = dict(zip(ctx.partials, evs))
        try:
            resolved = resolve_all(tree, evs)
        except OutOfTime:  # unknown within the limit: not an input error
            raise
        except KopError as exc:
            raise ctx.partials[-1].pos.error(str(exc)) from None
        items = []
        for it in ctx.items:  # what each statement says in the language of E_P and S_P
            if it.partial is None:
                items.append(it)
                continue
            key = (tree.player_index(it.partial.knower), tree.player_index(it.partial.owner))
            ev = by_spec[it.partial]
            own = {k: r for k, r in resolved.items() if k == key and r.spec == ev}
            items.append(Item(knowledge_formulas(tree, own) if own else (), it.statement, it.partial))
        self.consistent_in(Context(ctx.name, tuple(items), ctx.agents), st)
        return evs

    def need_tree(self, st: Statement) -> Any:
        if self.tree is None:
            raise st.error(f"'{_verb(st)}' needs a game: 'game ...' or tree \"FILE\"")
        return self.tree

    def need_model(self, st: Statement) -> Any:
        if self.model is None:
            raise st.error(f"'{_verb(st)}' needs a model: model \"FILE\" or model {{ ... }}")
        return self.model


def _verb(st: Statement) -> str:
    return {"ask_select": "ask select", "ask_decided": "ask decided", "ask_dominates": "ask dominates",
            "ask_play": "ask play", "ask_worlds": "ask worlds", "ask_level": "ask level",
            "announce": "announce"}.get(st.kind, st.kind.replace("_", " "))


def _formula_pos(st: Statement) -> Position | None:
    """Where the formula of a statement starts (after its keyword)."""
    if st.pos is None:
        return None
    lines = source_lines(st.pos.text)
    src = lines[st.line - 1] if 0 < st.line <= len(lines) else ""
    words = src[st.pos.column - 1:].split(None, 1)
    if len(words) < 2:
        return st.pos
    col = st.pos.column - 1 + src[st.pos.column - 1:].index(words[1], len(words[0])) + 1
    return Position(st.pos.text, st.line, col, st.pos.file)


def _atom_pos(st: Statement, name: str) -> Position | None:
    """Where the atom *name* is written in the statement's formula (its start when it is not written there)."""
    import re

    at = _formula_pos(st)
    if at is None:
        return None
    lines = source_lines(at.text)
    src = lines[at.line - 1] if 0 < at.line <= len(lines) else ""
    m = re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", src[at.column - 1:])
    return Position(at.text, at.line, at.column + m.start(), at.file) if m else at


def _load_tree(state: TheoryState, st: Statement) -> Any:
    from kop.theory.files import read_confined

    name = st.args[0]
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
            from kop.io.efg import loads_efg

            return loads_efg(text)
        import json

        try:
            doc = json.loads(text)
        except (ValueError, RecursionError):
            doc = None
        if not isinstance(doc, dict) or doc.get("format") != "kop-tree/1":
            raise KopError(f"tree file {name!r} is not a kop-tree/1 JSON or Gambit .efg file")
        from kop.io.trees import loads_tree

        return loads_tree(text)
    except OutOfTime:  # unknown within the limit: not an input error
        raise
    except KopError as exc:
        raise st.error(str(exc) if str(exc).startswith("tree file") else f"tree file {name!r}: {exc}", name) from None


def _load_model(state: TheoryState, st: Statement) -> Any:
    import json

    from kop.semantics.model import KripkeModel
    from kop.theory.files import read_confined

    name = st.args[0]
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


def _set_players(state: TheoryState, st: Statement) -> None:
    players = []
    seen = set()
    for name, goal, at in st.args:
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
        from kop.games.trees.tree import GameTree
        from kop.io.trees import dumps_tree
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
        from kop.syntax.arguments import fail

        raise fail("theory", "a Theory (from kop.load_theory(path) or kop.parse_theory(text))", theory)
    if scenario is not None and not isinstance(scenario, str):
        from kop.syntax.arguments import fail

        raise fail("scenario", "a scenario's name (a string) or None", scenario)
    return list(run_statements(theory, timeout=timeout, scenario=scenario).answers)


def run_statements(theory: Theory, *, timeout: float | None = 60.0, scenario: str | None = None,
                   dominance_cache: dict[Any, Any] | None = None, answers: list[Answer] | None = None,
                   strict: bool = False) -> Any:
    """Run the statements; returns the final state with its answers (``state.answers``).

    *dominance_cache* holds dominance reports already computed (keyed by
    :func:`kop.theory.answers.dominance_key`), which the questions then reuse.  *answers*, when
    given, receives each answer as it is found (so that a caller keeps those found before an error).
    *strict* decides by the stricter reading of Definition 6 throughout, whatever
    the theory's ``decide`` statements say.
    """
    timeout = check_timeout(timeout)
    from kop.theory.grammar import expand_includes

    statements = theory.statements
    if any(s.kind == "include" for s in statements):
        statements = tuple(expand_includes(statements, theory.base, theory.allow_outside, []))
    from kop.theory.defines import apply_defines

    statements = apply_defines(statements)
    if scenario is not None and scenario != "base":
        declared = [str(s.args[0]) for s in statements if s.kind == "scenario"]
        if scenario not in declared:
            raise KopError(f"--scenario {scenario!r}: the theory has no such scenario "
                           f"(scenarios: {', '.join(declared) or 'none'})")
    state = TheoryState(theory, timeout, strict=strict, strict_forced=strict)
    if dominance_cache:
        state.dominance_cache.update(dominance_cache)
    if answers is None:
        answers = []
    for st in statements:
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


def contexts(theory: Theory, scenario: str | None = None, *, timeout: float | None = 60.0,
             strict: bool = False) -> tuple[Any, list[Context]]:
    """The final state of *theory* (without its questions) and the contexts to ask in: every scenario or one."""
    timeout = check_timeout(timeout)
    quiet = Theory(tuple(s for s in theory.statements if not s.kind.startswith(("ask", "expect"))
                         and s.kind != "announce"), theory.base, theory.text, theory.allow_outside)
    state = run_statements(quiet, timeout=timeout, strict=strict)
    probe = Statement("ask_dominates", (), 0, None, (scenario,) if scenario else ())
    if scenario is not None and scenario != "base" and scenario not in state.scenarios:
        raise KopError(f"no scenario {scenario!r} (scenarios: {', '.join(state.scenarios) or 'none'})")
    return state, state.contexts(probe)


def _run_one(state: TheoryState, st: Statement, answers: list[Answer], only: str | None) -> None:
    k, a = st.kind, st.args
    try:
        if k == "decide_reading":
            reading, at = a
            if reading not in ("strict", "agreement"):
                raise st.error(f"expected 'strict' or 'agreement' after 'decide' (the reading of Definition 6), "
                               f"got {reading!r}", reading, at)
            state.strict = reading == "strict" or state.strict_forced
        elif k == "tree":
            state.tree = _load_tree(state, st)
            _match_players(state, st)
        elif k == "game":
            from kop.theory.games import build_game, players_of

            if state.players is None:
                names = players_of(a[0])
                if names:   # every mover maximizes its own payoff
                    state.players = [(n, "max") for n in names]
                else:
                    raise st.error("the game has no mover: declare 'players ...' first")
            state.tree = build_game(a[0], state.players)
        elif k == "model":
            state.model = _load_model(state, st)
            state.model_atoms = frozenset().union(*(state.model.valuation(w) for w in state.model.worlds))
            state.atoms_declared = False
        elif k == "model_block":
            from kop.theory.observation import build_observation_model, model_atoms

            state.model = build_observation_model(a[0])
            state.model_atoms, state.atoms_declared = model_atoms(a[0]), True
        elif k == "agents":
            if len(set(a)) != len(a):
                dup = next(x for x in a if a.count(x) > 1)
                raise st.error(f"agent {dup!r} is listed twice", dup)
            state.agents = a
        elif k == "players":
            _set_players(state, st)
        elif k in _KNOWLEDGE:
            state.base.append(state.item(st))
        elif k == "scenario":
            name, body, at = a
            if name in ("all", "base"):
                raise st.error(f"{name!r} is reserved: name the scenario otherwise", name, at)
            if name in state.scenarios:
                raise st.error(f"scenario {name!r} is defined twice", name, at)
            items = []
            for sub in body:
                if sub.kind not in _KNOWLEDGE:
                    raise sub.error("a scenario holds knowledge only: know, common, core, P knows E_Q ...")
                items.append(state.item(sub))
            state.scenarios[name] = items
        elif k == "announce":
            _announce(state, st, answers, only)
        elif k.startswith("ask"):
            _ask(state, st, answers, only)
        elif k.startswith("expect"):
            _expect(state, st, answers, only)
        else:  # pragma: no cover - every kind is handled above
            raise st.error(f"unknown statement {k!r}")
    except ParseError:
        raise
    except OutOfTime as exc:  # "unknown within the limit" stays one (exit 3), located at the statement
        if not getattr(exc, "where", None):
            exc.where = f"line {st.line}"  # type: ignore[attr-defined]
        raise
    except KopError as exc:
        raise st.error(str(exc)) from None


def _ask(state: TheoryState, st: Statement, answers: list[Answer], only: str | None) -> None:
    from kop.theory import answers as A

    k, a = st.kind, st.args
    if k == "ask_formula" and a[0] != "check":
        state.check_s5n(st, a[1])
    if k == "ask_formula" and a[0] in ("valid", "satisfiable"):
        state.check_formula(st, a[1])
        answers.append(A.prover_answer(state, st, a[0], a[1], None))
        return
    if k == "ask_formula" and a[0] == "check":
        state.check_formula(st, a[1])
        state.need_model(st)
        warning = state.check_atoms(st, a[1])
        ans = A.check_answer(state, st, a[1])
        answers.append(replace(ans, text=ans.text + warning, result={**ans.result, "warning": warning[11:]})
                       if warning else ans)
        return
    if k == "ask_worlds":
        answers.append(A.worlds_answer(state, st))
        return
    if k == "ask_play":
        answers.append(A.play_answer(state, st))
        return
    ctxs = [c for c in state.contexts(st) if only is None or c.name == only or (only == "base" and c.name is None)]
    several = len(ctxs) > 1 or any(c.name is not None for c in ctxs)
    for ctx in ctxs:
        state.consistent_in(ctx, st)
        scen = ctx.name if several else None
        if k == "ask_formula":
            state.check_formula(st, a[1])
            ans = A.prover_answer(state, st, a[0], a[1], ctx)
        elif k == "ask_level":
            name, at = a[0]
            ans = A.level_answer(state, st, ctx, name, at)
        elif k == "ask_decided":
            ans = A.decided_answer(state, st, ctx)
        elif k == "ask_select":
            ans = A.select_answer(state, st, ctx, a[0] if a else None)
        elif k == "ask_dominates":
            ans = A.dominates_answer(state, st, ctx, a[0] if a else None)
        else:  # pragma: no cover
            raise st.error(f"unknown question {k!r}")
        answers.append(Answer(ans.line, ans.question, ans.result, ans.text, scen))


def _expect(state: TheoryState, st: Statement, answers: list[Answer], only: str | None) -> None:
    """Check an expected figure; the answer's result says whether it matches (``ok``)."""
    from kop.theory import answers as A

    k, a = st.kind, st.args
    ctxs = [c for c in state.contexts(st) if only is None or c.name == only or (only == "base" and c.name is None)]
    for ctx in ctxs:
        if k == "expect_dominates":
            who, strat, out, comm, has_comm = a
            r = A.dominance_of(state, st, ctx, who)
            computed: dict[str, Any] = {"recommended": r.recommended, "outcome": list(r.outcome)}
            expected: dict[str, Any] = {"recommended": strat, "outcome": list(out)}
            if has_comm:
                oc = r.outcome_with_communication
                computed["outcome_with_communication"] = None if oc is None else list(oc)
                expected["outcome_with_communication"] = None if comm is None else list(comm)
            what = f"{who}: {strat} {tuple(out)}"
            if has_comm:
                what += f", communication {'none' if comm is None else tuple(comm)}"
        elif k == "expect_play":
            pairs, out = a
            from kop.games.registry import strategy
            from kop.games.strategies.play import play

            tree = state.need_tree(st)
            value = play(tree, {w: strategy(tree, n, w) for w, n in pairs}).value
            computed, expected = {"outcome": list(value)}, {"outcome": list(out)}
            what = "play " + " ".join(f"{w}={n}" for w, n in pairs) + f": {tuple(out)}"
        elif k == "expect_value":
            from kop.games.registry import strategy

            name, p, at_label, out = a
            tree = state.need_tree(st)
            if p not in tree.player_names:
                raise st.error(f"unknown player {p!r} (players: {', '.join(tree.player_names)})", p)
            s = strategy(tree, name, p)
            value = s.value_at(at_label) if at_label is not None else s.value
            computed, expected = {"value": list(value)}, {"value": list(out)}
            what = f"value {name} {p}{f' at {at_label}' if at_label else ''}: {tuple(out)}"
        elif k == "expect_decided":
            from kop.selection.decide import decide

            tree = state.need_tree(st)
            state.consistent_in(ctx, st)
            evs = state.evaluations(ctx, st)
            d = decide(tree, ctx.formulas, timeout=state.timeout, evaluations=evs or None, strict=state.strict)
            computed = {"decided": [n.name for n in d.decided_nodes()]}
            expected = {"decided": list(a)}
            what = f"decided: {', '.join(a) or 'none'}"
        else:
            from kop.reasoning.knowledge import level

            p, value = a
            state.consistent_in(ctx, st)
            lv = level(ctx.formulas, p, state.opponent(st, p, None), timeout=state.timeout, agents=state.agents)
            computed, expected = {"level": _level(lv)}, {"level": value if value == "inf" else int(value)}
            what = f"level {p}: {value}"
        ok = computed == expected
        scen = None if k in ("expect_play", "expect_value") else ctx.name
        text = (f"expect {what}: "
                + ("ok" if ok else f"MISMATCH: computed {_said(computed)}"))
        answers.append(Answer(st.line, f"expect {what}", {"ok": ok, "expected": expected, "computed": computed},
                              text, scen))
        if k in ("expect_play", "expect_value"):
            break


def _announce(state: TheoryState, st: Statement, answers: list[Answer], only: str | None) -> None:
    from kop.theory import answers as A

    f = st.args[0]
    state.check_formula(st, f)
    if state.model is None and state.tree is None:
        raise st.error("'announce' needs a model (model \"FILE\" or model { ... }) or a game")
    if state.model is not None:
        warning = state.check_atoms(st, f)
        ans = A.announce_model(state, st, f)
        answers.append(replace(ans, text=ans.text + warning, result={**ans.result, "warning": warning[11:]})
                       if warning else ans)
    if state.tree is not None:
        state.check_s5n(st, f)       # the knowledge after it goes to the prover
        for ctx in state.contexts(st):
            if only is not None and ctx.name != only:
                continue
            state.consistent_in(ctx, st)
            answers.append(A.announce_game(state, st, ctx, f))
        _after_announcement(state, st, f)


def _after_announcement(state: TheoryState, st: Statement, f: Formula) -> None:
    """Later questions see the knowledge after the announcement: the preserved knowledge and C F."""
    names = state.known_agents() or ()
    new = Item((Common(tuple(names), f),), st)
    scoped = [n for n in st.scope if n not in ("all", "base")]
    if scoped and "all" not in st.scope:
        for n in scoped:
            state.scenarios[n].append(new)
    else:
        state.base.append(new)

