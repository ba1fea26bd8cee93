"""Gambit ``.efg`` (extensive form, version 2) import and export for perfect-information trees.

The format is read as Gambit and OpenSpiel write it (Gambit's documentation,
"The extensive game (.efg) file format"): a header ``EFG 2 R "title" { "player"
... }`` with an optional comment string, then the nodes in prefix order:

* ``p "name" player infoset ["infoset name" { "action" ... }] outcome [...]``
  (personal), ``c "name" infoset ["infoset name" { "action" prob ... }] outcome
  [...]`` (chance) and ``t "name" outcome [...]`` (terminal);
* an outcome is ``0`` (none) or a number, followed where it is first defined by
  a name and its payoffs ``"name" { 1, 2 }``; payoffs are separated by commas or
  spaces, and a later node may reuse the number alone or repeat the same payoffs;
* numbers are integers, decimals (``.80``, ``2.5e-3``) or rationals (``3/4``);
  probabilities likewise;
* names are double-quoted; ``\\"`` is a quote and ``\\\\`` a backslash inside;
* an information set's actions may be omitted after its first node (chance sets
  may be reused by several nodes: that keeps the game of perfect information).

Node names become kop labels and action names move labels (an action named by
its 0-based position, ``"0"``, ``"1"``, ..., is an unlabelled move, which is how
export names them).  Outcomes at inner nodes add up along the path, as in
Gambit.  A personal information set with more than one node makes the game one
of imperfect information, which kop's strategies do not cover yet: such a file
is rejected with a message naming the set.  Every other problem is an
:class:`~kop.errors.EfgError` naming the line and column and what was
expected there.

Limits: a number is at most :data:`MAX_NUMBER_CHARS` characters with an exponent
of at most :data:`MAX_EXPONENT` in size, and a payoff must fit a 64-bit float.

Gambit players maximize their payoffs.  On export, the payoffs of a kop player
whose goal is ``min`` are negated, and the comment records the goals
(``kop-goals: A=max B=min``, or ``kop-goals: max min`` in player order) so that
import restores the original numbers and goals; a file without it gives every
player the goal ``max``.

Reading and writing take time linear in the file (reading sorts once).  Files in
the common style (no backslashes in names, numbers without exponents, every
information set listing its actions,
outcomes only at terminal nodes) are read by array operations over the text, a
piece at a time (:mod:`kop.io.efgscan`); anything else, and every error, by a
token-level reader that gives the same tree and words the errors.

Example
-------
>>> import kop
>>> t = kop.figure2()
>>> kop.loads_efg(kop.dumps_efg(t)) == t
True
>>> kop.loads_efg('EFG 2 R "g" { "A" "B" } p "" 1 1 "" { "x" "y" } 0 '
...               't "" 1 "o" { .80, 3/4 } t "" 1')
GameTree(players=(A:max, B:max), nodes=3, leaves=2, height=1)
"""

from __future__ import annotations

import os
import re
from fractions import Fraction
from collections.abc import Generator
from typing import Any, NamedTuple, NoReturn, Union

import numpy as np

from kop.games.trees.prefix import tree_from_prefix
from kop.io.efgscan import Scanned, scan_file, scan_nodes, scan_sets
from kop.games.errors import EfgError
from kop.games.trees.tree import CHANCE, LEAF, PROB_TOLERANCE, GameTree, Player
from kop.errors import KopError
from kop.io.jsontext import location, paused_gc
from kop.games.trees.checks import tree_argument

__all__ = ["loads_efg", "dumps_efg", "read_efg_sets", "EfgSets", "MAX_NUMBER_CHARS", "MAX_EXPONENT"]

#: the longest number token read
MAX_NUMBER_CHARS = 200
#: the largest exponent (``e+N`` / ``e-N``) read
MAX_EXPONENT = 400
_FLOAT_MAX = Fraction(np.finfo(np.float64).max)

Number = Union[int, Fraction]

_STR = r'"((?:[^"\\]|\\.)*)"'
# an integer, a rational of two integers, or a decimal with an optional exponent
_NUM = r"[+-]?(?:[0-9]+/[0-9]+|(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)"
_END = r"(?![0-9A-Za-z_./+-])"
_INT = r"([0-9]{1,18})" + _END  # longer: the token reader words the error
_PAYS = rf"\{{\s*((?:{_NUM}){_END}(?:(?:\s*,\s*|\s+)(?:{_NUM}){_END})*)\s*\}}"
_OUTCOME = rf"\s+{_INT}(?:\s*{_STR}\s*{_PAYS})?"
_QSTR = r'"(?:[^"\\]|\\.)*"'
# one node in the usual layouts (anything else goes to the token-level reader); 19 groups
_FAST = re.compile(
    rf"\s*(?:t\s*{_STR}{_OUTCOME}"
    rf"|p\s*{_STR}\s*{_INT}\s+{_INT}(?:\s*{_STR}\s*\{{((?:\s*{_QSTR})+)\s*\}})?{_OUTCOME}"
    rf"|c\s*{_STR}\s*{_INT}(?:\s*{_STR}\s*\{{((?:\s*{_QSTR}\s*{_NUM}{_END})+)\s*\}})?{_OUTCOME})",
    re.DOTALL)
