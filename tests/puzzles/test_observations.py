"""Models from observations, and the all-SAT enumeration behind them.

Cross-checked against a naive construction: every valuation of the
vocabulary, the law evaluated recursively, blocks by comparing observed atoms.
"""

from __future__ import annotations

from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from formula_strategies import formulas
from kop import KripkeModel, parse
from kop.semantics.errors import ModelError
from kop.semantics.observations import build_from_observations, world_name
from kop.semantics.propmodels import propositional_models
from kop.syntax import formula as F
from kop.errors import KopError, LimitError

ATOMS = ["p", "q", "r", "s", "t"]
LAWS = formulas(atoms=ATOMS, max_leaves=10, modal=False)


def naive_eval(f: F.Formula, val: dict[str, bool]) -> bool:
    if isinstance(f, F.Atom):
        return val[f.name]
    if isinstance(f, F.Top):
        return True
    if isinstance(f, F.Bottom):
        return False
    if isinstance(f, F.Not):
        return not naive_eval(f.arg, val)
    if isinstance(f, F.And):
        return all(naive_eval(a, val) for a in f.args)
    if isinstance(f, F.Or):
        return any(naive_eval(a, val) for a in f.args)
    if isinstance(f, F.Implies):
        return (not naive_eval(f.left, val)) or naive_eval(f.right, val)
    if isinstance(f, F.Iff):
        return naive_eval(f.left, val) == naive_eval(f.right, val)
    raise TypeError(f)


def naive_models(f: F.Formula, atoms: list[str]) -> list[tuple[bool, ...]]:
    return [bits for bits in product([False, True], repeat=len(atoms)) if naive_eval(f, dict(zip(atoms, bits)))]


# -- the enumeration -------------------------------------------------------------

@settings(max_examples=examples(1500), deadline=None)
@given(LAWS, st.integers(0, 2))
def test_models_agree_with_naive_enumeration(law, extra):
    atoms = sorted(law.atoms()) + [f"z{i}" for i in range(extra)]
    expected = naive_models(law, atoms)
    for method in ("table", "sat"):
        got = propositional_models(law, atoms, method=method)
        assert [tuple(r) for r in got.tolist()] == expected, method


@settings(max_examples=examples(150), deadline=None)
@given(LAWS)
def test_models_agree_with_sympy(law):
    from sympy.logic.inference import satisfiable

    from kop.syntax.sympy_bridge import to_sympy

    atoms = sorted(law.atoms())
    expr = to_sympy(law)
    sym = set()
    for model in satisfiable(expr, all_models=True):
        if model is False:
            break
        names = {str(k): v for k, v in model.items()}
        free = [a for a in atoms if a not in names]
        for bits in product([False, True], repeat=len(free)):
            full = {**names, **dict(zip(free, bits))}
            sym.add(tuple(full[a] for a in atoms))
    got = {tuple(r) for r in propositional_models(law, atoms).tolist()}
    assert got == sym


def test_models_limit_and_errors():
    with pytest.raises(LimitError):
        propositional_models(parse("p | q | r"), ["p", "q", "r"], limit=6)
    with pytest.raises(LimitError):
        propositional_models(parse("p | q | r"), ["p", "q", "r"], limit=6, method="sat")
    with pytest.raises(KopError, match="not propositional"):
        propositional_models(parse("K_a p"), ["p"])
    with pytest.raises(KopError, match="outside"):
        propositional_models(parse("p & q"), ["p"])


def test_sat_back_end_on_a_wide_law():
    # 40 atoms, exactly one true: a truth table is out of the question.
    atoms = [f"x{i}" for i in range(40)]
    xs = [F.Atom(a) for a in atoms]
    law = F.conj([F.disj(xs), *(F.Not(F.And(xs[i], xs[j])) for i in range(40) for j in range(i + 1, 40))])
    rows = propositional_models(law, atoms)
    assert rows.shape == (40, 40)
    assert (rows.sum(axis=1) == 1).all()
    assert rows[0, -1] and rows[-1, 0]  # lexicographic order, first atom most significant


# -- the model ---------------------------------------------------------------------

@st.composite
def structures(draw):
    n = draw(st.integers(1, 5))
    vocab = ATOMS[:n]
    law = draw(formulas(atoms=vocab, max_leaves=8, modal=False))
    agents = draw(st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=3, unique=True))
    obs = {a: draw(st.lists(st.sampled_from(vocab), unique=True)) for a in agents}
    return vocab, law, obs


@settings(max_examples=examples(700), deadline=None)
@given(structures())
def test_model_agrees_with_naive_construction(structure):
    vocab, law, obs = structure
    valuations = naive_models(law, vocab)
    if not valuations:
        m = build_from_observations(KripkeModel, vocab, law, obs)
        assert m.is_empty
        return
    m = build_from_observations(KripkeModel, vocab, law, obs)
    names = ["w" + "".join("1" if b else "0" for b in v) for v in valuations]
    assert list(m.worlds) == names  # lexicographic order
    assert m.actual == m.worlds
    for name, v in zip(names, valuations):
        assert m.valuation(name) == {a for a, b in zip(vocab, v) if b}
        assert name == world_name(vocab, m.valuation(name))
        for agent, seen in obs.items():
            expected = {n2 for n2, v2 in zip(names, valuations)
                        if all(v[vocab.index(x)] == v2[vocab.index(x)] for x in seen)}
            assert m.block(agent, name) == expected
    assert m.agents == tuple(obs)


