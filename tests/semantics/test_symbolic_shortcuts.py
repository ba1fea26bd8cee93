"""The symbolic checker's shortcuts agree with the definitions.

* ``Kw_a x`` for an agent that observes every atom but x is computed as one
  quantification (``¬∀x θ``); it must equal ``K_a x | K_a ~x`` (the general
  translation) and the explicit model's truth set.
* Formulas equal to ones translated before, but other objects, get the same
  answers (the translator keeps the object it met first).
* A manager declares many variables at once in the vocabulary's order.
* The dining cryptographers' law, stated in O(n) subformulas, is the pairwise
  "no two paid" of SMCDEL's ``genDcKnsInit``.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kop.puzzles import dining_cryptographers as dc
from kop.semantics.model import KripkeModel
from kop.semantics.symbolic import KnowledgeStructure
from kop.bdd.manager import available_backends, manager
from kop.syntax import formula as F
from kop.syntax.parser import parse

ATOMS = ["p", "q", "r", "s"]


@st.composite
def one_hidden(draw):
    """A random law over 2-4 atoms (by its models), agent a blind to one atom x only,
    agent b observing a random subset; and x."""
    k = draw(st.integers(2, 4))
    vocab = ATOMS[:k]
    keep = draw(st.lists(st.booleans(), min_size=1 << k, max_size=1 << k))
    law = F.disj(F.conj(F.Atom(p) if i >> j & 1 else F.Not(F.Atom(p)) for j, p in enumerate(vocab))
                 for i, kept in enumerate(keep) if kept)
    x = draw(st.sampled_from(vocab))
    obs = {"a": [p for p in vocab if p != x], "b": [p for p in vocab if draw(st.booleans())]}
    return vocab, law, obs, x


def _states(m, vocab, phi):
    """The explicit model's worlds where *phi* holds, as sets of true atoms (worlds are
    named ``w`` and one digit per atom)."""
    return {frozenset(p for j, p in enumerate(vocab) if w[1 + j] == "1") for w in m.truth_set(phi)}


@settings(max_examples=300, deadline=None)
@given(one_hidden(), st.sampled_from(available_backends()), st.booleans())
def test_know_whether_one_hidden_atom(case, backend, announce):
    vocab, law, obs, x = case
    ks = KnowledgeStructure(vocab, law, obs, backend=backend)
    m = KripkeModel.from_observations(vocab, law, obs)
    if announce:  # a law that is a BDD, not the formula given
        ks, m = ks.announce("~K_b p | q"), m.announce(parse("~K_b p | q"))
    for arg in (F.Atom(x), F.Not(F.Atom(x))):
        fast = ks.truth_bdd(F.KnowWhether("a", arg))
        general = ks.truth_bdd(F.Or(F.Know("a", arg), F.Know("a", F.Not(arg))))
        assert fast == general
        assert set(ks.states(F.KnowWhether("a", arg))) == _states(m, vocab, F.KnowWhether("a", arg))
        # nested under another operator, and negated (the generator-free nodes)
        nested = F.Not(F.Know("b", F.Not(F.KnowWhether("a", arg))))
        assert set(ks.states(nested)) == _states(m, vocab, nested)


def test_equal_formulas_other_objects_same_answers():
    ks = KnowledgeStructure("p q", "p | q", {"a": "p", "b": "q"}, actual={"p"})
    first = parse("~Kw_a q & M_b p")
    again = parse("~Kw_a q & M_b p")
    assert first == again and first is not again
    assert ks.count(first) == ks.count(again) == ks.count("~(K_a q | K_a ~q) & M_b p")
    assert ks.announce(first) == ks.announce(again)


def test_many_variables_declared_in_order():
    vocab = [f"v{i}" for i in range(50)]
    for backend in available_backends():
        m = manager(backend, vocab)
        m.declare(vocab + ["w1", "w2", "w3"])
        order = sorted(vocab + ["w1", "w2", "w3"], key=lambda v: m.level(m.var(v)))
        assert order == vocab + ["w1", "w2", "w3"]


def test_dining_law_is_no_two_paid():
    for n in range(1, 9):
        pairwise = F.conj(F.Not(dc.paid(i) & dc.paid(j)) for i in range(n + 1) for j in range(i + 1, n + 1))
        vocab = [dc.paid(i).name for i in range(n + 1)]
        ks = KnowledgeStructure(vocab, "true", {"a": vocab})
        assert ks.valid(F.Iff(pairwise, dc._no_two(n)))


@settings(max_examples=200, deadline=None)
@given(one_hidden(), st.sampled_from(available_backends()))
def test_evaluate_again_at_a_point(case, backend):
    """The second evaluation at an assignment (one conjunction with the point's BDD)
    agrees with the first (a walk from the root) and with the explicit model."""
    vocab, law, obs, _ = case
    ks = KnowledgeStructure(vocab, law, obs, backend=backend)
    m = KripkeModel.from_observations(vocab, law, obs)
    mgr = ks._tr.mgr
    for phi in (parse("K_a p | ~K_b p"), parse("p -> M_b ~p")):
        u = ks.truth_bdd(phi)
        holds = _states(m, vocab, phi)
        for bits in range(1 << len(vocab)):
            s = frozenset(p for j, p in enumerate(vocab) if bits >> j & 1)
            first, again = mgr.evaluate(u, s), mgr.evaluate(u, set(s))
            assert first == again == (s in holds)


@st.composite
def conjunctions(draw):
    """A conjunction or disjunction of 2-5 arguments, each ``Kw_a x`` (a blind to x only),
    ``Kw_a`` of another atom, ``K_b p`` or an atom, negated 0-2 times; *x* as in one_hidden."""
    vocab, law, obs, x = draw(one_hidden())
    other = draw(st.sampled_from(vocab))
    cores = [F.KnowWhether("a", F.Atom(x)), F.KnowWhether("a", F.Atom(other)), F.Know("b", F.Atom(vocab[0])),
             F.Atom(other)]
    args = []
    for _ in range(draw(st.integers(2, 5))):
        a = draw(st.sampled_from(cores))
        for _ in range(draw(st.integers(0, 2))):
            a = F.Not(a)
        args.append(a)
    phi = (F.And if draw(st.booleans()) else F.Or)(*args)
    return vocab, law, obs, phi


@settings(max_examples=200, deadline=None)
@given(conjunctions(), st.sampled_from(available_backends()))
def test_conjunction_of_know_whether_one_hidden_atom(case, backend):
    """A conjunction or disjunction walks a plan kept per formula (``Kw_a x`` for the one
    hidden atom as one quantification): it agrees with the explicit model on the
    structure, after an announcement (the same formula object under another law), and
    inside an announcement (another depth)."""
    vocab, law, obs, phi = case
    ks = KnowledgeStructure(vocab, law, obs, backend=backend)
    m = KripkeModel.from_observations(vocab, law, obs)
    assert set(ks.states(phi)) == _states(m, vocab, phi)
    announced = ks.announce(phi)
    m2 = m.announce(phi)
    assert set(announced.states(phi)) == _states(m2, vocab, phi)
    assert announced.count() == len(m2.worlds)
    inside = F.Announce(F.Not(F.Know("b", F.Atom(vocab[-1]))), phi)
    assert set(ks.states(inside)) == _states(m, vocab, inside)
