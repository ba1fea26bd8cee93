"""Fuzzing every reader of user input: formulas (kop.parse), Kripke models (kop-model/1 JSON),
game trees (kop-tree/1 JSON) and Gambit .efg files.

The inputs are structured: valid documents drawn by hypothesis (trees, models, formulas), written
out by kop, then mutated -- spans deleted or repeated, format-specific tokens inserted (keys, braces,
huge and odd numbers, NUL and non-ASCII characters), values replaced by random JSON.  A reader may
accept the result or reject it with a :class:`kop.KopError`; any other exception fails the test.
What is accepted must also be consistent: a tree or model read back from kop's own output is the
same, and the fast tree reader agrees with the careful one.

The default run draws a few thousand inputs in all; ``pytest -m slow tests/fuzz`` draws many more.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples

import kop
from formula_strategies import formulas
from kop.io.treejson import fast_tree
from kop.errors import KopError
from kop.io.jsontext import loads_json
from tree_strategies import game_trees

CORPUS = Path(__file__).resolve().parents[1] / "games" / "efg_corpus"
EFG_FILES = sorted(p.read_text(encoding="utf-8") for p in CORPUS.glob("*.efg"))

ODD = ["\x00", "\u00e9", "\u2192", "\ud7ff", "\t", "\r\n", "\\", '"', "'", " ", "\n", "-", "+", ".", "e", "/"]
BIG = ["1" * 5000, "1e999999999", "1e10000000", "1e400", "1e-400", "-0", "9007199254740993", "0.1" * 50]
JSON_TOKENS = ["{", "}", "[", "]", ",", ":", '"', "null", "true", "false", "NaN", "Infinity", '"player"',
               '"payoff"', '"children"', '"chance"', '"label"', '"move"', '"format"', '"players"', '"root"',
               '"agents"', '"worlds"', '"relations"', '"actual"', '"goal"', '"min"', '"w0"', '"a"', "[[", "]]",
               '{"payoff": [1, 2]}', '"player": ["A"]', '"player": {"A": 1}', *BIG, *ODD]
EFG_TOKENS = ["p", "c", "t", "{", "}", ",", '""', '"x"', '"\\""', "0", "1", "2", "3", "-1", "1/2", "1/0", ".5",
              "0.5", "2/3", "EFG", "2", "R", "D", '"kop-goals: A=min"', "kop-goals: A=max=min", *BIG, *ODD]
FORMULA_TOKENS = ["K_a", "M_b", "Kw_a", "C_{a,b}", "E_{a}", "D_{a,b}", "C_{}", "(", ")", "[", "]", "!", "<", ">",
                  "&", "|", "~", "->", "<->", "¬", "∧", "∨", "→", "↔", "true", "false", "p", "q", "K[a]",
                  "Ka", "C_{a,b}(p, q)", "[!p]", "<!q>", "E_", "K_", "C_", *ODD, "(" * 50, ")" * 50]


@st.composite
def mutated(draw: st.DrawFn, text: str, tokens: list[str]) -> str:
    """*text* after one to four random edits (delete, repeat, insert a token, replace a character)."""
    for _ in range(draw(st.integers(1, 4))):
        n = len(text)
        i = draw(st.integers(0, n))
        j = draw(st.integers(i, min(n, i + 40)))
        edit = draw(st.sampled_from(["delete", "repeat", "insert", "insert", "replace"]))
        if edit == "delete":
            text = text[:i] + text[j:]
        elif edit == "repeat":
            text = text[:j] + text[i:j] + text[j:]
        elif edit == "insert":
            text = text[:i] + draw(st.sampled_from(tokens)) + text[i:]
        else:
            text = text[:i] + draw(st.sampled_from(ODD + tokens)) + text[i + 1:]
    return text


def only_kop_errors(read, text):
    """*read(text)*, or None when it raises a KopError (any other exception fails the test)."""
    try:
        return read(text)
    except KopError:
        return None


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                           | st.text(max_size=5) | st.sampled_from([1e300, -0.0, 2**53 + 1, 10**400, 1e-300]),
                           lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=4), kids,
                                                                                      max_size=3),
                           max_leaves=8)


@st.composite
def tree_texts(draw: st.DrawFn) -> str:
    tree = draw(game_trees(players=draw(st.sampled_from([1, 2, 3]))))
    text = kop.dumps_tree(tree)
    if draw(st.booleans()):
        return draw(mutated(text, JSON_TOKENS))
    # a structural edit: somewhere in the document, a key gets a random value (or is added)
    doc = json.loads(text)
    node = doc
    path = draw(st.lists(st.integers(0, 5), max_size=6))
    for step in path:
        kids = node.get("children") if isinstance(node, dict) else None
        if step == 0 and isinstance(node, dict) and "root" in node:
            node = node["root"]
        elif kids:
            node = kids[step % len(kids)]
    key = draw(st.sampled_from(["player", "payoff", "children", "chance", "label", "move", "players", "root",
                                "format", "extra"]))
    node[key] = draw(json_values)
    return json.dumps(doc)


def read_tree(text: str) -> kop.GameTree:
    tree = kop.loads_tree(text)
    assert kop.loads_tree(kop.dumps_tree(tree)) == tree
    fast = fast_tree(text)
    assert fast is None or fast == tree  # the fast path may decline, never disagree
    return tree


def careful_tree(text: str) -> kop.GameTree:
    return kop.GameTree.from_dict(loads_json(text))


def check_tree_text(text: str) -> None:
    ours = only_kop_errors(read_tree, text)
    reference = only_kop_errors(careful_tree, text)
    assert (ours is None) == (reference is None)
    assert ours is None or ours == reference


@st.composite
def model_docs(draw: st.DrawFn) -> dict:
    """A valid kop-model/1 document: 1-5 worlds, 1-3 agents, random partitions and valuation."""
    names = [f"w{i}" for i in range(draw(st.integers(1, 5)))]
    agents = ["a", "b", "c"][:draw(st.integers(1, 3))]
    relations = {}
    for a in agents:
        block_of = draw(st.lists(st.integers(0, len(names) - 1), min_size=len(names), max_size=len(names)))
        blocks: dict[int, list[str]] = {}
        for w, b in zip(names, block_of):
            blocks.setdefault(b, []).append(w)
        relations[a] = list(blocks.values())
    return {"format": "kop-model/1", "agents": agents,
            "worlds": {w: draw(st.lists(st.sampled_from(["p", "q", "r"]), unique=True)) for w in names},
            "relations": relations,
            "actual": draw(st.lists(st.sampled_from(names), min_size=1, unique=True))}


@st.composite
def model_texts(draw: st.DrawFn) -> str:
    doc = draw(model_docs())
    if draw(st.booleans()):
        return draw(mutated(json.dumps(doc), JSON_TOKENS))
    key = draw(st.sampled_from(["agents", "worlds", "relations", "actual", "format", "comment"]))
    target = doc
    if draw(st.booleans()) and isinstance(doc.get(key), dict) and doc[key]:
        target = doc[key]
        key = draw(st.sampled_from(sorted(target)))
    target[key] = draw(json_values)
    return json.dumps(doc)


def read_model(text: str) -> kop.KripkeModel:
    m = kop.KripkeModel.from_json(text)
    assert kop.KripkeModel.from_json(json.dumps(m.to_json())).to_json() == m.to_json()
    return m


@st.composite
def efg_texts(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        tree = draw(game_trees(players=draw(st.sampled_from([1, 2, 3]))))
        text = kop.dumps_efg(tree)
        if draw(st.booleans()):  # Gambit's own layout: commas between payoffs
            text = "\n".join(_commas(line) for line in text.split("\n"))
    else:
        text = draw(st.sampled_from(EFG_FILES))
    return draw(mutated(text, EFG_TOKENS))


def _commas(line: str) -> str:
    if not line.startswith("t "):
        return line
    head, _, pays = line.partition("{")
    return head + "{ " + ", ".join(pays.rstrip("} ").split()) + " }"


def read_efg(text: str) -> kop.GameTree:
    tree = kop.loads_efg(text)
    assert kop.loads_efg(kop.dumps_efg(tree)) == tree
    return tree


FORMULAS = formulas(agents=["a", "b", "c"], atoms=["p", "q", "r"], max_leaves=8)


@st.composite
def formula_texts(draw: st.DrawFn) -> str:
    f = draw(FORMULAS)
    text = draw(st.sampled_from([kop.to_ascii, kop.to_unicode]))(f)
    return draw(mutated(text, FORMULA_TOKENS))


def read_formula(text: str) -> kop.Formula:
    f = kop.parse(text)
    assert kop.parse(kop.to_ascii(f)) == f
    return f


CASES = {
    "tree_json": (tree_texts(), check_tree_text, 500),
    "model_json": (model_texts(), lambda t: only_kop_errors(read_model, t), 400),
    "efg": (efg_texts(), lambda t: only_kop_errors(read_efg, t), 700),
    "formula": (formula_texts(), lambda t: only_kop_errors(read_formula, t), 700),
}


def _fuzz(name: str, scale: int):
    texts, check, count = CASES[name]

    @settings(max_examples=examples(count * scale), deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                     HealthCheck.filter_too_much])
    @given(texts)
    def run(text):
        check(text)
    run()


@pytest.mark.parametrize("name", sorted(CASES))
def test_fuzz_reader(name):
    _fuzz(name, 1)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CASES))
def test_fuzz_reader_long(name):
    _fuzz(name, 30)
