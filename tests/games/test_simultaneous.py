"""Simultaneous moves (Bodkin Ch. 3): Substructure-Eval and Dominating-Eval equal Naive-Solution.

Matrix-trees are drawn structurally (stages of any shape, chance nodes with probabilities
in eighths, integer payoffs, so ties, saddle points and dominated moves are common).  The
values agree within 1e-7 (the LP tolerance).
"""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from kop.games.errors import TreeError
from kop.games.simultaneous.core import random_sim_tree, sim_tree
from kop.games.simultaneous.dominating import dominating
from kop.games.simultaneous.matrix import MatrixError, saddle_point, solve_matrix
from kop.games.simultaneous.naive import naive
from kop.games.simultaneous.substructure import substructure

TOL = 1e-7


@st.composite
def sim_specs(draw):
    budget = [draw(st.integers(1, 40))]

    def node(depth):
        if depth == 0 or budget[0] <= 0 or draw(st.integers(0, 3)) == 0:
            return draw(st.integers(-4, 4))
        if draw(st.integers(0, 3)) == 0:
            k = draw(st.integers(1, 3))
            budget[0] -= k
            cuts = sorted(draw(st.lists(st.integers(0, 8), min_size=k - 1, max_size=k - 1)))
            return {"chance": [(b - a) / 8 for a, b in zip([0, *cuts], [*cuts, 8])],
                    "children": [node(depth - 1) for _ in range(k)]}
        r, c = draw(st.integers(1, 3)), draw(st.integers(1, 3))
        budget[0] -= r * c
        return {"matrix": [[node(depth - 1) for _ in range(c)] for _ in range(r)]}

    return node(draw(st.integers(0, 4)))


@settings(max_examples=examples(300), deadline=None)
@given(sim_specs())
def test_pruning_equals_naive(spec):
    t = sim_tree(spec)
    ref = naive(t)
    for got in (substructure(t), substructure(t, pure=True), dominating(t)):
        assert got.value == pytest.approx(ref.value, abs=TOL), got.algorithm


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.lists(st.integers(-5, 5), min_size=1, max_size=4), min_size=1, max_size=4).filter(
    lambda m: len({len(r) for r in m}) == 1))
def test_matrix_float_and_exact_agree(A):
    fl, ex = solve_matrix(A), solve_matrix(A, exact=True)
    assert float(ex.value) == pytest.approx(fl.value, abs=1e-7)
    assert sum(ex.row) == 1 and sum(ex.col) == 1
    # exact strategies are a true equilibrium
    assert all(sum(ex.row[i] * A[i][j] for i in range(len(A))) >= ex.value for j in range(len(A[0])))
    assert all(sum(A[i][j] * ex.col[j] for j in range(len(A[0]))) <= ex.value for i in range(len(A)))
    sp = saddle_point(A)
    if sp is not None:
        assert A[sp[0]][sp[1]] == ex.value and not fl.lp


def test_digest_example():
    A = [[4, 0], [0, 4], [1, 1]]
    ex = solve_matrix(A, exact=True)
    assert ex.value == 2 and ex.row == (Fraction(1, 2), Fraction(1, 2), 0) and ex.col == (Fraction(1, 2), Fraction(1, 2))
    fl = solve_matrix(A)
    assert fl.value == pytest.approx(2) and fl.row == pytest.approx((0.5, 0.5, 0)) and fl.col == pytest.approx((0.5, 0.5))
    for search in (naive, substructure, dominating):
        r = search(sim_tree({"matrix": A}))
        assert r.value == pytest.approx(2) and r.row == pytest.approx((0.5, 0.5, 0)) and r.col == pytest.approx((.5, .5))
    assert dominating(sim_tree({"matrix": A})).extra["eliminated"] == 1


def _random_trees_with_chance_and_ordering(depth: int, trees: int = 12):
    leaves = {"naive": 0, "substructure": 0}
    for seed in range(trees):
        t = random_sim_tree(depth, 3, 3, seed=seed, chance=2 if seed % 2 else 0)
        ref = naive(t)
        for search in (substructure, dominating):
            assert search(t).value == pytest.approx(ref.value, abs=TOL)
        leaves["naive"] += ref.leaves
        leaves["substructure"] += substructure(t).leaves
    assert leaves["substructure"] < leaves["naive"]


def test_random_trees_with_chance_and_ordering():
    _random_trees_with_chance_and_ordering(2, examples(12, quick=4))


@pytest.mark.slow       # 1-5 s of CPU a tree
def test_random_deep_trees_with_chance_and_ordering():
    _random_trees_with_chance_and_ordering(3)


@pytest.mark.parametrize("spec, message", [
    ({"matrix": [[1, 2], [3]]}, "root: ragged matrix: row 0 has 2 entries, row 1 has 1"),
    ({"matrix": [[1, {"matrix": [[1], [2, 3]]}]]}, "root/0,1: ragged matrix"),
    ({"chance": [0.5, 0.6], "children": [1, 2]}, "root: chance probabilities must be >= 0 and sum to 1"),
    ({"matrix": [[1, float("nan")]]}, r"root/0,1: payoff nan is not finite"),
])
def test_bad_input_is_located(spec, message):
    with pytest.raises(TreeError, match=message):
        sim_tree(spec)


def test_bad_matrices():
    with pytest.raises(MatrixError, match="ragged matrix: row 0 has 2 entries, row 1 has 1"):
        solve_matrix([[1, 2], [3]])
    with pytest.raises(MatrixError, match=r"entry \(0, 1\) is nan"):
        solve_matrix([[1, float("nan")]])


# -- the tree format ----------------------------------------------------------------

