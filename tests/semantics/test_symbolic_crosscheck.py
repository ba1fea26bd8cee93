"""The symbolic (BDD) checker agrees with the explicit checker on random knowledge structures.

Each case is a random structure (3-6 atoms, 1-3 agents, a random propositional
law, random observables) and a random formula over the whole language; the
explicit model is ``KripkeModel.from_observations`` with the same arguments.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples

from formula_strategies import formulas
from kop.semantics.model import KripkeModel
from kop.semantics.symbolic import KnowledgeStructure
from kop.syntax import formula as F

ATOMS = ["p", "q", "r", "s", "t", "u"]
AGENTS = ["a", "b", "c"]
_CACHE: dict = {}


def _cached(key, make):
    if key not in _CACHE:
        _CACHE[key] = make()
    return _CACHE[key]


def laws(atoms):
    return _cached(("law", tuple(atoms)), lambda: formulas(atoms=list(atoms), max_leaves=6, modal=False))


def formulas_over(agents, atoms, max_leaves=10):
    return _cached(("phi", tuple(agents), tuple(atoms), max_leaves),
                   lambda: formulas(agents=list(agents), atoms=list(atoms), max_leaves=max_leaves))


@st.composite
def truth_table_laws(draw, atoms):
    """A law given by its set of models: each valuation kept with probability about 3/4."""
    keep = draw(st.lists(st.integers(0, 3), min_size=1 << len(atoms), max_size=1 << len(atoms)))
    models = [i for i, k in enumerate(keep) if k]
    return F.disj(F.conj(F.Atom(p) if i >> j & 1 else F.Not(F.Atom(p)) for j, p in enumerate(atoms))
                  for i in models)


@st.composite
def structures(draw, backend=None, min_agents=1):
    """A random vocabulary, law and observables, and the symbolic and explicit models of them."""
    k = draw(st.integers(3, 6))
    vocab = ATOMS[:k]
    agents = AGENTS[:draw(st.integers(min_agents, 3))]
    law = draw(st.one_of(laws(vocab), truth_table_laws(vocab)))
    obs = {a: [p for p in vocab if draw(st.booleans())] for a in agents}
    m = KripkeModel.from_observations(vocab, law, obs)
    ks = KnowledgeStructure(vocab, law, obs, backend=backend)
    return vocab, agents, ks, m


def states_to_worlds(vocab, states):
    return {"w" + "".join("1" if p in s else "0" for p in vocab) for s in states}


def world_to_state(vocab, w):
    return {p for p, b in zip(vocab, w[1:]) if b == "1"}


def whether(phi, psi, dual=False):
    """``[?phi] psi`` written the way SMCDEL's ``PubAnnounceW`` unfolds: both announcements."""
    if dual:
        return F.Or(F.AnnounceDual(phi, psi), F.AnnounceDual(F.Not(phi), psi))
    return F.And(F.Announce(phi, psi), F.Announce(F.Not(phi), psi))


@st.composite
def whether_stacks(draw, agents, atoms):
    """Announcing whether, nested up to 3 deep, around random formulas (and sometimes beside them)."""
    inner = draw(formulas_over(agents, atoms, 6))
    for _ in range(draw(st.integers(1, 3))):
        ann = draw(formulas_over(agents, atoms, 4))
        inner = whether(ann, inner, dual=draw(st.booleans()))
        if draw(st.booleans()):
            other = draw(formulas_over(agents, atoms, 4))
            inner = F.And(other, inner) if draw(st.booleans()) else F.Or(inner, other)
    return inner


def check_agrees(vocab, ks, m, phi):
    explicit = m.truth_set(phi)
    assert states_to_worlds(vocab, ks.states(phi)) == explicit, phi
    assert ks.count(phi) == len(explicit), phi
    assert ks.valid(phi) == (explicit == set(m.worlds)), phi
    for w in m.worlds[:3]:
        assert ks.satisfies(phi, world_to_state(vocab, w)) == (w in explicit), (phi, w)


