"""The kop-tree/1 JSON format, its schema, Gambit .efg, the random generator, and located errors."""

import json
import math
from pathlib import Path

import jsonschema
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

import kop
from kop.io.jsontext import JsonError, loads_deep
from kop.games.errors import EfgError, LimitError, TreeError

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "kop" / "schemas" / "tree.schema.json").read_text())
PLAYERS = [{"name": "A", "goal": "max"}, {"name": "B", "goal": "min"}]


def doc(root, players=PLAYERS):
    return {"format": "kop-tree/1", "players": players, "root": root}


def node(player, *children, **kw):
    return {"player": player, "children": list(children), **kw}


def leaf(a, b, **kw):
    return {"payoff": [a, b], **kw}


@pytest.mark.parametrize("name", ["figure2.json", "sharing.json", "nim22.json", "missed_optimum.json"])
def test_example_files_match_schema_and_round_trip(name):
    text = (ROOT / "theories" / name).read_text()
    jsonschema.validate(json.loads(text), SCHEMA)
    t = kop.loads_tree(text)
    assert kop.loads_tree(kop.dumps_tree(t)) == t
    assert kop.loads_efg(kop.dumps_efg(t)) == t


def test_chance_node_and_labels():
    t = kop.GameTree.from_dict(doc(node("A", {"chance": [0.25, 0.75], "label": "coin",
                                               "children": [leaf(4, 0, move="heads"), leaf(0, 8, move="tails")]},
                                          leaf(1, 1, move="quit"))))
    coin = t.find("coin")
    assert coin.is_chance and coin.probabilities == (0.25, 0.75)
    assert [c.move for c in coin.children] == ["heads", "tails"]
    assert kop.mh(t).value == (1, 6) and kop.mh(t).next() == coin   # 0.25*(4,0) + 0.75*(0,8)
    assert kop.mh(t).value_at("coin") == (1, 6)
    out = kop.play(t, {"A": "Mh", "B": "Mh"})
    assert out.value == (1, 6) and out.steps == ["coin"] and out.leaf is None
    jsonschema.validate(json.loads(kop.dumps_tree(t)), SCHEMA)
    assert kop.loads_tree(kop.dumps_tree(t)) == t
    assert kop.loads_efg(kop.dumps_efg(t)) == t


def test_node_api():
    t = kop.GameTree.build(["A", "B"], ("A", [("B", [(4, 7), (8, 9)], "R"), (9, 4)]))
    r = t.node("R")
    assert r.player == "B" and r.height == 1 and r.depth == 1 and r.path == (0,)
    assert t.node("root/0/1").payoff == (8, 9) and t.node((0, 1)) == t.node("root/0/1")
    assert r.children[1].parent == r and t.root.parent is None
    assert repr(t) == "GameTree(players=(A:max, B:min), nodes=5, leaves=3, height=2)"
    assert repr(r) == "Node(root/0 'R', player='B')"
    assert [p.goal for p in t.players] == ["max", "min"]
    assert kop.GameTree.build(["A", "B"], ("A", [(1, 2)]), goals="max").players[1].goal == "max"
    assert hash(t) == hash(kop.loads_tree(kop.dumps_tree(t)))
    with pytest.raises(TreeError, match="no node at root/5"):
        t.node("root/5")


# -- located errors ---------------------------------------------------------------

@pytest.mark.parametrize("root, message", [
    (node("A", leaf(1, 2), {"label": "x"}), r"root/1: missing payoff"),
    (node("A", leaf(1, 2), node("B", {"payoff": [1, 2, 3]})), r"root/1/0: payoff has 3 numbers, expected 2 \(players A, B\)"),
    (node("A", node("C", leaf(1, 2))), r"root/0: unknown player 'C' \(players A, B\)"),
    (node("A", node("B")), r"root/0: inner node has no children"),
    (node("A", {"player": "B"}), r"root/0: inner node has no \"children\""),
    (node("A", {"chance": [0.5, 0.4], "children": [leaf(1, 2), leaf(3, 4)]}), r"root/0: chance probabilities sum to 0.9, not 1"),
    (node("A", {"chance": [0.5], "children": [leaf(1, 2), leaf(3, 4)]}), r"root/0: chance has 1 probabilities for 2 children"),
    (node("A", {"chance": [1.5, -0.5], "children": [leaf(1, 2), leaf(3, 4)]}), r"root/0: probability 1 is negative"),
    (node("A", leaf(1, float("nan"))), r"root/0: payoff of B must be a finite number, found nan"),
    (node("A", leaf(1, "7")), r"root/0: payoff of B must be a number, found a string '7'"),
    (node("A", leaf(True, 1)), r"root/0: payoff of A must be a number, found a boolean"),
    (node("A", {"payoff": [1, 2], "children": []}), r"root/0: a leaf .* cannot have \"children\""),
    (node("A", {"payoff": [1, 2], "colour": "red"}), r"root/0: unknown key 'colour'"),
    (node("A", leaf(1, 2, label=3)), r"root/0: \"label\" must be a string"),
    ([1, 2], r"root: a node must be an object, found a list"),
])
def test_bad_trees_name_the_node(root, message):
    with pytest.raises(TreeError, match=message):
        kop.GameTree.from_dict(doc(root))