import json  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import kop  # noqa: E402
from kop.games.errors import StrategyError  # noqa: E402
from kop.games.trees.lists import TreeLists  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _doc(root, players=("A", "B")):
    return {"format": "kop-tree/1", "players": list(players), "root": root}


def test_simultaneous_node_round_trip_and_schema():
    import jsonschema

    doc = _doc({"player": "C", "children": [
        {"label": "S", "simultaneous": {"players": ["B", "A"], "children": [
            [{"payoff": [4, -4, 0]}, {"payoff": [0, 0, 1]}],
            [{"chance": [0.5, 0.5], "children": [{"payoff": [0, 0, 2]}, {"payoff": [2, -2, 0]}]},
             {"simultaneous": {"players": ["A", "B", "C"], "children": [[[{"payoff": [1, 1, 1]}], [{"payoff": [2, 2, 2]}]]]}}],
            [{"payoff": [1, -1, 3]}, {"payoff": [1, -1, 4]}]]}},
        {"payoff": [0, 0, 0]}]}, players=("A", "B", "C"))
    schema = json.loads((ROOT / "kop" / "schemas" / "tree.schema.json").read_text())
    jsonschema.validate(doc, schema)
    t = kop.GameTree.from_dict(doc)
    assert t.simultaneous[1] == ((1, 0), (3, 2)) and t.find("S").joint == (("B", "A"), (3, 2))
    assert kop.loads_tree(kop.dumps_tree(t)) == t
    jsonschema.validate(json.loads(kop.dumps_tree(t)), schema)


def test_gametree_views_agree_with_sim_tree():
    A = [[4, 0], [0, 4], [1, 1]]
    t = kop.GameTree.from_dict(_doc({"simultaneous": {"players": ["A", "B"], "children": [
        [{"payoff": [x, -x]} for x in row] for row in A]}}))
    for search in (naive, substructure, dominating):
        assert search(t, "A").value == pytest.approx(2)
        assert search(t, "B").value == pytest.approx(-2)      # B's view: the transposed game
    # decision and chance nodes inside a stage tree
    t2 = kop.GameTree.from_dict(_doc({"player": "B", "children": [
        {"simultaneous": {"players": ["B", "A"], "children": [[{"payoff": [1, 0]}, {"payoff": [3, 0]}]]}},
        {"chance": [0.25, 0.75], "children": [{"payoff": [4, 0]}, {"payoff": [0, 0]}]}]}))
    assert naive(t2, "A").value == pytest.approx(1.0)
    assert TreeLists.stages(t2, "A").shape[0] == (1, 2)


@pytest.mark.parametrize("root, message", [
    ({"simultaneous": {"players": ["A", "B"], "children": [[{"payoff": [1, 1]}], [{"payoff": [1, 1]}, {"payoff": [0, 0]}]]}},
     "root: ragged simultaneous matrix: B has 1 moves in the first list of level 1 but 2 in list 1"),
    ({"simultaneous": {"players": ["A", "B"], "children": [{"payoff": [1, 1]}]}},
     "root: simultaneous: joint moves do not match the players: expected 2 nested lists"),
    ({"simultaneous": {"players": ["A", "Z"], "children": [[{"payoff": [1, 1]}]]}}, "root: simultaneous: unknown player 'Z'"),
    ({"simultaneous": {"players": ["A", "A"], "children": [[{"payoff": [1, 1]}]]}}, "listed twice"),
    ({"simultaneous": {"players": ["A"], "children": [{"payoff": [1, float("nan")]}]}}, r"root/0: payoff of B must be a finite"),
    ({"player": "A", "children": [{"simultaneous": {"players": ["A", "B"], "children": [[]]}}]}, "root/0: simultaneous: B has no moves"),
])
def test_malformed_simultaneous_nodes_are_located(root, message):
    with pytest.raises(TreeError, match=message):
        kop.GameTree.from_dict(_doc(root))


def test_sequential_strategies_refuse_stages():
    t = kop.load_tree(ROOT / "theories" / "matching_stage.json")
    for name in ("minimax", "alphabeta", "Mh"):
        with pytest.raises(StrategyError, match="root: .* simultaneous-move node"):
            kop.strategy(t, name, "Row").value
    with pytest.raises(StrategyError, match="simultaneous-move node"):
        kop.dumps_efg(t)


def _kop(*args):
    return subprocess.run([sys.executable, "-m", "kop", *args], capture_output=True, text=True, cwd=ROOT)


def test_cli_solve_searches():
    r = _kop("solve", "theories/matching_stage.json", "-s", "substructure", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["value"] == pytest.approx(2) and out["row"] == pytest.approx([0.5, 0.5, 0]) and "lps" in out
    r = _kop("solve", "theories/bodkin_nplayer.json", "-s", "bnb", "--bounds", "0,1", "--sum-bounds", "1,1", "--json")
    out = json.loads(r.stdout)
    assert out["value"] == [0.7, 0.2, 0.1] and out["leaves"] == 3 and out["path"] == ["A"]
    r = _kop("solve", "theories/bodkin_nplayer.json", "-s", "bnb", "--sum-bounds", "0,0.5")
    assert r.returncode == 2 and "root/0/0: payoff (0.7, 0.2, 0.1) breaks the declared bound" in r.stderr
    r = _kop("solve", "theories/matching_stage.json", "-s", "Mh")
    assert r.returncode == 2 and "simultaneous-move node" in r.stderr
    for s in ("maxn", "paranoid", "expectimax", "star1", "star2", "cscout", "lower_eval", "bimodal", "naive", "dominating"):
        tree = "theories/matching_stage.json" if s in ("naive", "dominating") else "theories/bodkin_nplayer.json"
        r = _kop("solve", tree, "-s", s, "--json")
        assert r.returncode == 0, (s, r.stderr)
