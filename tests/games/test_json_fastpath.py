"""The fast kop-tree/1 reader (kop.io.treejson.fast_tree) against the careful one, which defines the
format (strict JSON by kop.io.jsontext, then GameTree.from_dict).

Trees are drawn node by node (tests/tree_strategies.py), written by kop, then edited at drawn nodes:
valid edits (keys reordered, labels, moves, float payoffs, a string comment) that the fast path must
read itself, and faults (duplicate keys, a player that is a list/object/null/unknown, integers of 5000
digits or beyond 2^53, booleans, NaN, wrong payoff lengths, misplaced nodes, bad probabilities) that
must give exactly the careful reader's error.  A fast path that returns a tree returns the careful
reader's tree, with the same labels, moves and integrality.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

import kop
from kop.games.errors import TreeError
from kop.io.treejson import fast_tree
from kop.errors import KopError
from kop.io.jsontext import JsonError, loads_json

from tree_strategies import game_trees


class Obj(list):
    """A JSON object as its list of (key, value) pairs, so a key may be written twice."""


class Raw(str):
    """JSON text written as it is (NaN, a 5000-digit integer)."""


def parse(text: str) -> Any:
    return json.loads(text, object_pairs_hook=Obj)


def write(x: Any) -> str:
    if isinstance(x, Raw):
        return str(x)
    if isinstance(x, Obj):
        return "{" + ", ".join(f"{json.dumps(k)}: {write(v)}" for k, v in x) + "}"
    if isinstance(x, list):
        return "[" + ", ".join(write(v) for v in x) + "]"
    return json.dumps(x)


def get(o: Obj, key: str, default: Any = None) -> Any:
    return next((v for k, v in o if k == key), default)


def put(o: Obj, key: str, value: Any) -> None:
    for j, (k, _) in enumerate(o):
        if k == key:
            o[j] = (key, value)
            return
    o.append((key, value))


def drop(o: Obj, key: str) -> None:
    o[:] = [(k, v) for k, v in o if k != key]


def nodes_of(doc: Obj) -> list[Obj]:
    out, stack = [], [get(doc, "root")]
    while stack:
        node = stack.pop()
        out.append(node)
        kids = next((v for k, v in node if k == "children"), [])
        stack.extend(reversed(kids))
    return out


def is_leaf(node: Obj) -> bool:
    """A leaf whose payoff is still a non-empty list (edits apply to what earlier edits left)."""
    pay = get(node, "payoff")
    return isinstance(pay, list) and len(pay) > 0


# -- edits: (name, valid?, function(doc, node, data)) -------------------------------------------

def e_reorder(doc, node, data):
    node[:] = data.draw(st.permutations(list(node)))


def e_label(doc, node, data):
    put(node, "label", data.draw(st.sampled_from(["x", "", "root", "n 1", "é"])))


def e_move(doc, node, data):
    put(node, "move", data.draw(st.sampled_from(["left", "m"])))  # an error at the root


def e_bad_label(doc, node, data):
    put(node, data.draw(st.sampled_from(["label", "move"])), data.draw(st.sampled_from([5, None, ["x"], True])))


def e_float_payoff(doc, node, data):
    if is_leaf(node):
        pay = get(node, "payoff")
        if type(pay[0]) is int:
            pay[0] = float(pay[0]) + data.draw(st.sampled_from([0.0, 0.5]))


def e_comment(doc, node, data):
    put(doc, "comment", data.draw(st.sampled_from(["a note", 3, None, True])))


def e_players_as_names(doc, node, data):
    players = get(doc, "players")
    if isinstance(players, list) and all(isinstance(p, Obj) for p in players):
        put(doc, "players", [get(p, "name") for p in players])


def e_duplicate(doc, node, data):
    k, v = data.draw(st.sampled_from(list(node)))
    node.insert(data.draw(st.integers(0, len(node))), (k, v))


def e_duplicate_top(doc, node, data):
    doc.append(("format", "kop-tree/1"))


def e_player(doc, node, data):
    if get(node, "player") is not None:
        put(node, "player", data.draw(st.sampled_from([["A"], Obj([("A", 1)]), None, 0, "Z", True, ""])))


def e_huge_int(doc, node, data):
    if is_leaf(node):
        get(node, "payoff")[0] = Raw(data.draw(st.sampled_from(["7" * 5000, "-" + "7" * 4301, "9" * 4300])))


def e_big_int(doc, node, data):
    if is_leaf(node):
        get(node, "payoff")[-1] = data.draw(st.sampled_from([2**53 + 1, -(2**53) - 1, 2**53, 10**30]))


def e_odd_payoff(doc, node, data):
    if is_leaf(node):
        pay = get(node, "payoff")
        pay[0] = data.draw(st.sampled_from([True, None, "1", [1], Raw("NaN"), Raw("Infinity"), Raw("1e999"),
                                            Obj([("payoff", [1])])]))


def e_payoff_length(doc, node, data):
    if is_leaf(node):
        pay = get(node, "payoff")
        if data.draw(st.booleans()):
            pay.append(0)
        else:
            pay.pop()


def e_empty_children(doc, node, data):
    if isinstance(get(node, "children"), list):
        put(node, "children", [])


def e_leaf_with_children(doc, node, data):
    if is_leaf(node):
        node.append(("children", [Obj([("payoff", list(get(node, "payoff")))])]))


def e_node_elsewhere(doc, node, data):
    where = data.draw(st.sampled_from(["comment", "title", "label", "child list"]))
    hidden = Obj([("payoff", [0] * len(get(doc, "players", [])))])
    if where in ("comment", "title"):
        put(doc, where, data.draw(st.sampled_from([hidden, [hidden], Obj([("x", hidden)])])))
    elif where == "label":
        put(node, "label", hidden)
    elif get(node, "children"):
        kids = get(node, "children")
        kids[-1] = data.draw(st.sampled_from([[kids[-1]], Obj([("x", kids[-1])]), 5, None]))


def e_chance(doc, node, data):
    if get(node, "chance"):
        probs = get(node, "chance")
        probs[0] = data.draw(st.sampled_from([-0.25, True, "0.5", 2, None, probs[0] + 1e-6 if type(probs[0]) is float else 0.5]))


def e_drop_key(doc, node, data):
    drop(data.draw(st.sampled_from([doc, node])), data.draw(st.sampled_from(
        ["format", "players", "root", "payoff", "player", "children", "chance"])))


def e_unknown_key(doc, node, data):
    data.draw(st.sampled_from([doc, node])).append(("colour", "red"))


def e_simultaneous(doc, node, data):
    if get(node, "player") is not None and isinstance(get(node, "children"), list):
        kids = get(node, "children")
        drop(node, "player")
        drop(node, "children")
        node.append(("simultaneous", Obj([("players", ["A"]), ("children", kids)])))


VALID = [e_reorder, e_label, e_move, e_float_payoff, e_comment, e_players_as_names]
FAULTS = [e_bad_label, e_duplicate, e_duplicate_top, e_player, e_huge_int, e_big_int, e_odd_payoff, e_payoff_length,
          e_empty_children, e_leaf_with_children, e_node_elsewhere, e_chance, e_drop_key, e_unknown_key,
          e_simultaneous]


def careful(text: str) -> kop.GameTree:
    """The definition: strict JSON, then GameTree.from_dict (JSON errors as TreeError, as loads_tree words them)."""
    try:
        doc = loads_json(text)
    except JsonError as exc:
        raise TreeError(str(exc)) from None
    return kop.GameTree.from_dict(doc)


def outcome(read: Any, text: str) -> tuple:
    try:
        t = read(text)
    except KopError as exc:
        return ("error", type(exc).__name__, str(exc))
    return ("tree", t, t.integral, sorted(t.labels.items()), sorted(t.moves.items()))


def check(text: str) -> kop.GameTree | None:
    expected = outcome(careful, text)
    assert outcome(kop.loads_tree, text) == expected
    fast = fast_tree(text)
    if fast is not None:
        assert expected[0] == "tree" and outcome(lambda _: fast, text) == expected
    return fast


@st.composite
def edited_texts(draw: st.DrawFn, edits: list) -> tuple[str, bool]:
    tree = draw(game_trees(players=(1, 2, 3)))
    doc = parse(kop.dumps_tree(tree))
    nodes = nodes_of(doc)
    data = draw(st.data())
    names = []
    for edit in draw(st.lists(st.sampled_from(edits), max_size=4)):
        node = nodes[draw(st.integers(0, len(nodes) - 1))]
        edit(doc, node, data)
        names.append(edit.__name__)
    return write(doc), names


@settings(max_examples=examples(300), deadline=None)
@given(edited_texts(VALID))
def test_fast_path_reads_valid_documents_as_the_careful_reader_does(case):
    text, _ = case
    fast = check(text)
    # every valid edit but a move at the root keeps the document valid: the fast path reads it itself
    if outcome(careful, text)[0] == "tree":
        assert fast is not None


@settings(max_examples=examples(500), deadline=None)
@given(edited_texts(VALID + FAULTS))
def test_faults_give_the_careful_readers_error(case):
    text, _ = case
    check(text)


# -- shapes the breadth-first layout must get right ----------------------------------------------

def chain_text(depth: int) -> str:
    return ('{"format": "kop-tree/1", "players": ["A", "B"], "root": '
            + '{"player": "A", "children": [{"payoff": [0, 0]}, ' * depth + '{"payoff": [1, 2]}'
            + "]}" * depth + "}")


@pytest.mark.parametrize("depth", [1, 2, 50, 400])
def test_deep_chains(depth):
    text = chain_text(depth)
    fast = check(text)
    assert fast is not None and fast.height == depth


def test_deeper_than_json_loads_goes_to_the_careful_reader():
    """On Python 3.11 json.loads stops at the interpreter's recursion limit: the fast path declines and the
    careful reader reads the tree. From 3.12 on json's C scanner has a limit of its own and reads the chain:
    then the fast path's tree is the careful reader's (``check``)."""
    text = chain_text(3000)
    fast = check(text)
    try:
        json.loads(text)
    except RecursionError:
        assert fast is None
    else:
        assert fast is not None and fast.height == 3000
    assert kop.loads_tree(text).height == 3000


def test_wide_tree_beyond_16_bit_stack_heights():
    n = 40_000
    tree = kop.GameTree.build(["A", "B"], ("A", [(i, -i) for i in range(n)] + [("B", [(1, 1), (2, 2)])]))
    text = kop.dumps_tree(tree)
    assert check(text) == tree


def test_player_that_is_a_list_in_a_large_tree_is_the_careful_error():
    tree = kop.random_tree(depth=10, branching=2, seed=3)
    text = kop.dumps_tree(tree)
    last = text.rindex('"player": "B"')
    bad = text[:last] + '"player": ["B"]' + text[last + len('"player": "B"'):]
    assert fast_tree(bad) is None
    with pytest.raises(TreeError, match=r"""^root(/\d)+: "player" must be a player's name, found a list \['B'\]"""):
        kop.loads_tree(bad)
    check(bad)