@settings(max_examples=examples(200), deadline=None)
@given(structures(), st.data())
def test_model_checking_on_built_models_matches_knowledge_by_observation(structure, data):
    """K_a phi holds iff phi holds at every law-world agreeing on a's observations."""
    vocab, law, obs = structure
    if not naive_models(law, vocab):
        return
    m = build_from_observations(KripkeModel, vocab, law, obs)
    phi = data.draw(formulas(atoms=vocab, max_leaves=6, modal=False))
    for agent, seen in obs.items():
        truth = m.truth_set(F.Know(agent, phi))
        for w in m.worlds:
            here = m.valuation(w)
            others = [u for u in m.worlds if all((x in m.valuation(u)) == (x in here) for x in seen)]
            expected = all(naive_eval(phi, {a: a in m.valuation(u) for a in vocab}) for u in others)
            assert (w in truth) == expected


def test_actual_worlds():
    m = build_from_observations(KripkeModel, "p q", "p | q", {"a": "p"}, actual=["q"])
    assert m.actual == ("w01",)
    m = build_from_observations(KripkeModel, "p q", "p | q", {"a": "p"}, actual=[["q"], ["p", "q"], ["q"]])
    assert m.actual == ("w01", "w11")
    m = build_from_observations(KripkeModel, "p q", "true", {"a": "p"}, actual=[])
    assert m.actual == ("w00",)
    m = build_from_observations(KripkeModel, "p q", "true", {"a": "p"}, actual="p q")
    assert m.actual == ("w11",)


def test_free_atoms_are_crossed_with_law_models():
    m = build_from_observations(KripkeModel, ["p", "q", "r"], "p <-> r", {"a": ["q"]})
    assert m.worlds == ("w000", "w010", "w101", "w111")
    assert m.block("a", "w000") == {"w000", "w101"}


def test_classmethod_and_formula_law():
    p, q = F.symbols("p q")
    m = KripkeModel.from_observations(["p", "q"], p >> q, {"a": ["p"], "b": []}, actual=["p", "q"])
    assert m.satisfies("K_a q & ~K_b p")


def test_large_vocabulary_uses_sat_and_stays_fast():
    n = 30
    vocab = [f"x{i}" for i in range(n)]
    law = F.disj(F.conj(F.Atom(v) if j == i else F.Not(F.Atom(v)) for j, v in enumerate(vocab))
                 for i in range(n))
    m = build_from_observations(KripkeModel, vocab, law, {"a": vocab[:15], "b": vocab[15:]}, actual=["x3"])
    assert len(m) == n
    assert m.satisfies("K_a x3 & ~K_b x3 & K_b ~x20")


@pytest.mark.parametrize("args, message", [
    ((["p", "p"], "true", {"a": ["p"]}), "twice"),
    ((["p", "K_a"], "true", {"a": ["p"]}), "not a valid atom"),
    ((["p"], "q", {"a": ["p"]}), "not in the vocabulary"),
    ((["p"], "K_a p", {"a": ["p"]}), "propositional"),
    ((["p"], "true", {"a": ["q"]}), "agent 'a' observes atom 'q'"),
    ((["p"], "true", {"a b": ["p"]}), "invalid agent name"),
    ((["p"], "true", ["a"]), "observables must map"),
    ((["p"], 3, {"a": ["p"]}), "the law must be"),
])
def test_errors_name_what_is_wrong(args, message):
    with pytest.raises(ModelError, match=message):
        build_from_observations(KripkeModel, *args)


def test_actual_errors():
    with pytest.raises(ModelError, match="violates the law"):
        build_from_observations(KripkeModel, "p q", "p | q", {"a": "p"}, actual=[])
    with pytest.raises(ModelError, match="'z'"):
        build_from_observations(KripkeModel, "p q", "p | q", {"a": "p"}, actual=["z"])
    with pytest.raises(ModelError, match="list of lists"):
        build_from_observations(KripkeModel, "p q", "p | q", {"a": "p"}, actual=["p", ["q"]])


def test_unsatisfiable_law_gives_the_empty_model_with_a_note():
    m = build_from_observations(KripkeModel, "p q", "p & ~p", {"a": "p"})
    assert m.is_empty and "no models" in m.note
    with pytest.raises(ModelError, match="no models"):
        m.satisfies("p")


def test_parse_errors_in_the_law_are_kop_errors():
    with pytest.raises(KopError):
        build_from_observations(KripkeModel, "p", "p &", {"a": "p"})


def test_world_limit():
    vocab = [f"x{i}" for i in range(12)]
    with pytest.raises(LimitError):
        build_from_observations(KripkeModel, vocab, "true", {"a": vocab}, max_worlds=1000)
    with pytest.raises(LimitError):
        build_from_observations(KripkeModel, vocab, "x0 | x1", {"a": vocab}, max_worlds=2000)
    assert len(build_from_observations(KripkeModel, vocab, "x0 & x1", {"a": vocab}, max_worlds=1024)) == 1024


def test_block_ids_are_compact_and_valuation_columns_contiguous():
    m = build_from_observations(KripkeModel, [f"x{i}" for i in range(8)], "x0 | x7", {"a": ["x0", "x7"], "b": []})
    ids = m.block_ids("a")
    assert sorted(set(ids.tolist())) == [0, 1, 2]
    assert np.array_equal(m.truth_mask("x0"), [("x0" in m.valuation(w)) for w in m.worlds])
