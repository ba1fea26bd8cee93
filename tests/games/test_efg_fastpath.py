"""The .efg reader's two paths agree: the whole-file fast path (kop/io/efgscan.py) and the
token-level reader give the same tree on every file the fast path takes, and the same tree or the
same located error on everything else.

Trees are drawn node by node (tests/tree_strategies.py) and written by ``kop.dumps_efg`` and by
an independent writer in this file that varies the style per node (commas, spacing, line ends,
decimals, rationals, exponents, escaped names, outcomes reused, unlabelled moves written as
their position or as ""), so a failure shrinks to a small tree.
"""

from __future__ import annotations

import io
import os
import tempfile

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples

import kop
from kop.io.efg import _header, _loads
from kop.io.efgscan import scan_file, scan_nodes
from kop.errors import KopError
from tree_strategies import game_trees

SETTINGS = settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
_NAME = st.text(st.sampled_from('ab "\\{}0 1é\n t"p c'), max_size=6)


def _fast(text: str) -> kop.GameTree | None:
    players, pos = _header(text)
    return scan_nodes(text, pos, players)


def _same(a: kop.GameTree, b: kop.GameTree) -> bool:
    return a == b and a.integral == b.integral and a.players == b.players


def _moves(draw: st.DrawFn, t: kop.GameTree) -> dict[int, str]:
    """Some moves named (never "" or the move's position: those read back as unlabelled)."""
    out = {}
    for lo, hi in zip(t.offsets[:-1].tolist(), t.offsets[1:].tolist()):
        for j in range(lo, hi):
            if draw(st.integers(0, 3)) == 0 and (s := draw(_NAME)) and s != str(j - lo):
                out[j] = s
    return out


def _distinct_sibling_moves(t: kop.GameTree) -> bool:
    """Whether the moves out of every node have distinct names as a file shows them (unnamed: position)."""
    for lo, hi in zip(t.offsets[:-1].tolist(), t.offsets[1:].tolist()):
        shown = [t.moves.get(j) or str(j - lo) for j in range(lo, hi)]
        if len(set(shown)) < len(shown):
            return False
    return True


@st.composite
def named_trees(draw: st.DrawFn) -> kop.GameTree:
    """A drawn tree with some nodes labelled and some moves named (names with quotes, backslashes)."""
    t = draw(game_trees((1, 2, 3), chance=True, max_depth=4))
    n = len(t)
    labels = {i: s for i in range(n) if draw(st.booleans()) and (s := draw(_NAME))}
    moves = _moves(draw, t)
    return kop.GameTree(t.players, t.offsets, t.kind, t.payoffs, t.probs, labels, moves, t.integral)


@SETTINGS
@given(named_trees())
def test_fast_path_reads_what_dumps_efg_writes(tree):
    text = kop.dumps_efg(tree)
    fast, careful = _loads(text, fast=True), _loads(text, fast=False)
    assert _same(fast, careful)
    if _distinct_sibling_moves(tree):
        assert fast == tree
    else:   # repeated sibling move names are written renamed, "x (2)" (issue 29: OpenSpiel merges them)
        assert _distinct_sibling_moves(fast) and kop.dumps_efg(fast) == text
    if "\\" not in text:  # the fast path covers every kop-written file without escapes
        got = _fast(text)
        assert got is not None and _same(got, careful)


def _number(draw: st.DrawFn, x: int, fast: list[bool], ratio: list[bool]) -> str:
    """*x* written in one of the styles Gambit allows (*ratio* notes a fraction)."""
    style = draw(st.sampled_from(["int", "int", "dec", "plus", "ratio", "exp", "pad"]))
    if style == "dec":
        return f"{x}.0" if x or draw(st.booleans()) else ".0"
    if style == "plus":
        return f"+{x}" if x >= 0 else str(x)
    if style == "ratio":
        ratio[0] = True
        return f"{2 * x}/2"
    if style == "exp":
        fast[0] = False
        return f"{x}e0"
    if style == "pad":
        return f"{x:05d}" if x >= 0 else str(x)
    return str(x)


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