NODE = '{"payoff": [1, 2]}'


@pytest.mark.parametrize("root, extra", [
    ('{"player": "A", "children": [[%s]]}' % NODE, ""),                     # a node inside a nested list
    ('{"player": "A", "children": [{"x": %s}]}' % NODE, ""),                # inside an object
    ('{"player": "A", "children": [%s, 5]}' % NODE, ', "comment": %s' % NODE),  # a number, a node elsewhere
    ('{"player": "A", "children": [%s, null]}' % NODE, ', "title": [%s]' % NODE),
    ('{"children": [%s, "x"], "player": "A"}' % NODE, ', "comment": {"a": %s}' % NODE),
    ('{"player": "A", "children": [%s], "label": %s}' % (NODE, NODE), ""),
    ('{"player": "A", "children": [%s, {"payoff": [1, %s]}]}' % (NODE, NODE), ""),
    ('{"player": %s, "children": [%s]}' % (NODE, NODE), ""),
    ('{"chance": [0.5, %s], "children": [%s, %s]}' % (NODE, NODE, NODE), ""),
    (NODE, ', "comment": %s' % NODE),
    ('{"chance": [0.5, "0.5"], "children": [%s, %s]}' % (NODE, NODE), ""),
    ('{"chance": [0.5, true], "children": [%s, %s]}' % (NODE, NODE), ""),
    ('{"chance": [1.5, -0.5], "children": [%s, %s]}' % (NODE, NODE), ""),
    ('{"chance": [0.5, 0.4], "children": [%s, %s]}' % (NODE, NODE), ""),
    ('{"chance": [1], "children": [%s, %s]}' % (NODE, NODE), ""),
    ('{"chance": 1, "children": [%s]}' % NODE, ""),
    ('{"player": "A", "children": [%s], "label": 5}' % NODE, ""),
    ('{"player": "A", "children": [{"payoff": [1, 2], "move": ["m"]}]}', ""),
    ('{"player": "A", "children": [{"payoff": [1, 2], "label": null}]}', ""),
    ('{"player": "A", "children": [%s], "move": "m"}' % NODE, ""),
    ('{"player": "A", "children": [{"payoff": [1, 2], "colour": "red"}]}', ""),
    ('{"player": "A", "children": [{"label": "x", "payoff": [1, 2], "player": "A"}]}', ""),
    ('{"player": "A", "children": [{"payoff": [1, 2], "chance": [1]}]}', ""),
    ('{"children": [%s], "player": "A", "colour": "red"}' % NODE, ""),
    ('{"children": [%s], "chance": [1], "player": "A"}' % NODE, ""),
    ('{"children": [%s], "label": "x"}' % NODE, ""),
])
def test_nodes_out_of_place_are_the_careful_readers_business(root, extra):
    text = '{"format": "kop-tree/1", "players": ["A", "B"], "root": %s%s}' % (root, extra)
    assert fast_tree(text) is None or outcome(careful, text)[0] == "tree"
    check(text)


