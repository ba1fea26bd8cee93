"""KripkeModel: construction, accessors, validation errors, JSON I/O, graph view, empty models."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

import kop
from kop import KripkeModel, ModelError
from kop.errors import KopError
from kop.syntax import formula as F


def contract_model():
    return KripkeModel(
        worlds={"w0": ["p", "q"], "w1": ["p"]},
        partitions={"a": [["w0", "w1"]], "b": [["w0"], ["w1"]]},
        actual=["w0"],
    )


def test_contract_accessors():
    m = contract_model()
    assert m.worlds == ("w0", "w1")
    assert m.agents == ("a", "b")
    assert m.actual == ("w0",)
    assert m.valuation("w0") == frozenset({"p", "q"})
    assert m.valuation("w1") == frozenset({"p"})
    assert m.block("a", "w0") == frozenset({"w0", "w1"})
    assert m.block("b", "w1") == frozenset({"w1"})
    assert m.partition("a") == (("w0", "w1"),)
    assert m.atoms == frozenset({"p", "q"})
    assert len(m) == 2 and not m.is_empty
    assert kop.KripkeModel is KripkeModel and kop.ModelError is ModelError


def test_actual_forms_and_agents_order():
    m = KripkeModel({"u": [], "v": []}, {"b": [["u", "v"]], "a": [["u"], ["v"]]}, actual="v")
    assert m.actual == ("v",) and m.agents == ("b", "a")
    assert KripkeModel(["u", "v"], {"a": [["u", "v"]]}).actual == ("u", "v")   # None: all designated
    m2 = KripkeModel(["u", "v"], {"a": [["u", "v"]], "b": [["u", "v"]]}, agents=["b", "a"])
    assert m2.agents == ("b", "a")


def test_partition_given_as_labels_or_arrays():
    m1 = KripkeModel(["u", "v", "x"], {"a": {"u": "L", "v": "R", "x": "L"}})
    m2 = KripkeModel(["u", "v", "x"], {"a": np.array([3, 1, 3])})
    m3 = KripkeModel(["u", "v", "x"], {"a": [["u", "x"], ["v"]]})
    assert m1 == m2 == m3
    assert m1.block("a", "u") == {"u", "x"}


def test_from_arrays():
    m = KripkeModel.from_arrays(3, {"a": [0, 0, 1]}, {"p": [True, False, True]}, actual="w2")
    assert m.worlds == ("w0", "w1", "w2") and m.actual == ("w2",)
    assert m.truth_set("K_a p") == {"w2"}
    with pytest.raises(ModelError, match="agent 'a': expected 3 block ids"):
        KripkeModel.from_arrays(3, {"a": [0, 0]})
    with pytest.raises(ModelError, match="atom 'p': expected 3 truth values"):
        KripkeModel.from_arrays(3, {"a": [0, 0, 0]}, {"p": [True]})
    with pytest.raises(ModelError, match="non-negative"):
        KripkeModel.from_arrays(2, {"a": [0, -1]})


@pytest.mark.parametrize("worlds, partitions, actual, message", [
    ({"w0": [], "w1": []}, {"a": [["w0"]]}, None, "agent 'a': world 'w1' is in no block"),
    ({"w0": [], "w1": []}, {"a": [["w0", "w1"], ["w1"]]}, None,
     "agent 'a': world 'w1' is in two blocks (0 and 1); blocks of a partition must not overlap"),
    ({"w0": []}, {"a": [["w0"]], "b": [["w0", "w9"]]}, None, "agent 'b': block 0 names unknown world 'w9'"),
    ({"w0": []}, {"a": [["w0"], []]}, None, "agent 'a': block 1 is empty"),
    ({"w0": []}, {"a": [["w0", "w0"]]}, None, "agent 'a': world 'w0' is listed twice in block 0"),
    (["w0", "w1", "w0"], {"a": [["w0", "w1"]]}, None, "duplicate world name 'w0'"),
    ({"w0": []}, {"a": [["w0"]]}, ["w3"], "designated world 'w3' does not exist"),
    ({"w0": []}, {"a": [["w0"]]}, 5, "the designated worlds must be a world name or a list of names, not 5"),
    ({"w0": ["K_a"]}, {"a": [["w0"]]}, None, "world 'w0': 'K_a' cannot be an atom name"),
    ({"w0": ["1p"]}, {"a": [["w0"]]}, None, "world 'w0': invalid atom name '1p'"),
    ({"w0": "p"}, {"a": [["w0"]]}, None, "world 'w0': its atoms must be a list"),
    ({"w0": []}, {"a-b": [["w0"]]}, None, "invalid agent name 'a-b'"),
    ({"w0": []}, {"a": {"w0": 1, "zz": 2}}, None, "agent 'a': the partition names unknown world 'zz'"),
    ({"w0": []}, {"a": "w0"}, None, "agent 'a': a partition must be a list of blocks"),
    ({"w0": []}, {"a": ["w0"]}, None, "agent 'a': block 0 must be a list of world names"),
])
def test_bad_models(worlds, partitions, actual, message):
    with pytest.raises(ModelError, match=re.escape(message)):
        KripkeModel(worlds, partitions, actual=actual)


def test_agents_without_or_with_unknown_partitions():
    with pytest.raises(ModelError, match="agent 'b' has no partition"):
        KripkeModel(["u"], {"a": [["u"]]}, agents=["a", "b"])
    with pytest.raises(ModelError, match="a partition is given for agent 'c', which is not among the agents"):
        KripkeModel(["u"], {"a": [["u"]], "c": [["u"]]}, agents=["a"])


def test_model_error_is_a_kop_error():
    assert issubclass(ModelError, kop.KopError) and issubclass(ModelError, ValueError)


def test_unknown_agent_in_formula():
    m = contract_model()
    with pytest.raises(ModelError, match="agent 'z' that the model does not have"):
        m.satisfies("K_z p")
    with pytest.raises(ModelError, match="agents 'x', 'y'"):
        m.truth_set("C{a,x,y} p")
    with pytest.raises(ModelError, match="unknown world 'nope'"):
        m.satisfies("p", world="nope")
    with pytest.raises(ModelError, match="unknown agent 'z'"):
        m.block("z", "w0")


# -- JSON -------------------------------------------------------------------------

def test_json_round_trip(tmp_path):
    m = contract_model()
    doc = m.to_json()
    assert doc == {"format": "kop-model/1", "agents": ["a", "b"], "worlds": {"w0": ["p", "q"], "w1": ["p"]},
                   "relations": {"a": [["w0", "w1"]], "b": [["w0"], ["w1"]]}, "actual": ["w0"]}
    assert KripkeModel.from_json(doc) == m
    assert KripkeModel.from_json(json.dumps(doc)) == m
    path = tmp_path / "m.json"
    m.save(path)
    assert KripkeModel.load(path) == m
    assert json.loads(path.read_text()) == doc


def _doc(**changes):
    doc = {"agents": ["a"], "worlds": {"w0": ["p"], "w1": []}, "relations": {"a": [["w0", "w1"]]}, "actual": ["w0"]}
    doc.update(changes)
    return doc


@pytest.mark.parametrize("text, message", [
    ('{"agents": ["a"], "worlds": {"w0": [], "w1": []', "model: malformed JSON at line 1, column"),
    ('{"agents": ["a"], "worlds": {"w0": [], "w0": ["p"]}, "relations": {"a": [["w0"]]}, "actual": ["w0"]}',
     "model: $.worlds: duplicate world name 'w0'"),
    ('{"agents": ["a"], "agents": ["b"], "worlds": {}, "relations": {}, "actual": []}',
     "model: $: duplicate key 'agents'"),
    ('{"agents": ["a"], "worlds": {"w0": []}, "relations": {"a": [["w0"]]}}',
     "$: 'actual' is missing (required)"),
    ('{"agents": ["a"], "worlds": {"w0": [3]}, "relations": {"a": [["w0"]]}, "actual": ["w0"]}',
     "$.worlds.w0[0]: expected string, found 3"),
    ('{"agents": ["a"], "worlds": {"w0": []}, "relations": {"a": [[]]}, "actual": ["w0"]}',
     "$.relations.a[0]"),
    ('[1, 2]', "$: expected object"),
    ('{"agents": ["a"], "worlds": {"w0": [], "w1": []}, "relations": {"a": [["w0"]]}, "actual": ["w0"]}',
     "model: agent 'a': world 'w1' is in no block"),
    ('{"agents": ["a"], "worlds": {"w0": []}, "relations": {"a": [["w0"]]}, "actual": ["w7"]}',
     "model: designated world 'w7' does not exist"),
    ('{"agents": ["a", "b"], "worlds": {"w0": []}, "relations": {"a": [["w0"]]}, "actual": ["w0"]}',
     "model: agent 'b' has no partition"),
])
def test_bad_json(text, message):
    with pytest.raises(ModelError, match=re.escape(message)):
        KripkeModel.from_json(text)


def test_bad_files(tmp_path):
    with pytest.raises(ModelError, match="no such model file"):
        KripkeModel.load(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"agents": [}')
    with pytest.raises(ModelError, match=re.escape(f"{bad}: malformed JSON at line 1, column 13")):
        KripkeModel.load(bad)


def test_json_schema_errors_are_summarised():
    doc = _doc(worlds={"w0": [1, 2, 3, 4, 5]}, relations={"a": [["w0"]]})
    with pytest.raises(ModelError, match=r"and 2 more"):
        KripkeModel.from_json(doc)


# -- graph ----------------------------------------------------------------------------

def test_graph_view():
    m = KripkeModel({"u": ["p"], "v": [], "x": []}, {"a": [["u", "v", "x"]], "b": [["u", "v"], ["x"]]}, "u")
    g = m.graph
    assert set(g.nodes) == {"u", "v", "x"}
    assert g.nodes["u"]["atoms"] == {"p"} and g.nodes["u"]["actual"] and not g.nodes["v"]["actual"]
    edges = sorted((min(u, v), max(u, v), d["agent"]) for u, v, d in g.edges(data=True))
    assert edges == [("u", "v", "a"), ("u", "v", "b"), ("u", "x", "a"), ("v", "x", "a")]
    assert m.to_networkx(loops=True).number_of_edges() == 4 + 3 * 2


# -- updates, empty models ----------------------------------------------------------------

def test_announce_and_restrict():
    m = contract_model()
    after = m.announce("q")
    assert after.worlds == ("w0",) and after.actual == ("w0",) and after.note is None
    assert after.satisfies("K_a q")
    r = m.restrict(["w1"])
    assert r.worlds == ("w1",) and r.actual == ()
    assert m.restrict(np.array([True, False])).worlds == ("w0",)


def test_announcement_false_everywhere_gives_the_empty_model():
    m = contract_model()
    empty = m.announce("~p")
    assert empty.is_empty and len(empty) == 0 and empty.actual == ()
    assert "false at every world" in empty.note and "~p" in empty.note
    assert empty.truth_set("p") == frozenset()
    with pytest.raises(ModelError, match=r"the model is empty: the announcement '~p' is false at every world"):
        empty.satisfies("p")
    assert empty.announce("p").is_empty
    assert empty.to_json()["worlds"] == {}
    assert KripkeModel.from_json(empty.to_json()).is_empty


def test_announcement_false_at_the_designated_worlds():
    m = contract_model()
    after = m.announce("~q")
    assert after.worlds == ("w1",) and after.actual == ()
    assert "false at every designated world" in after.note
    with pytest.raises(ModelError, match="no designated worlds"):
        after.satisfies("p")
    assert after.satisfies("p", world="w1")


def test_with_actual():
    m = contract_model().with_actual("w1")
    assert m.actual == ("w1",) and m.satisfies("~q")


def test_repr_and_equality():
    m = contract_model()
    assert repr(m) == "KripkeModel(worlds=2, agents=('a', 'b'), actual=('w0',))"
    assert m == contract_model() and hash(m) == hash(contract_model())
    assert m != m.with_actual("w1")
    assert m != KripkeModel({"w0": ["p", "q"], "w1": ["p"]}, {"a": [["w0"], ["w1"]], "b": [["w0"], ["w1"]]}, "w0")


def test_arrays_are_read_only():
    m = contract_model()
    with pytest.raises(ValueError):
        m.block_ids("a")[0] = 5
    with pytest.raises(ValueError):
        m.truth_mask("p")[0] = False


def test_deep_formulas_do_not_exhaust_the_stack():
    m = contract_model()
    phi = F.Atom("p")
    for i in range(3000):
        phi = F.Know("a" if i % 2 else "b", phi)
    assert m.satisfies(phi)
    psi = F.Atom("q")
    for _ in range(400):
        psi = F.Announce(F.Atom("p"), psi)
    assert m.truth_set(psi) == {"w0"}
    assert m.satisfies("K_a " * 900 + "p")


def test_string_and_formula_arguments_agree():
    m = contract_model()
    assert m.truth_set("K_b q") == m.truth_set(F.Know("b", F.Atom("q"))) == {"w0"}
    with pytest.raises(TypeError):
        m.truth_set(42)


@pytest.mark.parametrize("build, error, message", [
    (lambda: KripkeModel(["u"], {"a": [["u"]]}, agents=5), ModelError, "agents must be a list of agent names, not 5"),
    (lambda: KripkeModel.from_arrays(2, {"a": [0, 0]}, 5), ModelError,
     "the valuation must map each atom to its truth values, not int"),
    (lambda: KripkeModel(["u"], {"a": [["u"]]}).restrict(5), ModelError,
     "restrict takes world names or a boolean mask, not 5"),
    (lambda: KripkeModel(["u"], {"a": [["u"]]}).announce(5), KopError, "argument 'phi': expected a formula"),
    (lambda: KripkeModel(["u"], {"a": [["u"]]}).with_actual(5), ModelError,
     "the designated worlds must be a world name or a list of names, not 5"),
])
def test_arguments_of_the_wrong_type_are_located_errors(build, error, message):
    """Not a TypeError from deep inside: a KopError that names the argument."""
    with pytest.raises(error, match=re.escape(message)):
        build()