_NUMBER = re.compile(_NUM)
_INTEGER = re.compile(r"[+-]?[0-9]+")
_STRINGS = re.compile(r'"((?:[^"\\]|\\.)*)"', re.DOTALL)
_PAIRS = re.compile(rf'"((?:[^"\\]|\\.)*)"\s*({_NUM})', re.DOTALL)
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_TOKEN = re.compile(r"""\s*(?:
    (?P<string>"(?:[^"\\]|\\.)*")
  | (?P<brace>[{}])
  | (?P<comma>,)
  | (?P<number>[+-]?[0-9.][0-9A-Za-z./+-]*|[+-])
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
)""", re.VERBOSE | re.DOTALL)
_SPACE = re.compile(r"\s*")


def _unquote(s: str) -> str:
    """The text of a quoted name without its quotes (``\\"`` is a quote, ``\\\\`` a backslash)."""
    if "\\" not in s:
        return s
    return _ESCAPE.sub(lambda m: m.group(1) if m.group(1) in '"\\' else m.group(0), s)


class _Fault(Exception):
    """A problem in a node found after matching it; *part* says which token to point at."""

    def __init__(self, part: str, message: str, index: int = 0):
        super().__init__(message)
        self.part, self.message, self.index = part, message, index


class _Node(NamedTuple):
    """One node record: what a fast match or the token-level reader found, and where."""

    kind: str
    name: str
    player: int
    infoset: int
    iname: str | None
    actions: list[str] | None
    probs: list[str] | None
    outcome: int
    oname: str | None
    payoffs: list[str] | None
    start: int
    end: int
    at: dict[str, list[int]] | None  # token positions (token-level reader only)


class _Lexer:
    """Tokens on demand, each with its offset; errors located and worded."""

    def __init__(self, text: str, pos: int = 0):
        self.text = text
        self.pos = pos

    def fail(self, at: int, message: str) -> NoReturn:
        raise EfgError(f"{location(self.text, at)}: {message}")

    def peek(self) -> tuple[str, str, int]:
        """(kind, token, offset); kind ``end`` at the end of the text."""
        m = _TOKEN.match(self.text, self.pos)
        if m is None or m.lastgroup is None:
            at = _SPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]
            if at >= len(self.text):
                return "end", "", at
            return "bad", self.text[at], at
        kind = m.lastgroup
        return kind, m.group(kind), m.start(kind)

    def take(self, kind: str, what: str) -> tuple[str, int]:
        k, tok, at = self.peek()
        if k != kind:
            self.fail(at, f"expected {what}, found {_found(k, tok)}")
        self.pos = at + len(tok)
        return tok, at

    def accept(self, kind: str, token: str | None = None) -> bool:
        k, tok, at = self.peek()
        if k == kind and (token is None or tok == token):
            self.pos = at + len(tok)
            return True
        return False

    def string(self, what: str) -> tuple[str, int]:
        tok, at = self.take("string", what)
        return _unquote(tok[1:-1]), at

    def number(self, what: str) -> tuple[str, int]:
        tok, at = self.take("number", what)
        check_number(tok, self.text, at, what)
        return tok, at

    def integer(self, what: str) -> tuple[int, int]:
        tok, at = self.take("number", what)
        if not _INTEGER.fullmatch(tok) or len(tok) > 18:
            self.fail(at, f"expected {what} (a whole number), found {tok[:40]!r}")
        return int(tok), at


def _found(kind: str, tok: str) -> str:
    if kind == "end":
        return "the end of the file"
    if kind == "bad":
        return f"the character {tok!r}"
    return repr(tok) if len(tok) <= 40 else repr(tok[:37] + "...")


def check_number(tok: str, text: str, at: int, what: str) -> None:
    """Raise a located :class:`EfgError` unless *tok* is a number kop reads (within the limits)."""
    where = location(text, at)
    if len(tok) > MAX_NUMBER_CHARS:
        raise EfgError(f"{where}: {what} has {len(tok)} characters; kop reads numbers of up to "
                       f"{MAX_NUMBER_CHARS}")
    if not _NUMBER.fullmatch(tok):
        raise EfgError(f"{where}: expected {what} (like 3, -1.5, .80, 2e-3 or 3/4), found {tok!r}")
    m = re.search(r"[eE]([+-]?[0-9]+)", tok)
    if m and abs(int(m.group(1))) > MAX_EXPONENT:
        raise EfgError(f"{where}: the exponent of {tok!r} is beyond kop's limit of {MAX_EXPONENT}")
    if "/" in tok and int(tok.rsplit("/", 1)[1]) == 0:
        raise EfgError(f"{where}: {what} {tok!r} divides by zero")


def _too_big(x: Number) -> bool:
    """Whether *x* is beyond the range of a 64-bit float."""
    return bool(x > _FLOAT_MAX or x < -_FLOAT_MAX)


def _value(tok: str) -> Number:
    """The exact value of a checked number token (an int when it is whole)."""
    try:
        return int(tok)
    except ValueError:
        x = Fraction(tok)
        return int(x) if x.denominator == 1 else x