@st.composite
def styled_efg(draw: st.DrawFn) -> tuple[str, kop.GameTree, bool]:
    """(text, the tree it holds, whether the fast path should take it): a drawn tree written by hand
    in varied styles."""
    tree = draw(game_trees((1, 2, 3), chance=True, goals="max", max_depth=4))
    n = len(tree)
    labels = {i: s for i in range(n) if draw(st.integers(0, 3)) == 0 and (s := draw(_NAME))}
    moves = _moves(draw, tree)
    tree = kop.GameTree(tree.players, tree.offsets, tree.kind, tree.payoffs, tree.probs, labels, moves,
                        tree.integral)
    fast = [True]
    gap = st.sampled_from([" ", " ", "  ", "\t", "\n", "\r\n", " \n "])
    tight = st.sampled_from(["", " ", "\n"])

    def sp() -> str:
        return draw(gap)

    def name(s: str) -> str:
        if "\\" in s or '"' in s:
            fast[0] = False
        return _q(s)

    out = [f"EFG 2 R \"styled\" {{ {' '.join(_q(p.name) for p in tree.players)} }}"]
    if draw(st.booleans()):
        out.append(sp() + '"a comment"')
    outcomes: dict[tuple[int, ...], int] = {}
    defined: dict[int, int] = {}  # outcome -> times its payoffs are written
    fractions: dict[int, bool] = {}  # outcome -> a fraction among its payoffs
    sets = [0] * len(tree.players)
    chance_sets = 0
    offsets = tree.offsets.tolist()
    kinds = tree.kind.tolist()
    leaf_of = np.cumsum(tree.kind == kop.games.trees.tree.LEAF) - 1
    stack = [0]
    while stack:
        i = stack.pop()
        k = kinds[i]
        label = name(tree.labels.get(i, ""))
        if k == kop.games.trees.tree.LEAF:
            row = tuple(int(x) for x in tree.payoffs[int(leaf_of[i])])
            if row == (0,) * len(row) and draw(st.integers(0, 3)) == 0:
                out.append(f"t{draw(tight)}{label}{sp()}0")
                continue
            if row in outcomes and draw(st.booleans()):
                out.append(f"t{draw(tight)}{label}{sp()}{outcomes[row]}")
                continue
            num = outcomes.setdefault(row, len(outcomes) + 1)
            seps = [draw(st.sampled_from([" ", ", ", ",", " , "])) for _ in row[1:]]
            ratio = [False]
            pays = _number(draw, row[0], fast, ratio) + "".join(s + _number(draw, x, fast, ratio)
                                                               for s, x in zip(seps, row[1:]))
            defined[num] = defined.get(num, 0) + 1
            fractions[num] = fractions.get(num, False) or ratio[0]
            out.append(f"t{draw(tight)}{label}{sp()}{num}{sp()}{name('o')}{draw(tight)}{{{draw(tight)}{pays}"
                       f"{draw(tight)}}}")
            continue
        lo, hi = offsets[i], offsets[i + 1]
        acts = [name(tree.moves[j]) if j in tree.moves else draw(st.sampled_from([f'"{j - lo}"', '""']))
                for j in range(lo, hi)]
        if k == kop.games.trees.tree.CHANCE:
            chance_sets += 1
            probs = []
            for j in range(lo, hi):
                p = float(tree.probs[j])
                if draw(st.booleans()):
                    probs.append(f"{round(p * 1024)}/1024")
                else:
                    probs.append(repr(p))
            body = sp().join(f"{a}{sp()}{p}" for a, p in zip(acts, probs))
            out.append(f"c{draw(tight)}{label}{sp()}{chance_sets}{sp()}\"\"{draw(tight)}{{{draw(tight)}{body}"
                       f"{draw(tight)}}}{sp()}0")
        else:
            sets[k] += 1
            out.append(f"p{draw(tight)}{label}{sp()}{k + 1}{sp()}{sets[k]}{sp()}{name('x')}{draw(tight)}"
                       f"{{{draw(tight)}{sp().join(acts)}{draw(tight)}}}{sp()}0")
        stack.extend(range(hi - 1, lo - 1, -1))
    if any(defined[k] > 1 and fractions[k] for k in defined):
        fast[0] = False  # payoffs given twice with fractions: compared exactly by the token reader
    return "".join(part + sp() for part in out), tree, fast[0]


@SETTINGS
@given(styled_efg())
def test_fast_path_reads_every_style_as_the_token_reader(case):
    text, tree, fast = case
    careful = _loads(text, fast=False)
    assert _same(_loads(text, fast=True), careful) and careful == tree
    got = _fast(text)
    assert (got is not None) == fast
    if got is not None:
        assert _same(got, careful)