@pytest.mark.parametrize("document, message", [
    ({"players": PLAYERS, "root": leaf(1, 2)}, r"\"format\" must be \"kop-tree/1\""),
    ({"format": "kop-tree/1", "root": leaf(1, 2)}, r"missing \"players\""),
    (doc(leaf(1, 2), players=[{"name": "A", "goal": "up"}, "B"]), r"players\[0\]: player A: goal must be 'max' or 'min'"),
    (doc(leaf(1, 2), players=["A", "A"]), r"player 'A' is listed twice"),
    ([], r"a kop tree document is a JSON object, not a list"),
])
def test_bad_documents(document, message):
    with pytest.raises(TreeError, match=message):
        kop.GameTree.from_dict(document)


def test_bad_json_text_is_located():
    with pytest.raises(TreeError, match=r"line 2, column \d+: invalid JSON"):
        kop.loads_tree('{"format": "kop-tree/1",\n "players": [}')


def test_load_tree_names_the_file(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(doc(node("A", {"payoff": [1, 2, 3]}))))
    with pytest.raises(TreeError, match=r"bad.json: root/0: payoff has 3 numbers"):
        kop.load_tree(p)
    with pytest.raises(TreeError, match="no such file"):
        kop.load_tree(tmp_path / "missing.json")


def _deep_chain_text(depth: int) -> str:
    return ('{"format": "kop-tree/1", "players": ["A", "B"], "root": '
            + '{"player": "A", "children": [' * depth + '{"payoff": [1, 2]}' + "]}" * depth + "}")


def _solve_deep_chain(t, depth: int) -> None:
    s = kop.mh(t)
    assert s.value == (1, 2) and len(s.path) == depth + 1
    assert kop.alphabeta(t, "A").value == (1, 2)


def test_json_100000_levels_deep_does_not_crash():
    depth = 100_000
    junk = "[" * depth + "]" * depth
    with pytest.raises(TreeError, match="a kop tree document is a JSON object, not a list"):
        kop.loads_tree(junk)
    t = kop.loads_tree(_deep_chain_text(depth))
    assert t.height == depth and len(t) == depth + 1
    small = 5000                               # far past Python's recursion limit; the engine sweeps level by level
    _solve_deep_chain(kop.loads_tree(_deep_chain_text(small)), small)
    chain = kop.random_tree(depth=3000, branching=1, seed=1)
    assert kop.loads_tree(kop.dumps_tree(chain)) == chain
    assert kop.loads_efg(kop.dumps_efg(chain)) == chain


@pytest.mark.slow      # the engine's sweep costs ~70 us per level: a 100,000-level chain takes ~10 s
def test_strategies_on_a_100000_levels_deep_tree():
    depth = 100_000
    _solve_deep_chain(kop.loads_tree(_deep_chain_text(depth)), depth)


def test_deep_json_limit_and_errors_are_located():
    with pytest.raises(LimitError, match=r"line 1, column 6: JSON nested deeper than 5 levels"):
        loads_deep("[" * 10 + "]" * 10, max_depth=5)
    with pytest.raises(JsonError, match=r"line 2, column 3: invalid JSON"):
        loads_deep('[1,\n  }')
    with pytest.raises(JsonError, match="extra data"):
        loads_deep("[1] 2")


@settings(max_examples=examples(200), deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
                    | st.text(max_size=5),
                    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=3), kids, max_size=3),
                    max_leaves=20))
def test_deep_reader_agrees_with_json(value):
    text = json.dumps(value)
    assert loads_deep(text) == json.loads(text)


# -- Gambit .efg ------------------------------------------------------------------

EFG = '''EFG 2 R "a game" { "Alice" "Bob" }
"a comment"

p "top" 1 1 "" { "L" "R" } 0
c "coin" 1 "" { "H" 1/2 "T" 1/2 } 1 "bonus" { 1 0 }
t "" 2 "" { 3 1 }
t "" 3 "" { 0 2 }
p "" 2 1 "" { "l" "r" } 0
t "" 4 "" { 2.5 0 }
t "" 5 "" { -1 4 }
'''


def test_efg_import():
    t = kop.loads_efg(EFG)
    assert t.player_names == ("Alice", "Bob") and all(p.goal == "max" for p in t.players)
    coin = t.find("coin")
    assert coin.probabilities == (0.5, 0.5) and coin.move == "L"
    assert [c.payoff for c in coin.children] == [(4, 1), (1, 2)]   # the coin's outcome adds (1, 0)
    assert kop.mh(t).value == (2.5, 1.5)
    assert kop.mh(t).value_at(t.root.children[1]) == (-1, 4)
    assert kop.loads_efg(kop.dumps_efg(t)) == t