def _careful_node(text: str, pos: int) -> _Node:
    """One node by the token-level reader (words every error)."""
    lx = _Lexer(text, pos)
    at: dict[str, list[int]] = {}
    kind, tok, start = lx.peek()
    if kind == "end":
        lx.fail(start, "the file ends before the tree is complete (expected a node: p, c or t)")
    if kind != "word" or tok not in ("p", "c", "t"):
        lx.fail(start, f"expected a node type p, c or t, found {_found(kind, tok)}")
    lx.pos = start + len(tok)
    player = infoset = 0
    iname = oname = None
    actions: list[str] | None = None
    probs: list[str] | None = None
    payoffs: list[str] | None = None
    name, a = lx.string(f"the node name (a quoted string) after {tok!r}")
    at["name"] = [a]
    if tok == "p":
        player, a = lx.integer("the player number")
        at["player"] = [a]
    if tok in "pc":
        infoset, a = lx.integer("the information set number")
        at["infoset"] = [a]
        if lx.peek()[0] == "string":
            iname, a = lx.string("the information set name")
            at["iname"] = [a]
            _, a = lx.take("brace", "'{' before the actions")
            at["actions"] = [a]
            actions, at["action"] = [], []
            if tok == "c":
                probs, at["prob"] = [], []
            while not lx.accept("brace", "}"):
                what = "an action name or '}'" if actions else "an action name (a quoted string)"
                act, a = lx.string(what)
                actions.append(act)
                at["action"].append(a)
                if probs is not None:
                    p, a = lx.number(f"the probability of action {act!r}")
                    probs.append(p)
                    at["prob"].append(a)
            if not actions:
                lx.fail(at["actions"][0], f"a {'chance' if tok == 'c' else 'personal'} node needs at least "
                                          "one action")
    outcome, a = lx.integer("the outcome number (0 for none)")
    at["outcome"] = [a]
    if lx.peek()[0] == "string":
        oname, a = lx.string("the outcome name")
        at["oname"] = [a]
        _, a = lx.take("brace", "'{' before the payoffs")
        at["payoffs"] = [a]
        payoffs, at["payoff"] = [], []
        while True:
            k, t, a = lx.peek()
            if k == "brace" and t == "}" and payoffs:
                lx.pos = a + 1
                break
            if k == "comma" and payoffs:
                lx.pos = a + 1
                k, t, a = lx.peek()
                if k != "number":
                    lx.fail(a, f"expected a payoff after ',', found {_found(k, t)}")
            if k != "number":
                what = "a payoff, ',' or '}'" if payoffs else "a payoff (a number)"
                lx.fail(a, f"expected {what}, found {_found(k, t)}")
            p, a = lx.number("a payoff")
            payoffs.append(p)
            at["payoff"].append(a)
    return _Node(tok, name, player, infoset, iname, actions, probs, outcome, oname, payoffs, start, lx.pos, at)


def _risky(tokens: list[str] | None) -> bool:
    """Whether number tokens need the token-level reader's limit checks."""
    return tokens is not None and any(len(t) > 25 or "e" in t or "E" in t or "/0" in t for t in tokens)


def _fast_nodes(text: str, pos: int) -> Generator[_Node | None, int | None, None]:
    """Node records from *pos* on, by one regular expression each; None where it does not match."""
    unq = _unquote
    while True:
        scan = _FAST.scanner(text, pos).match  # type: ignore[attr-defined]
        while True:
            m = scan()
            if m is None:
                break
            (t_name, t_out, t_oname, t_pays, p_name, p_pl, p_iset, p_iname, p_acts, p_out, p_oname, p_pays,
             c_name, c_iset, c_iname, c_acts, c_out, c_oname, c_pays) = m.groups()
            if t_name is not None:
                pays = t_pays.replace(",", " ").split() if t_pays is not None else None
                nd = _Node("t", unq(t_name), 0, 0, None, None, None, int(t_out),
                           None if t_oname is None else unq(t_oname), pays, m.start(), m.end(), None)
            elif p_name is not None:
                pays = p_pays.replace(",", " ").split() if p_pays is not None else None
                acts = None if p_iname is None else [unq(a) for a in _STRINGS.findall(p_acts)]
                nd = _Node("p", unq(p_name), int(p_pl), int(p_iset), None if p_iname is None else unq(p_iname),
                           acts, None, int(p_out), None if p_oname is None else unq(p_oname), pays,
                           m.start(), m.end(), None)
            else:
                pays = c_pays.replace(",", " ").split() if c_pays is not None else None
                pairs = None if c_iname is None else _PAIRS.findall(c_acts)
                nd = _Node("c", unq(c_name), 0, int(c_iset), None if c_iname is None else unq(c_iname),
                           None if pairs is None else [unq(a) for a, _ in pairs],
                           None if pairs is None else [p for _, p in pairs], int(c_out),
                           None if c_oname is None else unq(c_oname), pays, m.start(), m.end(), None)
            if _risky(nd.payoffs) or _risky(nd.probs):
                break
            pos = nd.end
            yield nd
        resume = yield None
        if resume is None:
            return
        pos = resume


def _goals(comment: str, names: list[str], text: str, at: int) -> list[str]:
    """Goals from a ``kop-goals:`` comment (``A=max B=min`` or ``max min`` in player order)."""
    m = re.search(r"kop-goals:", comment)
    if m is None:
        return ["max"] * len(names)
    words = comment[m.end():].split()
    where = location(text, at)
    positional = [w for w in words if w in ("max", "min")]
    if words[:len(names)] == positional[:len(names)] and len(positional) >= len(names):
        return positional[:len(names)]
    goals = dict.fromkeys(names, "max")
    for w in words:
        name, eq, goal = w.rpartition("=")
        if not eq:
            break  # free text after the goals
        if goal not in ("max", "min") or name not in goals:
            raise EfgError(f"{where}: the kop-goals comment: {w[:40]!r} is not PLAYER=max or PLAYER=min "
                           f"(players {', '.join(names)})")
        goals[name] = goal
    return [goals[n] for n in names]


