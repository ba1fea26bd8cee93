"""The .efg reader reads every style Gambit allows as the tree written, and a file as its text.

(Until issue 24 these tests checked a second, array-based reader against this one; it was removed,
and these keep what they checked of the reader that stays.)

Trees are drawn node by node (tests/tree_strategies.py) and written by ``kop.dumps_efg`` and by
an independent writer in this file that varies the style per node (commas, spacing, line ends,
decimals, rationals, exponents, escaped names, outcomes reused, unlabelled moves written as
their position or as ""), so a failure shrinks to a small tree.
"""

from __future__ import annotations

import os
import tempfile

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples

import kop
from kop.errors import KopError
from tree_strategies import game_trees

SETTINGS = settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
_NAME = st.text(st.sampled_from('ab "\\{}0 1é\n t"p c'), max_size=6)


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
def test_reads_what_dumps_efg_writes(tree):
    text = kop.dumps_efg(tree)
    back = kop.loads_efg(text)
    if _distinct_sibling_moves(tree):
        assert back == tree and back.integral == tree.integral
    else:   # repeated sibling move names are written renamed, "x (2)" (issue 29: OpenSpiel merges them)
        assert _distinct_sibling_moves(back) and kop.dumps_efg(back) == text


def _number(draw: st.DrawFn, x: int) -> str:
    """*x* written in one of the styles Gambit allows."""
    style = draw(st.sampled_from(["int", "int", "dec", "plus", "ratio", "exp", "pad"]))
    if style == "dec":
        return f"{x}.0" if x or draw(st.booleans()) else ".0"
    if style == "plus":
        return f"+{x}" if x >= 0 else str(x)
    if style == "ratio":
        return f"{2 * x}/2"
    if style == "exp":
        return f"{x}e0"
    if style == "pad":
        return f"{x:05d}" if x >= 0 else str(x)
    return str(x)


def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


@st.composite
def styled_efg(draw: st.DrawFn) -> tuple[str, kop.GameTree]:
    """(text, the tree it holds): a drawn tree written by hand in varied styles."""
    tree = draw(game_trees((1, 2, 3), chance=True, goals="max", max_depth=4))
    n = len(tree)
    labels = {i: s for i in range(n) if draw(st.integers(0, 3)) == 0 and (s := draw(_NAME))}
    moves = _moves(draw, tree)
    tree = kop.GameTree(tree.players, tree.offsets, tree.kind, tree.payoffs, tree.probs, labels, moves,
                        tree.integral)
    gap = st.sampled_from([" ", " ", "  ", "\t", "\n", "\r\n", " \n "])
    tight = st.sampled_from(["", " ", "\n"])

    def sp() -> str:
        return draw(gap)

    def name(s: str) -> str:
        return _q(s)

    out = [f"EFG 2 R \"styled\" {{ {' '.join(_q(p.name) for p in tree.players)} }}"]
    if draw(st.booleans()):
        out.append(sp() + '"a comment"')
    outcomes: dict[tuple[int, ...], int] = {}
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
            pays = _number(draw, row[0]) + "".join(s + _number(draw, x)
                                                               for s, x in zip(seps, row[1:]))
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
    return "".join(part + sp() for part in out), tree


@SETTINGS
@given(styled_efg())
def test_every_style_reads_as_the_tree_written(case):
    text, tree = case
    back = kop.loads_efg(text)
    assert back == tree and back.players == tree.players


_EDITS = st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 3),
                            st.sampled_from(list('"\\{},.-+/e 0179ptc\n') + ["", "1e999", "-0", "x"])),
                  min_size=1, max_size=4)


@SETTINGS
@given(named_trees(), _EDITS)
def test_damaged_files_load_as_their_text(tree, edits):
    """kop.load_tree of an .efg file gives what kop.loads_efg of its text gives: the same tree or the
    same message."""
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
    assert got == _outcome(text)[:2]


def _outcome(text: str) -> tuple:
    """What reading *text* gives: the tree's arrays and names, or the error message."""
    try:
        t = kop.loads_efg(text)
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


def test_numbers_at_the_edges_of_exactness():
    """Long decimals and fractions read exactly: wholeness and probabilities as the exact numbers say."""
    head = 'EFG 2 R "g" { "A" "B" } '
    integral = {
        't "" 1 "" { 1 1234567890123456 }': True,
        't "" 1 "" { 1 0.30000000000000004 }': False,
        't "" 1 "" { 1 1.0000000000000001 }': False,      # not whole, though its float is
        't "" 1 "" { 1 -3.000000000000000000 }': True,
        't "" 1 "" { 1 12345678901234567/3 }': False,
        't "" 1 "" { 1 2e3 }': True,
        't "" 1 "" { 1 -7/3 }': False,
    }
    for body, whole in integral.items():
        assert kop.loads_efg(head + body).integral is whole, body
    for body in ('t "" 1 "" { 1 7/0 }', 't "" 1 "" { 1 7/ }', 't "" 1 "" { 1 /3 }', 't "" 1 "" { 1 1.5/3 }'):
        with pytest.raises(KopError, match=r"line 1, column \d+"):
            kop.loads_efg(head + body)
    t = kop.loads_efg(head + 'c "" 1 "" { "a" 1/3 "b" 2/3 } 0 t "" 1 "" { 1 2 } t "" 1')
    assert t.probs[1:].tolist() == [1 / 3, 2 / 3]


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
def test_information_sets_in_any_order(tree, sets):
    """Personal nodes given set numbers that rise, fall or repeat: the tree, or (a set holding two
    nodes) the located refusal of imperfect information."""
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
    if twice:
        with pytest.raises(KopError, match="contains more than one node"):
            kop.loads_efg(text)
    else:   # the same shape and payoffs (the movers are the renumbered players)
        back = kop.loads_efg(text)
        assert back.offsets.tolist() == tree.offsets.tolist() and back.payoffs.tolist() == tree.payoffs.tolist()
