"""Reading kop-tree/1 JSON text: located errors for every malformed input, and the fast path
agreeing with the careful reader (which defines the format)."""

import json

import pytest

import kop
from kop.games.errors import TreeError
from kop.io.treejson import fast_tree
from kop.semantics.errors import ModelError
from kop.errors import LimitError
from kop.io.jsontext import JsonError, loads_deep, loads_json


def text(root, players='["A", "B"]'):
    return '{"format": "kop-tree/1", "players": %s, "root": %s}' % (players, root)


# -- defects found by fuzzing (each failed before the fix) -------------------------------

@pytest.mark.parametrize("player, found", [('["A"]', "a list"), ('{"A": 1}', "an object"), ("3", "int"),
                                           ("null", "null")])
def test_player_that_is_not_a_name_is_located(player, found):
    bad = text('{"player": %s, "children": [{"payoff": [1, 2]}]}' % player)
    with pytest.raises(TreeError, match=rf'root: "player" must be a player\'s name, found {found}'):
        kop.loads_tree(bad)
    with pytest.raises(TreeError, match="must be a player's name"):
        kop.GameTree.from_dict(json.loads(bad))


def test_integer_beyond_pythons_digit_limit_is_located():
    huge = "7" * 5000
    with pytest.raises(TreeError, match=r"line 1, column \d+: an integer of 5000 digits is longer than kop reads"):
        kop.loads_tree(text('{"payoff": [%s, 1]}' % huge))
    # the same number given as Python data: the message must not print its digits
    doc = json.loads(text('{"payoff": [1, 2]}'))
    doc["root"]["payoff"][0] = 7 ** 6000
    with pytest.raises(TreeError, match=r"root: payoff of A an integer of about 50\d\d digits is too large"):
        kop.GameTree.from_dict(doc)
    with pytest.raises(TreeError, match="player name must be a non-empty string, not an integer of about"):
        kop.GameTree.build([kop.Player.__new__(kop.Player)] and [{"name": 7 ** 6000}], (1,))
    model = '{"agents": ["a"], "worlds": {"w": []}, "relations": {"a": [["w"]]}, "actual": ["w"], "n": %s}'
    with pytest.raises(ModelError, match=r"model: malformed JSON at line 1, column \d+: an integer of 5000 digits"):
        kop.KripkeModel.from_json(model % huge)


def test_duplicate_keys_in_a_tree_are_located():
    bad = text('{"player": "A", "children": [{"payoff": [1, 2]},\n  {"payoff": [1, 2], "payoff": [3, 4]}]}')
    with pytest.raises(TreeError, match=r"line 2, column 22: \$\.root\.children\[1\]: duplicate key 'payoff'"):
        kop.loads_tree(bad)
    with pytest.raises(TreeError, match=r"line 1, column \d+: \$: duplicate key 'format'"):
        kop.loads_tree('{"format": "kop-tree/1", "format": "kop-tree/1", "players": ["A"], "root": {"payoff": [1]}}')


def test_duplicate_keys_in_a_deep_tree_are_located():
    depth = 3000
    bad = text('{"player": "A", "children": [' * depth + '{"payoff": [1, 2], "label": "x", "label": "y"}'
               + "]}" * depth)
    with pytest.raises(TreeError, match=r"duplicate key 'label'"):
        kop.loads_tree(bad)


def test_nan_and_infinity_are_not_json():
    with pytest.raises(TreeError, match=r"line 1, column \d+: invalid JSON: expected a value or '\]', found 'N'"):
        kop.loads_tree(text('{"payoff": [NaN, 1]}'))
    with pytest.raises(TreeError, match="invalid JSON"):
        kop.loads_tree(text('{"payoff": [Infinity, 1]}'))
    with pytest.raises(TreeError, match=r"root: payoff of A must be a finite number, found inf"):
        kop.loads_tree(text('{"payoff": [1e999, 1]}'))


def test_model_json_nesting_is_bounded_and_located():
    deep = '{"agents": ["a"], "worlds": {"w": []}, "relations": {"a": [["w"]]}, "actual": ["w"], "x": %s}'
    with pytest.raises(ModelError, match=r"model: line 1, column \d+: JSON nested deeper than 200 levels"):
        kop.KripkeModel.from_json(deep % ("[" * 300 + "]" * 300))
    with pytest.raises(ModelError, match="nested deeper"):
        kop.KripkeModel.from_json(deep % ("[" * 5000 + "]" * 5000))
    assert kop.KripkeModel.from_json(deep % ("[" * 100 + "]" * 100)).worlds == ("w",)


def test_duplicate_model_keys_name_path_and_position():
    bad = '{"agents": ["a"],\n "worlds": {"w0": [], "w0": []}, "relations": {"a": [["w0"]]}, "actual": ["w0"]}'
    with pytest.raises(ModelError, match=r"model: \$\.worlds: duplicate world name 'w0' \(line 2, column 23\)"):
        kop.KripkeModel.from_json(bad)


def test_strict_reader_errors():
    for bad, message in [("[1,", "expected a value, found the end of the text"),
                         ("[1 2]", "expected ',' or ']', found '2'"),
                         ('{"a" 1}', "expected ':', found '1'"),
                         ("{1: 2}", "expected a string key"),
                         ("[1] x", "extra data")]:
        with pytest.raises(JsonError, match=message):
            loads_deep(bad)
        with pytest.raises(JsonError):
            loads_json(bad)
    with pytest.raises(LimitError):
        loads_json("[" * 50 + "]" * 50, max_depth=10)


# -- the fast path agrees with the careful reader (drawn trees: test_json_fastpath.py) ------

def careful(text_):
    return kop.GameTree.from_dict(loads_json(text_))


@pytest.mark.parametrize("root", [
    '{"player": "A", "children": [{"payoff": [1, 2]}], "comment": 1}',
    '{"player": "A", "children": []}',
    '{"player": "A", "children": [{"payoff": [1, 2], "children": [{"payoff": [1, 2]}]}]}',
    '{"player": "A", "children": [{"children": [{"payoff": [1, 2]}]}]}',
    '{"player": "A", "chance": [1], "children": [{"payoff": [1, 2]}]}',
    '{"chance": [0.5, 0.6], "children": [{"payoff": [1, 2]}, {"payoff": [1, 2]}]}',
    '{"chance": [1, true], "children": [{"payoff": [1, 2]}, {"payoff": [1, 2]}]}',
    '{"player": "A", "children": [{"payoff": [1, true]}]}',
    '{"player": "A", "children": [{"payoff": [1, 9007199254740993]}]}',
    '{"player": "A", "children": [{"payoff": [1]}]}',
    '{"player": "A", "children": [{"payoff": [1, {"payoff": [1, 2]}]}]}',
    '{"player": "A", "children": [{"payoff": [1, 2], "move": null}]}',
    '{"player": "A", "move": "x", "children": [{"payoff": [1, 2]}]}',
    '{"player": "C", "children": [{"payoff": [1, 2]}]}',
    '[{"payoff": [1, 2]}]',
    '{"payoff": "12"}',
])
def test_fast_path_leaves_malformed_trees_to_the_careful_reader(root):
    bad = text(root)
    assert fast_tree(bad) is None
    with pytest.raises(TreeError, match=r"^root"):
        kop.loads_tree(bad)


def test_node_hidden_in_a_comment_is_ignored_like_the_careful_reader_does():
    doc = text('{"player": "A", "children": [{"payoff": [1, 2]}]}')[:-1] + ', "comment": {"payoff": [5, 5]}}'
    assert kop.loads_tree(doc) == careful(doc) and careful(doc).n_leaves == 1