def loads_efg(text: str) -> GameTree:
    """A tree from the text of a Gambit ``.efg`` file (perfect information, with chance).

    Parameters
    ----------
    text : str
        The text of a Gambit ``.efg`` file (version 2).

    Returns
    -------
    GameTree
        The tree; goals as recorded by :func:`kop.dumps_efg`, else every player maximizes.

    Examples
    --------
    >>> import kop
    >>> kop.loads_efg(kop.dumps_efg(kop.figure2())) == kop.figure2()
    True

    References
    ----------
    The Gambit Project, *Gambit: Software Tools for Game Theory*, the ``.efg`` format.
    """
    return _loads(text, fast=True)


def _loads(text: str, fast: bool) -> GameTree:
    """:func:`loads_efg`; with *fast* False, by the token-level reader alone (to test the fast path)."""
    if not isinstance(text, str):
        raise EfgError(f"an .efg text is a string, not {type(text).__name__}")
    players, pos = _header(text)
    with paused_gc():  # millions of small records: the cyclic collector would cost more than the reading
        tree = scan_nodes(text, pos, players) if fast else None
        return tree if tree is not None else _Reader(text, players).read(pos)


class EfgSets(NamedTuple):
    """What :func:`read_efg_sets` reads: the tree and its personal information sets."""

    tree: GameTree
    node_set: np.ndarray  # per node (breadth first): the index of its information set, or -1
    keys: list[tuple[int, int]]  # per set: (player number, set number), in order of first appearance
    lines: list[int | None]  # per set: the line where it first appears (None: not kept by the fast path)


def read_efg_sets(text: str, fast: bool = True) -> EfgSets:
    """The tree of an ``.efg`` text with its personal information sets kept (several nodes each).

    A further node of a set must list the same actions or none; the errors are located as by
    :func:`loads_efg`.  With *fast* False, by the token-level reader alone (to test the fast path).

    >>> r = read_efg_sets('EFG 2 R "" { "A" "B" } p "" 1 1 "" { "x" "y" } 0 '
    ...                   'p "" 2 1 "" { "l" "r" } 0 t "" 1 "" { 1 0 } t "" 0 '
    ...                   'p "" 2 1 "" { "l" "r" } 0 t "" 0 t "" 1')
    >>> r.node_set.tolist(), r.keys
    ([0, 1, 1, -1, -1, -1, -1], [(1, 1), (2, 1)])
    """
    if not isinstance(text, str):
        raise EfgError(f"an .efg text is a string, not {type(text).__name__}")
    players, pos = _header(text)
    with paused_gc():
        scanned = scan_sets(text, pos, players) if fast else None
    if scanned is not None:
        quick = _fast_sets(scanned, len(players))
        if quick is not None:
            return quick
    reader = _Reader(text, players, keep_sets=True)
    with paused_gc():
        tree = reader.read(pos)
    n = len(tree)
    order = np.argsort(np.asarray(reader.depth_of, dtype=np.int64), kind="stable")
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n, dtype=np.int64)
    node_set = np.full(n, -1, dtype=np.int64)
    if reader.node_set:
        pre = np.fromiter(reader.node_set.keys(), dtype=np.int64, count=len(reader.node_set))
        node_set[rank[pre]] = np.fromiter(reader.node_set.values(), dtype=np.int64, count=len(pre))
    starts = [_SPACE.match(text, reader.personal_sets[key][1]).end()  # type: ignore[union-attr]
              for key in reader.set_keys]
    ends = np.array([m.start() for m in re.finditer("\n", text)], dtype=np.int64)
    lines: list[int | None] = (np.searchsorted(ends, np.array(starts, dtype=np.int64)) + 1).tolist()
    return EfgSets(tree, node_set, reader.set_keys, lines)


