"""Belief (plausibility models) and probability (Kooi) on Kripke models: checkers against the reference."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kop import KripkeModel, ModelError, parse
from kop.semantics.checker import truth_vector
from kop.semantics.reference import naive_truth_set
from tests.semantics.sem_strategies import uncertain_models, uncertain_models_and_formulas


def _numpy_set(m, phi):
    m = m.with_actual(None)  # a fresh model: nothing memoized
    return frozenset(w for w, t in zip(m.worlds, truth_vector(m, phi).tolist()) if t)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(uncertain_models_and_formulas())
def test_bitset_and_numpy_checkers_agree_with_the_reference(case):
    m, phi = case
    naive = naive_truth_set(m, phi)
    assert m.truth_set(phi) == naive, phi
    assert _numpy_set(m, phi) == naive, phi


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(uncertain_models_and_formulas(max_leaves=6), st.data())
def test_announcement_restricts_and_conditions(case, data):
    """[!φ]ψ at w is ψ at w in the announced model, whose ranks are kept and probabilities conditioned."""
    m, phi = case
    from kop.syntax.formula import Announce, Atom

    ann = data.draw(st.sampled_from([Atom("p"), Atom("q"), parse("~p | q"), parse("B_a p") if "a" in m.agents
                                     else Atom("r")]))
    after = m.announce(ann)
    here = m.truth_set(Announce(ann, phi))
    for w in after.worlds:
        assert (w in here) == after.satisfies(phi, w)
    assert after.truth_set(phi) == naive_truth_set(after, phi)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(uncertain_models())
def test_json_round_trip_keeps_plausibility_and_probability(m):
    back = KripkeModel.from_json(json.dumps(m.to_json()))
    assert back == m
    assert back.to_json() == m.to_json()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(uncertain_models(), st.sampled_from(["p", "q", "p & ~q"]), st.sampled_from(["radical", "conservative"]))
def test_upgrades_by_their_definitions(m, phi, kind):
    """Radical: in every cell the φ-worlds come first, each zone in its old order; conservative: the best
    φ-worlds of each cell come first, the rest in the old order."""
    up = m.upgrade(phi, kind)
    good = m.truth_set(phi)
    assert up.worlds == m.worlds and all(up.valuation(w) == m.valuation(w) for w in m.worlds)
    for a in m.agents:
        for cell in m.partition(a):
            old = {w: m.rank(a, w) for w in cell}
            new = {w: up.rank(a, w) for w in cell}
            best_good = [w for w in cell if w in good and old[w] == min(old[v] for v in cell if v in good)] \
                if any(w in good for w in cell) else []
            for u in cell:
                for v in cell:
                    if kind == "radical":
                        if (u in good) != (v in good):
                            assert (new[u] < new[v]) == (u in good)
                        else:
                            assert (new[u] < new[v]) == (old[u] < old[v])
                    else:
                        if u in best_good and v not in best_good:
                            assert new[u] < new[v]
                        elif u not in best_good and v not in best_good:
                            assert (new[u] < new[v]) == (old[u] < old[v])
        if best_good := [w for w in m.worlds if w in good]:
            assert up.satisfies(f"B_{a} ({phi})", best_good[0])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(uncertain_models_and_formulas(max_leaves=8))
def test_laws_of_belief_and_probability(case):
    """nnf is equivalent; knowledge implies belief and probability 1; belief is consistent (KD45's D)
    and introspective; P_a(φ) + P_a(~φ) = 1 where the cell has weight; B_a is K_a without an order."""
    m, phi = case
    assert m.truth_set(phi.nnf()) == m.truth_set(phi)
    everywhere = frozenset(m.worlds)
    for a in m.agents:
        for law in [f"K_{a} X -> B_{a} X", f"K_{a} X -> P_{a}(X) = 1 | P_{a}(true) = 0", f"~B_{a} false",
                    f"B_{a} X -> K_{a} B_{a} X", f"B_{a}(X, X)", f"P_{a}(X) >= 1/2 <-> P_{a}(~X) <= 1/2"]:
            from kop.syntax.formula import Atom

            f = parse(law.replace("X", "Z"))
            f = _substitute(f, Atom("Z"), phi)
            assert m.truth_set(f) == everywhere, law
        if a not in m.to_json().get("plausibility", {}):
            assert m.truth_set(parse(f"B_{a} Z").__class__(a, phi)) == m.truth_set(parse(f"K_{a} Z").__class__(a, phi))


def _substitute(f, old, new):
    from kop.syntax import formula as F

    if f == old:
        return new
    if isinstance(f, F.Atom) or isinstance(f, (F.Top, F.Bottom)):
        return f
    if isinstance(f, (F.And, F.Or)):
        return type(f)(*(_substitute(x, old, new) for x in f.args))
    if isinstance(f, F.Probability):
        return F.Probability(f.agent, _substitute(f.arg, old, new), f.relation, f.bound)
    values = [(_substitute(v, old, new) if isinstance(v, F.Formula) else v) for v in f._init_args()]
    return type(f)(*values)


# -- classic examples -----------------------------------------------------------------

def _coin():
    """Ann believes the coin shows heads, but it shows tails; Bob saw it."""
    return KripkeModel({"heads": ["h"], "tails": []}, {"ann": [["heads", "tails"]], "bob": [["heads"], ["tails"]]},
                       actual="tails", plausibility={"ann": {"heads": 0, "tails": 1}},
                       probability={"ann": {"heads": "3/4", "tails": "1/4"}})


def test_belief_false_at_the_actual_world_knowledge_never():
    m = _coin()
    assert m.satisfies("B_ann h & ~h")              # a false belief
    assert m.satisfies("~K_ann h & ~K_ann ~h")        # not knowledge
    assert m.satisfies("K_bob ~h & B_bob ~h")         # no order: belief is knowledge
    assert m.satisfies("~K_ann B_bob ~h & M_ann B_bob ~h")     # Ann does not know what Bob believes
    assert m.satisfies("P_ann(h) = 3/4 & P_ann(~h) < 0.3 & P_bob(h) = 0")
    assert m.probability("ann", "h") == Fraction(3, 4)


def test_belief_revision_by_announcement_and_by_upgrade():
    m = _coin()
    told = m.announce("~h")                           # hard information: the heads world goes
    assert told.satisfies("B_ann ~h & K_ann ~h & P_ann(~h) = 1")
    assert m.satisfies("[!~h] B_ann ~h & B_ann(~h, ~h) & ~B_ann ~h")
    soft = m.upgrade("~h")                             # soft information: tails becomes more plausible
    assert soft.satisfies("B_ann ~h & ~K_ann ~h & P_ann(~h) = 1/4")
    assert m.upgrade("~h", "conservative").satisfies("B_ann ~h")


def test_conditional_belief_is_about_the_best_condition_worlds():
    m = KripkeModel({"w0": ["p", "q"], "w1": ["p"], "w2": []}, {"a": [["w0", "w1", "w2"]]}, actual="w0",
                    plausibility={"a": {"w2": 0, "w1": 1, "w0": 2}})
    assert m.satisfies("B_a ~p & B_a(p, ~q) & B_a(p & q, q) & B_a(false, false)")
    assert not m.satisfies("B_a(p, q)")


def test_kooi_zero_probability_announcement_is_ignored():
    """An agent that gave the announcement probability 0 keeps its measure (Kooi): P_a(true) stays 1 (issue 29)."""
    m = KripkeModel({"u": ["p"], "v": [], "x": ["p"]}, {"a": [["u", "v", "x"]]}, actual="u",
                    probability={"a": {"v": 1}})
    assert m.satisfies("P_a(p) = 0")
    after = m.announce("p")
    assert after.satisfies("P_a(true) = 1 & P_a(p) = 0 & K_a p & ~(P_a(p) > 0)")
    assert m.satisfies("[!p] P_a(true) = 1")
    for text in ["[!p] P_a(true) = 1", "[!p] P_a(p) >= 1/2", "[!p] P_a(p) <= 1/2", "[!p] P_a(p) > 0",
                 "[!p] P_a(p) < 1", "<!p> P_a(true) = 1"]:
        phi = parse(text)
        assert m.truth_set(phi) == _numpy_set(m, phi) == naive_truth_set(m, phi), text


def test_probabilities_are_exact_and_renormalized_per_cell():
    m = KripkeModel({"w0": ["p"], "w1": [], "w2": ["p"]}, {"a": [["w0", "w1"], ["w2"]]}, actual="w0",
                    probability={"a": {"w0": 0.1, "w1": 0.2, "w2": "5"}})
    assert m.probability("a", "p") == Fraction(1, 3)
    assert m.satisfies("P_a(p) = 1/3 & P_a(p) < 0.3334 & P_a(p) > 0.3333")
    assert m.satisfies("P_a(p) = 1", "w2")


def test_large_models_use_numpy_and_agree_with_the_bitset_checker():
    import numpy as np

    n = 300
    rng = np.random.default_rng(1)
    ids = rng.integers(0, 40, n)
    m = KripkeModel.from_arrays(n, {"a": ids}, {"p": rng.random(n) < 0.5, "q": rng.random(n) < 0.3},
                                plausibility={"a": rng.integers(0, 4, n)},
                                probability={"a": [str(Fraction(int(k), 7)) for k in rng.integers(1, 9, n)]})
    small = KripkeModel.from_json(m.to_json())
    for text in ["B_a p", "B_a(q, p)", "P_a(p) >= 1/2", "P_a(p & q) < 1/5", "[!q] P_a(p) = 1", "[!p] B_a q"]:
        phi = parse(text)
        assert m.truth_set(phi) == naive_truth_set(small, phi), text


# -- bad input --------------------------------------------------------------------------

_BASE = {"agents": ["a"], "worlds": {"w1": ["p"], "w2": []}, "relations": {"a": [["w1", "w2"]]},
         "actual": ["w1"]}


@pytest.mark.parametrize("extra, message", [
    ({"probability": {"a": {"w1": "-1/3", "w2": "1"}}}, "$.probability.a.w1: a probability must not be negative"),
    ({"probability": {"a": {"w1": -0.5, "w2": 1}}}, "$.probability.a.w1: a probability must not be negative"),
    ({"probability": {"a": {"w1": "one third"}}}, "$.probability.a.w1: 'one third' is not a number"),
    ({"probability": {"a": {"w1": "1/0"}}}, "$.probability.a.w1: '1/0' divides by zero"),
    ({"probability": {"a": {"w1": 0, "w2": "0"}}}, "$.probability.a: agent 'a' gives no weight to its cell {w1, w2}"),
    ({"probability": {"a": {}}}, "$.probability.a: agent 'a' gives no weight"),
    ({"probability": {"a": {"w1": "1e999999999"}}}, "$.probability.a.w1: '1e999999999' is not a number"),
    ({"probability": {"b": {"w1": 1}}}, "$.probability.b: unknown agent 'b'"),
    ({"probability": {"a": {"w1": True}}}, "$.probability.a.w1: expected"),
    ({"plausibility": {"a": {"w9": 0}}}, "$.plausibility.a.w9: unknown world 'w9'"),
    ({"plausibility": {"a": {"w1": 1.5}}}, "$.plausibility.a.w1: expected integer"),
    ({"plausibility": {"a": ["w1"]}}, "$.plausibility.a: expected object"),
])
def test_bad_plausibility_and_probability_are_located(extra, message):
    with pytest.raises(ModelError) as info:
        KripkeModel.from_json(json.dumps({**_BASE, **extra}))
    assert message in str(info.value)


def test_operations_without_plausibility_say_so():
    m = _coin()
    with pytest.raises(ModelError, match="does not handle plausibility or probability"):
        m.minimize()
    with pytest.raises(ModelError, match="unknown upgrade"):
        m.upgrade("h", "lexicographic")


def test_cli_announce_and_upgrade(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    model = str(root / "theories" / "coin_belief.model.json")

    def kop(*args):
        return subprocess.run([sys.executable, "-m", "kop", *args], capture_output=True, text=True, cwd=root,
                              timeout=120)

    r = kop("announce", model, "~h", "-o", str(tmp_path / "told.json"))
    assert r.returncode == 0, r.stderr
    told = KripkeModel.load(tmp_path / "told.json")
    assert told.worlds == ("tails",) and told.satisfies("B_ann ~h & P_ann(~h) = 1")
    r = kop("announce", model, "~h", "--upgrade", "radical", "-o", str(tmp_path / "hint.json"))
    assert r.returncode == 0, r.stderr
    hint = KripkeModel.load(tmp_path / "hint.json")
    assert hint.worlds == ("heads", "tails") and hint.satisfies("B_ann ~h & ~K_ann ~h & P_ann(h) = 3/4")
    r = kop("check", model, "P_ann(h) >= 3/4 & B_ann h", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["holds"] is True
