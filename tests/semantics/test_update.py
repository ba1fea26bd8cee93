"""Action models and product update: against announce(), against the naive definition, bad input."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples

from kop import ActionModel, KripkeModel, ModelError, bisimilar, product_update
from kop.semantics.reference import NaiveModel, naive_product
from kop.syntax import formula as F
from tests.semantics.sem_strategies import ATOMS, formulas_for, models, models_and_formulas

FAST = settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(models_and_formulas(max_leaves=6))
def test_public_announcement_action_equals_announce(case):
    m, phi = case
    pa = ActionModel.public_announcement(phi, m.agents)
    via_action = m.product_update(pa, rename="world")
    direct = m.announce(phi)
    assert via_action.worlds == direct.worlds
    assert set(via_action.actual) == set(direct.actual)
    assert all(via_action.partition(a) == direct.partition(a) for a in m.agents)
    assert all(via_action.valuation(w) == direct.valuation(w) for w in direct.worlds)
    if direct.actual:
        assert bisimilar(via_action, direct)


@st.composite
def action_models(draw, agents):
    k = draw(st.integers(1, 3))
    events = [f"e{i}" for i in range(k)]
    small = formulas_for(agents, 4)
    pre = {e: draw(small) for e in events if draw(st.booleans())}
    post = {}
    for e in events:
        if draw(st.booleans()):
            post[e] = {p: draw(small) for p in draw(st.lists(st.sampled_from(ATOMS + ["s"]), max_size=2, unique=True))}
    parts = {a: dict(zip(events, draw(st.lists(st.integers(0, k - 1), min_size=k, max_size=k)))) for a in agents}
    actual = draw(st.lists(st.sampled_from(events), min_size=1, max_size=k, unique=True))
    return ActionModel(events, pre=pre, post=post, partitions=parts, actual=actual)


@st.composite
def model_action_formula(draw):
    m = draw(models(max_worlds=6))
    return m, draw(action_models(list(m.agents))), draw(formulas_for(m.agents, 6))


@FAST
@given(model_action_formula())
def test_product_update_matches_the_definition(case):
    m, action, phi = case
    fast = product_update(m, action)
    naive = naive_product(m, action)
    assert list(fast.worlds) == naive.worlds
    for w in fast.worlds:
        assert fast.valuation(w) == naive.valuation[w]
    as_naive = NaiveModel.from_json(fast.to_json())
    for a in m.agents:
        assert as_naive.relations[a] == naive.relations[a]
    # and every formula is evaluated the same on both
    assert fast.truth_set(phi) == frozenset(w for w in naive.worlds if naive.holds(phi, w))


def _coin():
    """A coin lies heads (h) or tails; nobody knows which."""
    return KripkeModel({"H": ["h"], "T": []}, {"a": [["H", "T"]], "b": [["H", "T"]]}, actual="H")


def test_semi_private_announcement():
    after = _coin().product_update(ActionModel.semi_private("h", ["a"], ["a", "b"]))
    assert after.worlds == ("(H,yes)", "(T,no)") and after.actual == ("(H,yes)",)
    assert after.satisfies("K_a h & ~Kw_b h & K_b Kw_a h & C{a,b} Kw_a h")


def test_private_peek_with_suspicion():
    """a peeks; b considers it possible that a peeked or that nothing happened."""
    peek = ActionModel(["peekH", "peekT", "skip"],
                       pre={"peekH": "h", "peekT": "~h"},
                       partitions={"a": [["peekH"], ["peekT"], ["skip"]], "b": [["peekH", "peekT", "skip"]]},
                       actual="peekH")
    after = _coin().product_update(peek)
    assert len(after) == 4
    assert after.satisfies("K_a h & ~Kw_b h & ~K_b Kw_a h & M_b Kw_a h")


def test_factual_change():
    flip = ActionModel.public_assignment({"h": "~h"}, ["a", "b"])
    after = _coin().product_update(flip, rename="world")
    assert after.truth_set("h") == {"T"} and after.actual == ("H",)
    assert after.satisfies("~h & ~Kw_a h")
    # a private flip by a: a knows the coin was flipped, b does not
    private = ActionModel(["flip", "skip"], post={"flip": {"h": "~h"}},
                          partitions={"a": [["flip"], ["skip"]], "b": [["flip", "skip"]]}, actual="flip")
    after = _coin().product_update(private)
    assert len(after) == 4 and after.partition("b") == (after.worlds,)
    assert after.satisfies("~h & ~Kw_a h & M_b h & M_b ~h")
    assert after.truth_set("h") == {"(T,flip)", "(H,skip)"}
    # a postcondition can create a new atom, evaluated before the event
    learn = ActionModel.public_assignment({"was_h": "h"}, ["a", "b"])
    assert _coin().product_update(learn).truth_set("was_h & h") == {"(H,assign)"}


def test_empty_product():
    impossible = ActionModel(["e"], pre={"e": "h & ~h"}, partitions={"a": [["e"]], "b": [["e"]]})
    after = _coin().product_update(impossible)
    assert after.is_empty and "precondition" in after.note
    with pytest.raises(ModelError, match="the model is empty"):
        after.satisfies("h")


def test_rename():
    pa = ActionModel.semi_private("h", "a", ["a", "b"])
    after = _coin().product_update(pa, rename=lambda w, e: w.lower())
    assert after.worlds == ("h", "t")
    with pytest.raises(ModelError, match="names two worlds 'x'"):
        _coin().product_update(ActionModel(["e", "f"], partitions={"a": [["e", "f"]], "b": [["e"], ["f"]]}),
                               rename=lambda w, e: "x")
    with pytest.raises(ModelError, match="names two worlds 'H'"):
        _coin().product_update(ActionModel(["e", "f"], partitions={"a": [["e", "f"]], "b": [["e"], ["f"]]}),
                               rename="world")


@pytest.mark.parametrize("kwargs, message", [
    (dict(events=["e", "e"], partitions={"a": [["e"]]}), "duplicate event name 'e'"),
    (dict(events=["e"], pre={"f": "p"}, partitions={"a": [["e"]]}), "a precondition is given for unknown event 'f'"),
    (dict(events=["e"], post={"f": {"p": "q"}}, partitions={"a": [["e"]]}), "postcondition is given for unknown event 'f'"),
    (dict(events=["e", "f"], partitions={"a": [["e"]]}), "agent 'a': event 'f' is in no block"),
    (dict(events=["e", "f"], partitions={"a": [["e", "f"], ["f"]]}), "agent 'a': event 'f' is in two blocks"),
    (dict(events=["e"], partitions={"a": [["e", "g"]]}), "agent 'a': block 0 names unknown event 'g'"),
    (dict(events=["e"], partitions={"a": [["e"]]}, actual="z"), "designated event 'z' does not exist"),
    (dict(events=["e"], post={"e": {"K_a": "q"}}, partitions={"a": [["e"]]}), "'K_a' cannot be an atom"),
    (dict(events=["e"]), "needs a partition of its events"),
    (dict(events="e", partitions={"a": [["e"]]}), "events must be a list"),
])
def test_bad_action_models(kwargs, message):
    with pytest.raises(ModelError, match=re.escape(message)):
        ActionModel(**kwargs)


def test_action_model_agents_must_match():
    with pytest.raises(ModelError, match="no partition for agent 'b'"):
        _coin().product_update(ActionModel(["e"], partitions={"a": [["e"]]}))
    with pytest.raises(ModelError, match="a partition for agent 'c', which the model does not have"):
        _coin().product_update(ActionModel(["e"], partitions={"a": [["e"]], "b": [["e"]], "c": [["e"]]}))
    with pytest.raises(ModelError, match="event 'e': precondition: the formula names agent 'z'"):
        _coin().product_update(ActionModel(["e"], pre={"e": "K_z h"}, partitions={"a": [["e"]], "b": [["e"]]}))


def test_action_model_views():
    am = ActionModel(["e", "f"], pre={"e": F.Atom("p")}, partitions={"a": [["e", "f"]]}, actual="e")
    assert am.actual == ("e",) and am.partition("a") == (("e", "f"),)
    assert am.pre["f"] == F.TRUE
    assert repr(am) == "ActionModel(events=('e', 'f'), agents=('a',), actual=('e',))"