def _fast_in_pieces(text: str, chunk: int) -> kop.GameTree | None:
    players, pos = _header(text)
    return scan_nodes(text, pos, players, chunk)


def _agree(a: kop.GameTree | None, b: kop.GameTree | None) -> bool:
    return (a is None and b is None) or (a is not None and b is not None and _same(a, b))


@SETTINGS
@given(styled_efg(), st.integers(1, 80))
def test_pieces_of_any_size_read_as_the_whole_file(case, chunk):
    """The fast path reads the file in pieces (cut before a node letter): any piece size gives
    what one piece gives, on every style of file."""
    text = case[0]
    assert _agree(_fast_in_pieces(text, chunk), _fast_in_pieces(text, len(text)))


@SETTINGS
@given(styled_efg(), st.integers(1, 80))
def test_a_file_read_in_pieces_reads_as_its_text(case, chunk):
    """A binary file read a piece at a time gives what its text gives (or defers to the text:
    carriage returns, which the text reader turns into line feeds)."""
    text = case[0]
    players, pos = _header(text)
    got = scan_file(io.BytesIO(text[pos:].encode("utf-8")), players, chunk)
    if "\r" in text[pos:]:
        assert got is None
    else:
        assert _agree(got, _fast_in_pieces(text, len(text)))


_EDITS = st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 3),
                            st.sampled_from(list('"\\{},.-+/e 0179ptc\n') + ["", "1e999", "-0", "x"])),
                  min_size=1, max_size=4)


@SETTINGS
@given(named_trees(), _EDITS)
def test_damaged_files_give_the_same_tree_or_the_same_error(tree, edits):
    text = kop.dumps_efg(tree)
    for at, cut, put in edits:
        at %= len(text) + 1
        text = text[:at] + put + text[at + cut:]
    assert _outcome(text, True) == _outcome(text, False)


@SETTINGS
@given(named_trees(), _EDITS, st.integers(1, 80))
def test_damaged_files_in_pieces_read_as_the_whole_file(tree, edits, chunk):
    text = kop.dumps_efg(tree)
    for at, cut, put in edits:
        at %= len(text) + 1
        text = text[:at] + put + text[at + cut:]
    try:
        _header(text)
    except KopError:
        return
    assert _agree(_fast_in_pieces(text, chunk), _fast_in_pieces(text, len(text)))


@SETTINGS
@given(named_trees(), _EDITS)
def test_damaged_files_load_as_their_text(tree, edits):
    """kop.load_tree of an .efg file (read a piece at a time where it can) gives what
    kop.loads_efg of its text gives: the same tree or the same message."""
    text = kop.dumps_efg(tree)
    for at, cut, put in edits:
        at %= len(text) + 1
        text = text[:at] + put + text[at + cut:]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "t.efg")
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        try:
            got: tuple = ("tree", kop.load_tree(path)._key())
        except KopError as e:
            got = ("error", str(e).removeprefix(f"{path}: "))
    assert got == _outcome(text, True)[:2]


def _outcome(text: str, fast: bool) -> tuple:
    """What reading *text* gives: the tree's arrays and names, or the error message."""
    try:
        t = _loads(text, fast=fast)
    except KopError as e:
        return ("error", str(e))
    return ("tree", t._key(), t.integral)


@pytest.mark.parametrize("body", [
    't "" 1 "" { 1 0.2/3 }',      # a decimal over an integer is not a number Gambit writes
    't "" 1 "" { 1 3e5/4 }',
])
def test_decimal_fractions_are_a_located_error(body):
    with pytest.raises(KopError, match=r"line 1, column \d+: expected a payoff \(like 3"):
        kop.loads_efg('EFG 2 R "g" { "A" "B" } ' + body)


def test_long_numbers_keep_exact_wholeness():
    t = kop.loads_efg('EFG 2 R "g" { "A" "B" } t "" 1 "" { 1 1.0000000000000001 }')
    assert t.payoffs.tolist() == [[1.0, 1.0]] and not t.integral