def _fast_sets(scanned: Scanned, n_players: int) -> EfgSets | None:
    """The sets of the fast path's reading, or None when two nodes of a set differ in their actions
    (then the token-level reader words the error).  An action named by its position counts as
    unlabelled, as in the tree."""
    tree = scanned.tree
    n = len(tree)
    order = np.argsort(scanned.depth, kind="stable")
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n, dtype=np.int64)
    personal = rank[np.flatnonzero(scanned.kind >= 0)]  # breadth-first index of each, in file order
    keys = scanned.keys
    if keys.ndim == 2:
        pairs = keys
    else:
        pairs = np.stack([keys % n_players + 1, keys // n_players], axis=1)
    uniq, first, inverse = np.unique(pairs, axis=0, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    by_first = np.argsort(first, kind="stable")  # sets in order of first appearance
    renumber = np.empty(len(uniq), dtype=np.int64)
    renumber[by_first] = np.arange(len(uniq), dtype=np.int64)
    set_of = renumber[inverse]
    node_set = np.full(n, -1, dtype=np.int64)
    node_set[personal] = set_of
    # every node of a set has the first node's number of actions and action names
    head = personal[first[by_first]]  # breadth-first index of each set's first node
    offsets = tree.offsets.astype(np.int64)
    arity = offsets[1:] - offsets[:-1]
    lead = head[set_of]
    if (arity[personal] != arity[lead]).any():
        return None
    if tree.moves:
        ids: dict[str, int] = {}
        label = np.full(n, -1, dtype=np.int64)
        for c, name in tree.moves.items():
            label[c] = ids.setdefault(name, len(ids))
        counts = arity[personal]
        step = np.arange(int(counts.sum()), dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
        mine = np.repeat(offsets[personal], counts) + step
        theirs = np.repeat(offsets[lead], counts) + step
        if (label[mine] != label[theirs]).any():
            return None
    keys_out = [(int(a), int(b)) for a, b in uniq[by_first].tolist()]
    return EfgSets(tree, node_set, keys_out, [None] * len(keys_out))


def read_efg_file(path: str | os.PathLike[str]) -> GameTree | None:
    """The tree of a Gambit ``.efg`` file read a piece at a time (its text never held whole), or
    None when the fast path does not cover it (then read the text with :func:`loads_efg`, which
    words any error).

    >>> import kop, os, tempfile
    >>> t = kop.figure2()
    >>> path = os.path.join(tempfile.mkdtemp(), "t.efg")
    >>> kop.save_tree(t, path)
    >>> read_efg_file(path) == t
    True
    """
    from kop.syntax.files import open_regular

    # the guarded open: a regular file within the size cap (a device, FIFO or folder is a KopError);
    # a file that reports no size (under /proc) goes to the careful reader, which reads within the cap
    fd = open_regular(path, what="tree file")
    if os.fstat(fd).st_size == 0:
        os.close(fd)
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            if hasattr(os, "set_blocking"):
                os.set_blocking(f.fileno(), True)
            head = f.read(1 << 16)
            try:
                text = head.decode("utf-8")
                players, pos = _header(text)
            except (UnicodeDecodeError, KopError):
                return None  # the header longer than the head, or anything wrong: the text decides
            f.seek(len(text[:pos].encode("utf-8")))
            with paused_gc():
                return scan_file(f, players)
    except OSError:
        return None


def _header(text: str) -> tuple[tuple[Player, ...], int]:
    """The players of an .efg text and the offset of its first node."""
    lx = _Lexer(text)
    k, tok, at = lx.peek()
    if k != "word" or tok != "EFG":
        lx.fail(at, f"an .efg file starts with 'EFG 2 R', found {_found(k, tok)}")
    lx.pos = at + 3
    version, at = lx.take("number", "the version 2 after 'EFG'")
    if version != "2":
        lx.fail(at, f"only EFG version 2 is supported, not {version[:20]!r}")
    rd, at = lx.take("word", "R or D after the version")
    if rd not in ("R", "D"):
        lx.fail(at, f"expected R or D after the version, found {rd!r}")
    lx.string("the title (a quoted string)")
    lx.take("brace", "'{' before the player names")
    names: list[str] = []
    while lx.peek()[0] == "string":
        name, at = lx.string("a player name")
        if name in names:
            lx.fail(at, f"player {name!r} is listed twice")
        if not name:
            lx.fail(at, "a player name must not be empty")
        names.append(name)
    k, tok, at = lx.peek()
    if k != "brace" or tok != "}":
        lx.fail(at, f"expected a player name (a quoted string) or '}}', found {_found(k, tok)}")
    if not names:
        lx.fail(at, "the game has no players")
    lx.pos = at + 1
    goals = ["max"] * len(names)
    if lx.peek()[0] == "string":
        comment, at = lx.string("the comment")
        goals = _goals(comment, names, text, at)
    return tuple(Player(n, g) for n, g in zip(names, goals)), lx.pos


def _chance_values(actions: list[str], tokens: list[str]) -> list[Number]:
    """The probabilities of one chance node's actions, checked (a :class:`_Fault` if not valid)."""
    vals: list[Number] = []
    for j, tok in enumerate(tokens):
        p = _value(tok)
        if not 0 <= p <= 1:
            raise _Fault("prob", f"the probability of action {actions[j]!r} is {tok[:40]}; "
                                 "a probability is between 0 and 1", j)
        vals.append(p)
    total = sum(vals, Fraction(0))
    if abs(float(total) - 1) > PROB_TOLERANCE * max(1, len(vals)):
        raise _Fault("actions", f"chance probabilities sum to {float(total):g}, not 1")
    return vals


def _plain(action: str, rank: int) -> str:
    """An action's name as a move label: "" for an unlabelled one (named "" or by its position)."""
    return "" if action in ("", str(rank)) else action


class _Reader:
    """The node records of a file, turned into the arrays of a :class:`GameTree`."""

    def __init__(self, text: str, players: tuple[Player, ...], keep_sets: bool = False):
        self.text = text
        self.players = players
        self.n = len(players)
        # keep_sets: personal information sets may hold several nodes (read_infosets)
        self.keep_sets = keep_sets
        self.node_set: dict[int, int] = {}  # personal node (prefix order) -> its set's index
        self.set_keys: list[tuple[int, int]] = []  # per set: (player number, set number)
        self.set_index: dict[tuple[int, int], int] = {}  # (player number, set number) -> index
        self.depth_of: list[int] = []
        self.outcomes: dict[int, tuple[list[Number], int]] = {}  # number -> payoffs, first offset
        self.chance_sets: dict[int, tuple[list[str], list[Number]]] = {}
        self.personal_sets: dict[tuple[int, int], tuple[list[str] | None, int]] = {}
        self.integral = True  # every outcome's payoffs are whole numbers

    def where(self, pos: int) -> str:
        """The location of the first token at or after *pos*."""
        m = _SPACE.match(self.text, pos)
        return location(self.text, m.end() if m else pos)

    def fault(self, nd: _Node, f: _Fault) -> NoReturn:
        """Raise *f* at its token: re-read the node with the token-level reader for the positions."""
        at = _careful_node(self.text, nd.start).at or {}
        where = at.get(f.part, [nd.start])
        pos = where[min(f.index, len(where) - 1)] if where else nd.start
        raise EfgError(f"{self.where(pos)}: {f.message}")

    def read(self, pos: int) -> GameTree:
        text = self.text
        depth_of: list[int] = []
        kinds: list[int] = []
        n_kids: list[int] = []
        leaf_pays: list[list[Number]] = []
        labels: dict[int, str] = {}
        moves: list[tuple[int, int, str]] = []  # (parent, rank, name)
        chance_nodes: list[int] = []
        probs: list[Number] = []  # of the children of each chance node in turn
        # open nodes: [children still expected, payoffs accumulated (None: zero), actions, node, next rank]
        stack: list[list[Any]] = []
        zero_acc = None
        i = 0
        fast = _fast_nodes(text, pos)
        nd: _Node | None = next(fast)
        while True:
            upcoming: _Node | None | bool = False  # the record after this one, when already read
            if nd is None:
                nd = _careful_node(text, pos)
                upcoming = fast.send(nd.end)
            pos = nd.end
            try:
                acc = stack[-1][1] if stack else zero_acc
                if stack:
                    top = stack[-1]
                    rank = top[4]
                    top[4] += 1
                    top[0] -= 1
                    act = top[2][rank]
                    if act and act != str(rank):
                        moves.append((top[3], rank, act))
                if nd.name:
                    labels[i] = nd.name
                depth_of.append(len(stack))
                pays = self.outcome(nd)
                if pays is not None:
                    acc = pays if acc is None else self.add(acc, pays, nd)
                if nd.kind == "t":
                    kinds.append(LEAF)
                    n_kids.append(0)
                    leaf_pays.append(acc if acc is not None else [0] * self.n)
                else:
                    actions, ps = self.infoset(nd, i)
                    kinds.append(nd.player - 1 if nd.kind == "p" else CHANCE)
                    n_kids.append(len(actions))
                    if ps is not None:
                        chance_nodes.append(i)
                        probs.extend(ps)
                    stack.append([len(actions), acc, actions, i, 0])
            except _Fault as f:
                self.fault(nd, f)
            i += 1
            while stack and stack[-1][0] == 0:
                stack.pop()
            if not stack:
                break
            nd = next(fast) if upcoming is False else upcoming  # type: ignore[assignment]
        m = _SPACE.match(text, pos)
        end = m.end() if m else pos
        if end < len(text):
            raise EfgError(f"{location(text, end)}: extra text after the tree (it is complete): "
                           f"{text[end:end + 20]!r}")
        self.depth_of = depth_of
        return self.tree(depth_of, kinds, n_kids, leaf_pays, labels, moves, chance_nodes, probs)

    def add(self, acc: list[Number], pays: list[Number], nd: _Node) -> list[Number]:
        out = [a + b for a, b in zip(acc, pays)]
        for j, x in enumerate(out):
            if _too_big(x):
                raise _Fault("outcome", f"the payoff of {self.players[j].name} adds up to a number "
                                        "too large for a 64-bit float")
        return out

    def outcome(self, nd: _Node) -> list[Number] | None:
        k = nd.outcome
        if nd.payoffs is None:
            if k == 0:
                return None
            if k not in self.outcomes:
                raise _Fault("outcome", f"outcome {k} is used before its payoffs are given (expected "
                                        f"\"name\" {{ payoffs }} after the outcome number)")
            return self.outcomes[k][0]
        if k == 0:
            raise _Fault("outcome", "outcome 0 means no outcome; it takes no name or payoffs")
        if len(nd.payoffs) != self.n:
            raise _Fault("payoffs", f"outcome {k} has {len(nd.payoffs)} payoff"
                                    f"{'s' if len(nd.payoffs) != 1 else ''}, expected {self.n} "
                                    f"(players {', '.join(p.name for p in self.players)})")
        vals = []
        for j, tok in enumerate(nd.payoffs):
            x = _value(tok)
            if (len(tok) > 25 or "e" in tok or "E" in tok) and _too_big(x):
                raise _Fault("payoff", f"payoff {tok[:40]} is too large for a 64-bit float", j)
            if type(x) is not int:
                self.integral = False
            vals.append(x)
        old = self.outcomes.get(k)
        if old is None:
            self.outcomes[k] = (vals, nd.start)
        elif old[0] != vals:
            raise _Fault("payoffs", f"outcome {k} was defined at {self.where(old[1])} with other "
                                    f"payoffs ({', '.join(map(str, old[0]))})")
        return vals

    def infoset(self, nd: _Node, i: int) -> tuple[list[str], list[Number] | None]:
        key = nd.infoset
        if nd.kind == "p":
            pl = nd.player
            if not 1 <= pl <= self.n:
                raise _Fault("player", f"player {pl} does not exist (players 1..{self.n}: "
                                       f"{', '.join(p.name for p in self.players)})")
            seen = self.personal_sets.get((pl, key))
            if seen is not None and self.keep_sets:
                return self.member(nd, i, pl, key, seen), None
            if seen is not None:
                raise _Fault("infoset", f"information set {key} of player {pl} ({self.players[pl - 1].name}) "
                                        f"contains more than one node (also at {self.where(seen[1])});"
                                        " kop supports perfect-information trees only, where every "
                                        "information set is a single node (kop.load_game reads it "
                                        "with its information sets)")
            if nd.actions is None:
                raise _Fault("infoset", f"information set {key} of player {pl} is used before its actions "
                                        "are listed")
            self.personal_sets[(pl, key)] = (nd.actions, nd.start)
            if self.keep_sets:
                self.node_set[i] = self.set_index[(pl, key)] = len(self.set_keys)
                self.set_keys.append((pl, key))
            return nd.actions, None
        known = self.chance_sets.get(key)
        if nd.actions is None:
            if known is None:
                raise _Fault("infoset", f"chance information set {key} is used before its actions and "
                                        "probabilities are listed")
            return known
        assert nd.probs is not None
        vals = _chance_values(nd.actions, nd.probs)
        if known is not None and (known[0] != nd.actions or known[1] != vals):
            raise _Fault("actions", f"chance information set {key} is listed again with other actions "
                                    "or probabilities")
        self.chance_sets[key] = (nd.actions, vals)
        return nd.actions, vals

    def member(self, nd: _Node, i: int, pl: int, key: int, seen: tuple[list[str] | None, int]) -> list[str]:
        """A further node of personal information set *key* of player *pl*: its actions checked
        against the set's (same number, same names, in order)."""
        actions = seen[0]
        assert actions is not None
        if nd.actions is not None and nd.actions != actions and [_plain(a, r) for r, a in enumerate(nd.actions)] != [
                _plain(a, r) for r, a in enumerate(actions)]:
            name = self.players[pl - 1].name
            listed = " ".join(_q(a) for a in actions)
            here = " ".join(_q(a) for a in nd.actions)
            what = (f"{len(nd.actions)} action{'s' if len(nd.actions) != 1 else ''}"
                    if len(nd.actions) != len(actions) else "other action names")
            raise _Fault("actions", f"information set {key} of player {pl} ({name}) has {len(actions)} "
                                    f"action{'s' if len(actions) != 1 else ''} {{ {listed} }} (at "
                                    f"{self.where(seen[1])}); this node gives it {what} {{ {here} }}")
        self.node_set[i] = self.set_index[(pl, key)]
        return actions

    def tree(self, depth_of: list[int], kinds: list[int], n_kids: list[int], leaf_pays: list[list[Number]],
             labels: dict[int, str], moves: list[tuple[int, int, str]], chance_nodes: list[int],
             probs: list[Number]) -> GameTree:
        integral = self.integral or all(type(x) is int or x.denominator == 1 for row in leaf_pays for x in row)
        if integral:
            matrix = np.array(leaf_pays, dtype=np.float64).reshape(-1, self.n)
        else:
            matrix = np.array([[float(x) for x in row] for row in leaf_pays], dtype=np.float64)
        return tree_from_prefix(self.players, np.asarray(depth_of, dtype=np.int64), np.asarray(kinds, dtype=np.int64),
                                np.asarray(n_kids, dtype=np.int64), matrix, integral, labels, moves,
                                np.asarray(chance_nodes, dtype=np.int64),
                                np.array([float(p) for p in probs], dtype=np.float64))


# -- writing --------------------------------------------------------------------------


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _numbers(values: np.ndarray, integral: bool) -> list[str]:
    """Plain decimals that read back as the same floats (open-spiel reads no fractions or exponents)."""
    if integral and (not len(values) or float(np.abs(values).max()) < 2.0**63):
        return list(map(str, values.astype(np.int64).tolist()))
    out = list(map(repr, values.tolist()))
    for j, s in enumerate(out):
        if "e" in s or "n" in s:
            out[j] = np.format_float_positional(values[j], unique=True, trim="-")
    return out


def _chance_numbers(values: np.ndarray) -> list[str]:
    """A chance node's probabilities as numbers that sum to exactly 1, as Gambit requires.

    Plain decimals when they do (OpenSpiel reads fractions ``n/d`` too); else the simplest fractions
    that read back as the same floats (``1/6``); else the floats' exact binary fractions, the largest
    made up to 1.
    """
    decimals = _numbers(values, False)
    if sum(map(Fraction, decimals), Fraction(0)) == 1:
        return decimals
    floats = values.tolist()
    simple = [Fraction(v).limit_denominator(10 ** 9) for v in floats]
    if sum(simple, Fraction(0)) == 1 and all(float(q) == v for q, v in zip(simple, floats)):
        return [str(q) for q in simple]
    exact = [Fraction(v) for v in floats]
    k = max(range(len(exact)), key=exact.__getitem__)
    exact[k] = 1 - sum(exact[:k] + exact[k + 1:], Fraction(0))
    return [str(q) for q in exact]


def _unique(names: list[str]) -> list[str]:
    """*names* with each repeat renamed ``NAME (2)``, ``NAME (3)``, ... (a name not used otherwise): in order.

    Gambit refuses repeated node labels and OpenSpiel merges sibling actions of the same name.

    >>> _unique(["x", "x", "x (2)", "y", "x"])
    ['x', 'x (3)', 'x (2)', 'y', 'x (4)']
    """
    if len(set(names)) == len(names):
        return names
    taken = set(names)
    seen: set[str] = set()
    out = []
    for name in names:
        if name in seen:
            k = 2
            while f"{name} ({k})" in taken:
                k += 1
            name = f"{name} ({k})"
            taken.add(name)
        seen.add(name)
        out.append(name)
    return out


def _preorder(tree: GameTree) -> np.ndarray:
    """Prefix-order position of every node (breadth-first index -> position)."""
    n = len(tree)
    offsets = tree.offsets.astype(np.int64)
    levels = tree.levels
    size = np.ones(n, dtype=np.int64)
    for d in range(len(levels) - 2, 0, -1):  # subtree sizes, deepest level first
        s, e = int(levels[d]), int(levels[d + 1])
        inner = s + np.flatnonzero(tree.kind[s:e] != LEAF)
        if len(inner):
            size[inner] += np.add.reduceat(size[offsets[inner[0]]:int(levels[d + 2])],
                                           offsets[inner] - offsets[inner[0]])
    pre = np.zeros(n, dtype=np.int64)
    for d in range(len(levels) - 2):
        s, e = int(levels[d]), int(levels[d + 1])
        inner = s + np.flatnonzero(tree.kind[s:e] != LEAF)
        if not len(inner):
            continue
        lo, hi = int(offsets[inner[0]]), int(offsets[inner[-1] + 1])
        kid_sizes = size[lo:hi]
        counts = offsets[inner + 1] - offsets[inner]
        ends = np.cumsum(kid_sizes)
        group_start = np.repeat(ends[offsets[inner] - lo] - kid_sizes[offsets[inner] - lo], counts)
        pre[lo:hi] = np.repeat(pre[inner] + 1, counts) + (ends - kid_sizes) - group_start
    return pre


def dumps_efg(tree: GameTree, title: str = "kop tree", *, unique_labels: bool = False) -> str:
    """Gambit ``.efg`` text of *tree* (see the module docstring for the payoff convention).

    Parameters
    ----------
    tree : GameTree
        The game tree.
    title : str
        The game's title.
    unique_labels : bool
        Rename repeated node labels ``LABEL (2)``, ... (Gambit 17 refuses repeated labels; the
        format allows them, and by default they are kept so that the file reads back as *tree*).
        Repeated move names of siblings are always renamed so (OpenSpiel would merge the moves),
        and chance probabilities always sum to exactly 1 (``1/6`` where decimals cannot).

    Returns
    -------
    str
        The ``.efg`` text; payoffs of ``min`` players are negated (Gambit's players maximize).

    Examples
    --------
    >>> import kop
    >>> print(kop.dumps_efg(kop.GameTree.build(["A", "B"], ("A", [(1, 2), (3, 4)]))))
    EFG 2 R "kop tree" { "A" "B" }
    "kop-goals: A=max B=min (payoffs of min players are negated: Gambit players maximize)"
    <BLANKLINE>
    p "" 1 1 "" { "0" "1" } 0
    t "" 1 "" { 1 -2 }
    t "" 2 "" { 3 -4 }
    <BLANKLINE>

    References
    ----------
    The Gambit Project, *Gambit: Software Tools for Game Theory*, the ``.efg`` format.
    """
    tree_argument(tree)
    tree.require_sequential("the .efg writer")
    head = _efg_head(tree, title)
    n = len(tree)
    offsets = tree.offsets
    signs = np.array([p.sign for p in tree.players], dtype=np.float64)
    cols = [_numbers(tree.payoffs[:, j] * signs[j], tree.integral) for j in range(len(tree.players))]
    pays = list(map(" ".join, zip(*cols)))
    names = _efg_names(tree, unique_labels)
    counts = (offsets[1:] - offsets[:-1]).tolist()
    plain: dict[int, str] = {}
    lines: list[str] = [""] * n
    leaf = 0
    infoset = [0] * len(tree.players)
    chance = 0
    kinds = tree.kind.tolist()
    for i in range(n):
        k = kinds[i]
        if k == LEAF:
            lines[i] = f"t {names[i]} {leaf + 1} \"\" {{ {pays[leaf]} }}"
            leaf += 1
            continue
        lo, c = int(offsets[i]), counts[i]
        acts = _efg_actions(tree.moves, lo, c, plain)
        if k == CHANCE:
            chance += 1
            assert tree.probs is not None
            ps = _chance_numbers(tree.probs[lo:lo + c])
            body = " ".join(f"{a} {p}" for a, p in zip(acts or [f'"{r}"' for r in range(c)], ps))
            lines[i] = f"c {names[i]} {chance} \"\" {{ {body} }} 0"
        else:
            infoset[k] += 1
            body = " ".join(acts) if acts else plain[c]
            lines[i] = f"p {names[i]} {k + 1} {infoset[k]} \"\" {{ {body} }} 0"
    ordered = np.empty(n, dtype=object)
    ordered[_preorder(tree)] = lines
    return "\n".join(head + ordered.tolist()) + "\n"


def _efg_head(tree: GameTree, title: str) -> list[str]:
    """The .efg header: title and players, then kop's comment on the players' goals."""
    simple = all(p.name.split() == [p.name] and "=" not in p.name for p in tree.players)
    goals = " ".join(f"{p.name}={p.goal}" if simple else p.goal for p in tree.players)
    return [f"EFG 2 R {_q(title)} {{ {' '.join(_q(p.name) for p in tree.players)} }}",
            _q(f"kop-goals: {goals} (payoffs of min players are negated: Gambit players maximize)"), ""]


def _efg_names(tree: GameTree, unique_labels: bool) -> list[str]:
    """Each node's name, quoted: its label (made unique if asked), else ``""``."""
    names = ['""'] * len(tree)
    labelled = sorted(tree.labels)
    shown = [tree.labels[i] for i in labelled]
    for i, s in zip(labelled, _unique(shown) if unique_labels else shown):
        names[i] = _q(s)
    return names


def _efg_actions(moves: dict[int, str], lo: int, c: int, plain: dict[int, str]) -> list[str] | None:
    """The quoted names of the *c* moves from child *lo* on, or None where none is named (then ``plain[c]``,
    the numbers 0..c-1 quoted, is ready)."""
    if moves and any(j in moves for j in range(lo, lo + c)):
        return [_q(a) for a in _unique([moves.get(j) or str(j - lo) for j in range(lo, lo + c)])]
    if c not in plain:
        plain[c] = " ".join(f'"{r}"' for r in range(c))
    return None
