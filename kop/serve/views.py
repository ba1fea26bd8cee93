"""What each page of the playground shows, as JSON: plain functions over kop's own results.

Every function here takes the page's request (already decoded JSON) and the
folder the server may read (its ``--root``), and returns a JSON-ready dict.
Bad input raises a :class:`kop.KopError` (located where kop locates it: line
and column of a theory or formula, JSON path of a model), which the server
turns into an error shown in the page (:func:`error_json`).  Nothing here
writes to disk; files are read only inside the root, through the guarded
reader of :mod:`kop.theory` (regular files, the size cap of
:mod:`kop.syntax.files`, symbolic links resolved and checked).

Example
-------
>>> r = check_theory("players A max, B min\\ngame r: A { (1,2) (3,4) }\\n", ".")
>>> r["ok"], r["errors"]
(True, [])
>>> bad = check_theory("players A max, B min\\ngame r: A { (1,2) (3,4)\\n", ".")
>>> bad["ok"], bad["errors"][0]["line"], bad["errors"][0]["column"]
(False, 2, 24)
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kop.errors import KopError, LimitError, ParseError
from kop.agents.agent import Agent
from kop.agents.match import Match
from kop.drawing.models import figure_svg
from kop.games.search.treegame import TreeGame
from kop.selection.examples import figure2
from kop.syntax.levels import f_level
from kop.theory import read_confined, resolve_confined, parse_theory, TheoryRun

if TYPE_CHECKING:  # pragma: no cover
    from kop.semantics.model import KripkeModel

__all__ = ["list_files", "read_file", "theory_folder", "check_theory", "theory_answers", "model_view", "match_view",
           "story_status", "story_view", "error_json", "SUFFIXES", "MAX_LISTED", "MAX_WALKED", "UPDATES", "STORY_CONTRACT"]

#: the doctests need these optional packages (kop/conftest.py skips them without them)
__doctest_requires__ = ("matplotlib",)

#: the files the playground lists: theories, Kripke models, game trees, stories
SUFFIXES = (".kop", ".model.json", ".story")
#: at most this many files are listed (the walk stops there)
MAX_LISTED = 500
#: at most this many folder entries are looked at (a root such as a home folder stays quick)
MAX_WALKED = 50_000
#: folders never walked
_SKIP = {".git", ".venv", "venv", "node_modules", "__pycache__", ".mypy_cache", ".tox", "build", "dist"}
#: the updates the model page applies, by the name the page sends
UPDATES = ("announce", "radical", "conservative")
#: matplotlib draws one figure at a time (its text layout shares caches between threads)
_DRAWING = threading.Lock()
#: the JSON shape a story reader's result must have (see :func:`story_view` and docs/playground.md)
STORY_CONTRACT = {"agents": ["AGENT", "..."],
                  "events": [{"text": "what happens", "beliefs": {"AGENT": ["a belief, as text", "..."]}}]}


def error_json(exc: BaseException) -> dict[str, Any]:
    """A located error for the page: message, and line, column, found, expected where known.

    >>> import kop
    >>> try:
    ...     kop.parse("K_a (p &")
    ... except kop.KopError as exc:
    ...     e = error_json(exc)
    >>> e["line"], e["column"], e["message"]
    (1, 9, "line 1, column 9: expected a formula after '&'; found end of input")
    """
    out: dict[str, Any] = {"message": str(exc) or type(exc).__name__}
    if isinstance(exc, ParseError):
        out.update(line=exc.line, column=exc.column, found=exc.found, expected=exc.expected)
    return out


def _svg(draw: Callable[[], Any]) -> str:
    with _DRAWING:
        fig = draw()
        return figure_svg(fig)


# -- files -----------------------------------------------------------------------------------------------

def list_files(root: str | os.PathLike[str]) -> dict[str, Any]:
    """The theories, models and stories under *root* (relative paths, sorted; hidden folders skipped).

    At most :data:`MAX_LISTED` files, after at most :data:`MAX_WALKED` folder entries
    (``truncated`` says when the walk stopped early); links out of *root* are not listed.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> _ = (d / "a.kop").write_text("agents A\\n")
    >>> list_files(d)["files"]
    [{'path': 'a.kop', 'kind': 'theory'}]
    """
    base = Path(root).resolve()
    found: list[dict[str, Any]] = []
    walked = 0
    for folder, dirs, names in os.walk(base):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP)
        walked += len(dirs) + len(names)
        if walked > MAX_WALKED:
            return {"root": str(base), "files": found, "truncated": True}
        here = Path(folder)
        for name in sorted(names):
            kind = _kind(name)
            if kind is None:
                continue
            path = here / name
            try:
                real = path.resolve(strict=True)
            except (OSError, RuntimeError):
                continue
            if real != base and base not in real.parents:  # a link out of the root is not listed
                continue
            found.append({"path": path.relative_to(base).as_posix(), "kind": kind})
            if len(found) >= MAX_LISTED:
                return {"root": str(base), "files": found, "truncated": True}
    found.sort(key=lambda f: (f["path"].count("/"), f["path"]))
    return {"root": str(base), "files": found, "truncated": False}


def _kind(name: str) -> str | None:
    low = name.lower()
    if low.endswith(".kop"):
        return "theory"
    if low.endswith(".model.json"):
        return "model"
    if low.endswith(".story"):
        return "story"
    return None


def read_file(root: str | os.PathLike[str], path: str) -> dict[str, Any]:
    """The text of the file *path* (relative to *root*), read only inside *root* and under the size cap.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> _ = (d / "a.kop").write_text("agents A\\n")
    >>> read_file(d, "a.kop")["text"]
    'agents A\\n'
    >>> _ = (d.parent / "secret.kop").write_text("agents S\\n")
    >>> read_file(d, "../secret.kop")
    Traceback (most recent call last):
    ...
    kop.errors.KopError: file '../secret.kop' is outside the theory's folder ...
    """
    if not isinstance(path, str) or not path:
        raise KopError("give the path of a file under the root")
    if _kind(Path(path).name) is None:
        raise KopError(f"{path!r}: the playground opens theories (.kop), models (.model.json) and stories (.story)")
    text = read_confined(path, Path(root), what="file")
    return {"path": path, "kind": _kind(Path(path).name), "text": text}


# -- theories -------------------------------------------------------------------------------------------

def theory_folder(root: str | os.PathLike[str], path: str | None) -> Path:
    """The folder a theory's files are read from: that of the file *path* (under *root*), else *root*.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> (d / "games").mkdir()
    >>> _ = (d / "games" / "g.kop").write_text("agents A\\n")
    >>> theory_folder(d, "games/g.kop") == (d / "games").resolve(), theory_folder(d, None) == d.resolve()
    (True, True)
    """
    base = Path(root).resolve()
    if not path:
        return base

    if not isinstance(path, str):
        raise KopError("the theory's path must be text")
    return resolve_confined(path, base, what="theory").parent


def check_theory(text: Any, root: str | os.PathLike[str], path: str | None = None) -> dict[str, Any]:
    """Parse a theory's text (what the editor calls as the user types): ``ok`` and the located errors.

    *path*, the file the text came from (under *root*), is where the files it names are read.
    """
    _need_text(text, "theory")
    try:
        parse_theory(text, theory_folder(root, path))
    except KopError as exc:
        return {"ok": False, "errors": [error_json(exc)]}
    return {"ok": True, "errors": []}


def _need_text(text: Any, what: str) -> None:
    if not isinstance(text, str):
        raise KopError(f"the {what} must be text")


def theory_answers(text: Any, root: str | os.PathLike[str], scenario: str | None = None, *,
                   timeout: float = 20.0, path: str | None = None) -> dict[str, Any]:
    """A theory's answers: per scenario the dominance report (levels, decided nodes, candidates, claims,
    recommendation, communication) and the picture of the chosen scenario's game; the theory's own
    questions answered.  A theory without a game shows its answers and its model after its
    announcements (or why it is not drawn: more worlds than kop draws).  The files it
    names are read from the folder of *path* (the file the text came from, under *root*), else *root*.

    >>> r = theory_answers("players A max, B min\\ngame r: A { x: B { (1,2) (3,4) } (2,2) }\\ncore A = 1\\n", ".")
    >>> r["kind"], r["scenarios"][0]["report"]["recommended"], "<svg" in r["svg"]
    ('game', 'Mh', True)
    """
    _need_text(text, "theory")
    run = TheoryRun(parse_theory(text, theory_folder(root, path)), timeout=timeout)
    if run.tree is None:
        model = run.state.model                   # after the theory's announcements
        svg, note = None, ""
        if model is not None:
            try:
                svg = _svg(lambda: model.draw())
            except LimitError as exc:             # too large to draw: the answers still show
                note = str(exc)
        return {"kind": "model", "scenarios": [], "answers": [_answer(a) for a in run.answers],
                "svg": svg, "picture_note": note, "worlds": 0 if model is None else len(model)}
    ctxs = run.scenarios()
    reports, beliefs = [], []
    for ctx in ctxs:
        reports.append(run.dominance(ctx.name))
        beliefs.append(run.uncertainty(ctx.name))
    names = [c.name for c in ctxs]
    if scenario is not None and scenario not in names:
        raise KopError(f"unknown scenario {scenario!r} (the theory has {', '.join(str(n) for n in names)})")
    chosen = names.index(scenario) if scenario is not None else 0
    answers = run.answers
    report = reports[chosen]
    return {"kind": "game", "chosen": chosen, "answers": [_answer(a) for a in answers],
            "scenarios": [{"name": c.name, "report": r.to_json(), "text": r.explain(), "beliefs": b}
                          for c, r, b in zip(ctxs, reports, beliefs)],
            "svg": _svg(lambda: report.selection.draw())}


def _answer(a: Any) -> dict[str, Any]:
    ok = a.result.get("ok") if isinstance(a.result, dict) else None
    return {"where": a.where, "scenario": a.scenario, "question": a.question, "text": a.text, "ok": ok}


# -- models ---------------------------------------------------------------------------------------------

def _load_model(request: Mapping[str, Any], root: str | os.PathLike[str]) -> KripkeModel:
    from kop.semantics.model import KripkeModel

    text = request.get("model")
    if text is None and request.get("path"):
        text = read_file(root, str(request["path"]))["text"]
    if not isinstance(text, str) or not text.strip():
        raise KopError("give a model: kop-model/1 JSON text, or the path of a .model.json file under the root")
    return KripkeModel.from_json(text, source="model")


def model_view(request: Mapping[str, Any], root: str | os.PathLike[str]) -> dict[str, Any]:
    """A Kripke (plausibility, probability) model after a list of updates, drawn, with a formula's truth set.

    The request holds ``model`` (kop-model/1 text) or ``path`` (a ``.model.json``
    under the root); ``actual`` (a world to make actual, or null); ``updates``,
    a list of ``{"kind": "announce" | "radical" | "conservative", "formula": ...}``;
    ``step`` (how many of them to apply: the page steps back and forth); and
    ``formula`` (whose truth set is highlighted).

    >>> m = ('{"format": "kop-model/1", "agents": ["a"], "worlds": {"u": ["p"], "v": []},'
    ...      ' "relations": {"a": [["u", "v"]]}, "actual": ["u"]}')
    >>> r = model_view({"model": m, "actual": "v", "formula": "K_a p",
    ...                 "updates": [{"kind": "announce", "formula": "p"}], "step": 1}, ".")
    >>> [w["name"] for w in r["worlds"]], r["holds"], r["steps"][1]["worlds"]
    (['u'], ['u'], 1)
    >>> model_view({"model": m, "updates": [{"kind": "announce", "formula": "p &"}], "step": 1}, ".")
    Traceback (most recent call last):
    ...
    kop.errors.ParseError: update 1: line 1, column 4: ...
    """
    model = _load_model(request, root)
    actual = request.get("actual")
    if actual is not None:
        if not isinstance(actual, str) or actual not in model.worlds:
            raise KopError(f"no world {actual!r} to make actual")
        model = model.with_actual(actual)
    updates = request.get("updates") or []
    if not isinstance(updates, list):
        raise KopError("updates must be a list of {kind, formula}")
    step = request.get("step", len(updates))
    if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step <= len(updates):
        raise KopError(f"step must be a whole number from 0 to {len(updates)}")
    steps = [{"kind": "start", "formula": None, "worlds": len(model)}]
    shown = model
    for i, u in enumerate(updates, 1):
        model = _update(model, u, i)
        steps.append({"kind": u["kind"], "formula": u["formula"], "worlds": len(model)})
        if i == step:
            shown = model
    formula = request.get("formula") or None
    holds: list[str] = []
    if formula is not None:
        _need_text(formula, "formula")
        holds = sorted(_formula_error(lambda: shown.truth_set(formula), "formula"), key=shown.worlds.index)
    m = shown
    lit = holds if formula is not None else None
    svg = "" if m.is_empty else _svg(lambda: m.draw(highlight=lit, highlight_label=f"{formula} holds"))
    return {"svg": svg, "step": step, "steps": steps, "holds": holds,
            "holds_at_actual": None if formula is None or not m.actual else all(w in holds for w in m.actual),
            "actual": list(m.actual), "agents": list(m.agents),
            "worlds": [{"name": w, "id": f"kop-world-{i}", "valuation": sorted(m.valuation(w)),
                        "actual": w in m.actual} for i, w in enumerate(m.worlds)],
            "partitions": {a: [list(c) for c in m.partition(a)] for a in m.agents}}


def _formula_error(run: Callable[[], Any], what: str) -> Any:
    """Run *run*; a parse error comes back prefixed with *what* (still located in the formula's text)."""
    try:
        return run()
    except ParseError as exc:
        err = ParseError(exc.text, exc.line, exc.column, exc.found, exc.expected)
        err.args = (f"{what}: {exc}",)
        raise err from None


def _update(model: KripkeModel, u: Any, i: int) -> KripkeModel:
    if not isinstance(u, dict) or u.get("kind") not in UPDATES or not isinstance(u.get("formula"), str):
        raise KopError(f"update {i}: expected {{kind: announce | radical | conservative, formula: text}}")
    f = u["formula"]
    if u["kind"] == "announce":
        out = _formula_error(lambda: model.announce(f), f"update {i}")
        if out.is_empty:
            raise KopError(f"update {i}: announcing {f} leaves no world")
        return out  # type: ignore[no-any-return]
    return _formula_error(lambda: model.upgrade(f, u["kind"]), f"update {i}")  # type: ignore[no-any-return]


# -- matches --------------------------------------------------------------------------------------------

def match_view(request: Mapping[str, Any], root: str | os.PathLike[str], *, timeout: float = 20.0) -> dict[str, Any]:
    """A match between two knowledge-based agents, move by move with each move's reasons.

    The request names the game (``path``: a theory under the root with a game;
    default: the paper's Figure 2), each player's knowledge level ``levels``
    (``{"A": 2, "B": 1}``: the agent knows f(P, d)), and ``communication``.

    >>> r = match_view({"levels": {"A": 2, "B": 1}}, ".")
    >>> r["outcome"], [e["strategy"] for e in r["log"]], r["path"]
    ([9, 4], ['HM0M2', 'Mh'], [0, 3, 8])
    """
    tree = _match_tree(request, root, timeout)
    players = list(tree.player_names)
    if len(players) != 2:
        raise KopError(f"a match here needs a two-player game; this one has {len(players)} players")
    levels = request.get("levels") or {}
    if not isinstance(levels, dict):
        raise KopError("levels must map each player to a level")
    agents = []
    for p, q in (players, players[::-1]):
        d = levels.get(p, 0)
        if not isinstance(d, int) or isinstance(d, bool) or not 0 <= d <= 20:
            raise KopError(f"the level of {p} must be a whole number from 0 to 20, not {d!r}")
        agents.append(Agent(p, knowledge=f_level(p, q, d), timeout=timeout))
    result = Match(TreeGame(tree), agents, communication=bool(request.get("communication"))).play()
    path = [0]
    for e in result.log:
        if e.kind in ("move", "chance"):
            path.append(int(tree.offsets[path[-1]]) + int(e.move))
    return {**result.to_json(), "path": path, "svg": _svg(lambda: tree.draw(play=path))}


def _match_tree(request: Mapping[str, Any], root: str | os.PathLike[str], timeout: float) -> Any:
    path = request.get("path")
    if not path:
        return figure2()

    text = read_file(root, str(path))["text"]
    run = TheoryRun(parse_theory(text, theory_folder(root, str(path))), timeout=timeout, questions=False)
    if run.tree is None:
        raise KopError(f"{path}: the theory states no game ('game ...' or tree \"FILE\")")
    return run.tree


# -- stories --------------------------------------------------------------------------------------------

def _story_reader() -> Callable[..., Any] | None:
    import kop

    reader = getattr(kop, "read_story", None)
    return reader if callable(reader) else None


def story_status(reader: Callable[..., Any] | None = None) -> dict[str, Any]:
    """Whether stories can be read here (``kop.read_story`` exists), with the message the page shows.

    >>> story_status(lambda text: {})["available"]
    True
    """
    if reader is None:
        reader = _story_reader()
    if reader is None:
        return {"available": False,
                "message": "Stories are not available in this version of kop: kop.read_story is missing. "
                           "The Story page opens once the theory-of-mind stories have landed."}
    return {"available": True, "message": ""}


def story_view(text: str, order: int = 1, reader: Callable[..., Any] | None = None) -> dict[str, Any]:
    """A story's events and, after each, every agent's beliefs to *order*, checked against the contract.

    ``reader(text)`` (by default ``kop.read_story``) gives a story; its
    ``to_json(order=order)`` (or the value itself, when it is a dict) must have
    the shape of :data:`STORY_CONTRACT`: ``agents``, a list of names, and
    ``events``, each with its ``text`` and ``beliefs``, a list of texts per agent.

    >>> fake = lambda text: {"agents": ["s"], "events": [{"text": text, "beliefs": {"s": ["p"]}}]}
    >>> story_view("Sally looks.", 1, fake)["events"][0]["beliefs"]
    {'s': ['p']}
    """
    _need_text(text, "story")
    if not isinstance(order, int) or isinstance(order, bool) or not 0 <= order <= 10:
        raise KopError("the order of beliefs must be a whole number from 0 to 10")
    if reader is None:
        reader = _story_reader()
    if reader is None:
        raise KopError(story_status(None)["message"])
    story = reader(text)
    data = story if isinstance(story, dict) else story.to_json(order=order)
    return {**_check_story(data), "order": order}


def _check_story(data: Any) -> dict[str, Any]:
    def bad(where: str) -> KopError:
        return KopError(f"the story reader gave {where} outside the playground's contract (docs/playground.md)")

    if not isinstance(data, dict) or not isinstance(data.get("agents"), list) or not isinstance(data.get("events"), list):
        raise bad("a value")
    agents = [str(a) for a in data["agents"]]
    events = []
    for i, e in enumerate(data["events"]):
        if not isinstance(e, dict) or not isinstance(e.get("text"), str) or not isinstance(e.get("beliefs"), dict):
            raise bad(f"event {i + 1}")
        beliefs: dict[str, list[str]] = {}
        for a, bs in e["beliefs"].items():
            if not isinstance(bs, Sequence) or isinstance(bs, str):
                raise bad(f"the beliefs of {a} after event {i + 1}")
            beliefs[str(a)] = [str(b) for b in bs]
        events.append({"text": e["text"], "beliefs": beliefs})
    return {"agents": agents, "events": events}