@pytest.mark.parametrize("text, message", [
    ("EFG 2 R \"g\" { \"A\" }\np \"\" 1 1 \"\" { \"x\" \"y\" } 0\nt \"\" 1 \"\" { 1 }\n", "ends before the tree is complete"),
    ("EFG 2 R \"g\" { \"A\" }\np \"\" 1 1 \"\" { \"x\" } 0\nt \"\" 1 \"\" { 1 2 }\n", r"line 3, column \d+: outcome 1 has 2 payoffs, expected 1"),
    ("EFG 2 R \"g\" { \"A\" }\nq \"\" 1\n", r"line 2, column 1: expected a node type p, c or t, found 'q'"),
    ("EFG 2 R \"g\" { \"A\" }\np \"\" 3 1 \"\" { \"x\" } 0\nt \"\" 1 \"\" { 1 }\n", "player 3 does not exist"),
    ("EFG 2 R \"g\" { \"A\" }\nc \"\" 1 \"\" { \"x\" 1/2 \"y\" 1/3 } 0\nt \"\" 1 \"\" { 1 }\nt \"\" 2 \"\" { 1 }\n", "sum to 0.833333, not 1"),
    ("NFG 1 R \"g\"", "starts with 'EFG 2 R'"),
    ("EFG 2 R \"g\" { \"A\" }\np \"\" 1 1 \"\" { \"x\" } 0\nt \"\" 1 \"\" { 1 }\nt \"\" 1 \"\" { 1 }\n", "extra text after the tree"),
    ("EFG 2 R \"g\" { \"A\" }\np \"\" 1 1 \"\" { \"x\" } 0\nt \"\" 1 \"\" { 1 @ }\n", r"line 3, column 15: expected a payoff, ',' or '}', found the character '@'"),
])
def test_bad_efg_is_located(text, message):
    with pytest.raises(EfgError, match=message):
        kop.loads_efg(text)


def test_efg_imperfect_information_is_rejected():
    text = '''EFG 2 R "matching pennies" { "P1" "P2" }
""
p "" 1 1 "" { "H" "T" } 0
p "" 2 1 "" { "h" "t" } 0
t "" 1 "" { 1 -1 }
t "" 2 "" { -1 1 }
p "" 2 1 0
t "" 3 "" { -1 1 }
t "" 4 "" { 1 -1 }
'''
    with pytest.raises(EfgError, match=r"information set 1 of player 2 \(P2\) contains more than one node.*perfect-information"):
        kop.loads_efg(text)


def test_efg_min_goal_round_trip():
    t = kop.random_tree(depth=4, branching=(1, 3), payoffs="real", chance_prob=0.2, seed=5)
    text = kop.dumps_efg(t)
    assert "kop-goals: A=max B=min" in text
    back = kop.loads_efg(text)
    assert back.players == t.players
    assert np.allclose(back.payoffs, t.payoffs, rtol=0, atol=0)


# -- random trees -----------------------------------------------------------------

def test_random_tree_is_seedable_and_shaped():
    a = kop.random_tree(depth=6, branching=(2, 4), seed=7)
    assert a == kop.random_tree(depth=6, branching=(2, 4), seed=7)
    assert a != kop.random_tree(depth=6, branching=(2, 4), seed=8)
    assert a.height == 6 and all(2 <= len(n.children) <= 4 for n in a.nodes() if not n.is_leaf)
    u = kop.random_tree(depth=5, branching=3, seed=1)
    assert len(u) == sum(3**k for k in range(6)) and u.n_leaves == 3**5
    assert [u.node(i).player for i in (0, 1, 4)] == ["A", "B", "A"]


def test_random_payoff_options():
    d = kop.random_tree(depth=6, branching=2, distinct=True, seed=2)
    for j in range(2):
        assert len(set(d.payoffs[:, j])) == d.n_leaves
    r = kop.random_tree(depth=6, branching=2, payoffs="real", low=0, high=1, seed=2)
    assert not r.integral and ((r.payoffs >= 0) & (r.payoffs < 1)).all()
    neg = kop.random_tree(depth=6, branching=2, correlation=-1, noise=0, seed=2)
    assert np.array_equal(neg.payoffs[:, 1], -neg.payoffs[:, 0])
    pos = kop.random_tree(depth=6, branching=2, correlation=1, noise=3, seed=2)
    assert np.abs(pos.payoffs[:, 1] - pos.payoffs[:, 0]).max() <= 3
    ch = kop.random_tree(depth=5, branching=3, chance_prob=0.5, seed=2)
    for n in ch.nodes():
        if n.is_chance:
            assert math.isclose(sum(n.probabilities), 1, abs_tol=0) and min(n.probabilities) > 0
    big = kop.random_tree(depth=50, branching=(1, 3), max_nodes=5000, seed=3)
    assert 5000 <= len(big) < 5000 * 4