def test_fast_path_bounds():
    """What the fast path leaves to the token-level reader (which reads these the same way)."""
    head = 'EFG 2 R "g" { "A" "B" } '
    cases = {
        't "" 1 "" { 1 1234567890123456 }': True,         # 16 characters: read by float()
        't "" 1 "" { 1 0.30000000000000004 }': True,
        't "" 1 "" { 1 1.0000000000000001 }': True,       # not whole, though its float is
        't "" 1 "" { 1 -3.000000000000000000 }': True,    # whole
        't "" 1 "" { 1 12345678901234567/3 }': None,
        'p "" 1 1 "" { "a" "b" } 0 t "" 1 "" { 1 0.10000000000000001 } t "" 1 "" { 1 0.1 }': None,
        'c "" 1 "" { "a" 0.50000000000000001 "b" .5 } 0 t "" 1 "" { 1 2 } t "" 1': None,
        't "" 1 "" { 1 123456789012345 }': True,
        't "" 1 "" { 1 2e3 }': None,
        't "" 1 "" { 1 -7/3 }': True,
        't "" 1 "" { 1 7/0 }': None,                      # divides by zero: the token reader words it
        't "" 1 "" { 1 7/ }': None,
        't "" 1 "" { 1 /3 }': None,
        't "" 1 "" { 1 1.5/3 }': None,
        'c "" 1 "" { "a" 1/3 "b" 2/3 } 0 t "" 1 "" { 1 2 } t "" 1': True,
        'p "" 1 1 "" { "a" "b" } 0 t "" 1 "" { 1 1/3 } t "" 1 "" { 1 1/3 }': None,  # two fractions compared
        'p "" 1 1 "" { "a" "b" } 1 "" { 1 1 } t "" 2 "" { 1 2 } t "" 3 "" { 1 2 }': None,  # an inner outcome
        'c "" 1 "" { "a" .5 "b" .5 } 0 c "" 1 0 t "" 1 "" { 1 2 } t "" 1 t "" 1': None,  # a chance set used twice
        'c "" 1 "" { "a" .5 "b" +.5 } 0 t "" 1 "" { 1 2 } t "" 1': None,   # a signed probability
        'c "" 1 "" { "a" .5 "b" .5 } 0 t "" 1 "" { 1 2 } t "" 1': True,
        't "\\u" 1 "" { 1 2 }': None,                     # a backslash
    }
    for body, fast in cases.items():
        text = head + body
        got = _fast(text)
        assert (got is not None) == bool(fast), body
        assert _outcome(text, True) == _outcome(text, False), body
        if got is not None:
            assert _same(got, _loads(text, fast=False))


@pytest.mark.parametrize("body, what", [
    ('t "" ' + "1" * 5000 + ' "" { 0 }', "the outcome number"),
    ('p "" ' + "1" * 5000 + ' 1 "" { "a" } 0 t "" 1 "" { 1 }', "the player number"),
    ('p "" 1 ' + "7" * 19 + ' "" { "a" } 0 t "" 1 "" { 1 }', "the information set number"),
])
def test_overlong_whole_numbers_are_a_located_error(body, what):
    """Not a ValueError from Python's limit on converting long digit strings (found by the fuzz suite)."""
    with pytest.raises(KopError, match=rf"line 1, column \d+: expected {what} .*\(a whole number\)"):
        kop.loads_efg('EFG 2 R "g" { "A" } ' + body)


@SETTINGS
@given(game_trees((1, 2, 3), chance=True, max_depth=4),
       st.lists(st.tuples(st.integers(1, 5), st.integers(1, 3)), min_size=1, max_size=40))
def test_information_sets_in_any_order_read_as_the_token_reader(tree, sets):
    """Personal nodes given set numbers that rise, fall or repeat (a set holding two nodes): the
    fast path (which skips its sort when each player's sets rise) agrees with the token-level
    reader, and takes the file exactly when no set holds two nodes."""
    lines = kop.dumps_efg(tree).split("\n")  # no names: a personal node is 'p "" player set ...'
    seen: set[tuple[str, str]] = set()
    twice = False
    k = 0
    for i, line in enumerate(lines):
        if line.startswith("p "):
            parts = line.split(" ")
            s, p = sets[k % len(sets)]
            k += 1
            parts[3] = str(s)
            if p <= len(tree.players):
                parts[2] = str(p)
            twice |= (parts[2], parts[3]) in seen
            seen.add((parts[2], parts[3]))
            lines[i] = " ".join(parts)
    text = "\n".join(lines)
    assert _outcome(text, True) == _outcome(text, False)
    if "\\" not in text:
        assert (_fast(text) is None) == twice