@settings(max_examples=examples(2500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_symbolic_agrees_with_explicit(data):
    vocab, agents, ks, m = data.draw(structures())
    assert ks.count() == len(m.worlds)
    assert states_to_worlds(vocab, ks.states()) == set(m.worlds)
    phi = data.draw(formulas_over(agents, vocab))
    check_agrees(vocab, ks, m, phi)


@settings(max_examples=examples(800), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_announcing_whether_agrees_with_explicit(data):
    """The fresh-variable translation of ``[!φ]ψ & [!~φ]ψ`` against the explicit checker."""
    vocab, agents, ks, m = data.draw(structures())
    phi = data.draw(whether_stacks(agents, vocab))
    check_agrees(vocab, ks, m, phi)


@settings(max_examples=examples(800), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_announcement_and_conversion_agree_with_explicit(data):
    """``announce`` then ``to_kripke`` is the explicit model's announcement, world for world."""
    vocab, agents, ks, m = data.draw(structures())
    assert ks.to_kripke() == m
    phi = data.draw(formulas_over(agents, vocab, 6))
    psi = data.draw(formulas_over(agents, vocab, 8))
    after = ks.announce(phi)
    explicit = m.announce(phi)
    assert after.to_kripke() == explicit
    assert after.count() == len(explicit.worlds)
    assert states_to_worlds(vocab, after.states(psi)) == explicit.truth_set(psi), (phi, psi)


@settings(max_examples=examples(500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_designated_states_agree_with_explicit(data):
    vocab, agents, ks, m = data.draw(structures())
    if not m.worlds:
        return
    chosen = data.draw(st.lists(st.sampled_from(m.worlds), min_size=1, max_size=3, unique=True))
    actual = [sorted(world_to_state(vocab, w)) for w in chosen]
    ks2 = ks.with_actual(actual)
    m2 = KripkeModel.from_observations(vocab, ks.law, ks.observables, actual=actual)
    phi = data.draw(formulas_over(agents, vocab))
    assert ks2.satisfies(phi) == m2.satisfies(phi), phi
    ann = data.draw(formulas_over(agents, vocab, 5))
    a2, e2 = ks2.announce(ann), m2.announce(ann)
    assert [states_to_worlds(vocab, [s]).pop() for s in a2.actual] == list(e2.actual)
    if e2.actual:
        assert a2.satisfies(phi) == e2.satisfies(phi), (ann, phi)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_pure_python_backend_agrees_with_explicit(data):
    """kop's own BDD package (the fallback when CUDD is not available) gives the same answers."""
    vocab, agents, ks, m = data.draw(structures(backend="python"))
    phi = data.draw(formulas_over(agents, vocab, 8))
    check_agrees(vocab, ks, m, phi)
    assert ks.backend == "python"


@st.composite
def mostly_true(draw, agents, atoms, max_leaves):
    """A disjunction of random formulas: often true, so that E_G holds where C_G may fail."""
    parts = draw(st.lists(formulas_over(agents, atoms, max_leaves), min_size=1, max_size=3))
    return F.disj(parts)


@st.composite
def nearly_valid(draw, atoms):
    """False on one small subcube only: ``~(l1 & l2 & ...)`` for 2-4 random literals."""
    chosen = draw(st.lists(st.sampled_from(atoms), min_size=2, max_size=4, unique=True))
    return F.Not(F.conj(F.Atom(p) if draw(st.booleans()) else F.Not(F.Atom(p)) for p in chosen))


@st.composite
def group_formulas(draw, agents, atoms):
    """Common and relativized common knowledge over random formulas."""
    grp = draw(st.lists(st.sampled_from(agents), min_size=2, max_size=3, unique=True))
    args = st.one_of(nearly_valid(atoms), mostly_true(agents, atoms, 4))
    phi = draw(args)
    if draw(st.booleans()):
        return F.Common(grp, phi)
    cond = draw(st.one_of(nearly_valid(atoms), mostly_true(agents, atoms, 3)))
    return F.RelCommon(grp, cond, phi)


@settings(max_examples=examples(1000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_common_knowledge_agrees_with_explicit(data):
    """Groups of two or more agents, where C_G and E_G differ (about one case in ten)."""
    vocab, agents, ks, m = data.draw(structures(min_agents=2))
    phi = data.draw(group_formulas(agents, vocab))
    if data.draw(st.booleans()):
        phi = F.Not(phi) if data.draw(st.booleans()) else F.Know(agents[0], phi)
    check_agrees(vocab, ks, m, phi)