# -- the stack program that lays the nodes out breadth first ------------------------------------

def post_order_and_breadth_first(spec: Any) -> tuple[list[int], list[int]]:
    """Children counts in post-order, and the breadth-first order as post-order numbers (by walking)."""
    arity: list[int] = []

    def walk(node: Any) -> tuple[int, list]:  # (post-order number, numbered children)
        kids = [walk(child) for child in node or []]
        arity.append(len(kids))
        return len(arity) - 1, kids

    order, level = [], [walk(spec)]
    while level:
        order.extend(number for number, _ in level)
        level = [kid for _, kids in level for kid in kids]
    return arity, order


def shapes(max_leaves: int = 60) -> st.SearchStrategy[Any]:
    """A tree shape: None is a leaf, a list of shapes an inner node (shrinks to smaller trees)."""
    return st.recursive(st.builds(lambda: None), lambda kids: st.lists(kids, min_size=1, max_size=4),
                        max_leaves=max_leaves)


@settings(max_examples=examples(300), deadline=None)
@given(shapes())
def test_breadth_first_layout_from_post_order(spec):
    from kop.io.treejson import _breadth_first

    arity, order = post_order_and_breadth_first(spec)
    assert _breadth_first(np.array(arity, dtype=np.int64)).tolist() == order


@pytest.mark.parametrize("arity", [[0, 0], [1], [0, 2], [0, 0, 1, 0], [0, 0, 0, 2, 1]])
def test_breadth_first_layout_refuses_what_is_not_one_tree(arity):
    from kop.io.treejson import _Decline, _breadth_first

    with pytest.raises(_Decline):
        _breadth_first(np.array(arity, dtype=np.int64))
