"""The subsequence rule for knowledge chains and the memoized entailment layer, against the prover.

The reference is the prover itself (:func:`kop.reasoning.prover.entails`),
whose answers are checked models; the chain rule must agree with it on every
random set of chains, and its countermodels must check.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from formula_strategies import formulas
from profiles import examples
from kop import parse
from kop.reasoning.chains import chain_countermodel, chain_entails, chains_of, collapse, is_subsequence
from kop import config
from kop.reasoning.entailment import cache_info, cached_entails, clear_cache, consistent, follows
from kop.reasoning.errors import AgentError
from kop.reasoning.limits import Deadline
from kop.reasoning.prover import entails, valid
from kop.syntax import formula as F

AGENTS = ["a", "b", "c"]
ATOMS = ["p", "q"]


def _chain(atom: str, agents: list[str]) -> F.Formula:
    f: F.Formula = F.Atom(atom)
    for a in reversed(agents):
        f = F.Know(a, f)
    return f


chains = st.builds(_chain, st.sampled_from(ATOMS), st.lists(st.sampled_from(AGENTS), max_size=4))
chain_sets = st.lists(chains, min_size=0, max_size=4)


# -- the rule itself ---------------------------------------------------------------------------------------------

def _brute_subsequence(short, long) -> bool:
    from itertools import combinations

    return any(tuple(long[i] for i in idx) == tuple(short) for idx in combinations(range(len(long)), len(short)))


@given(st.lists(st.sampled_from("ab"), max_size=5), st.lists(st.sampled_from("ab"), max_size=6))
def test_is_subsequence_matches_brute_force(short, long):
    assert is_subsequence(short, long) == _brute_subsequence(short, long)


@given(st.lists(st.sampled_from("abc"), max_size=8))
def test_collapse_has_no_adjacent_repeats_and_keeps_the_order(xs):
    c = collapse(xs)
    assert all(x != y for x, y in zip(c, c[1:]))
    assert is_subsequence(c, xs) and set(c) == set(xs)


@settings(max_examples=examples(500, quick=60))
@given(chain_sets, chains)
def test_subsequence_rule_matches_the_prover(premises, phi):
    ans = chain_entails(premises, phi)
    assert ans is not None
    assert ans == entails(premises, phi).holds


@given(chain_sets, st.lists(chains, min_size=1, max_size=3))
def test_conjunctions_of_chains_match_the_prover(premises, goals):
    phi = F.conj(goals)
    assert chain_entails(premises, phi) == entails(premises, phi).holds


@given(chain_sets, chains)
def test_the_line_countermodel_checks(premises, phi):
    m = chain_countermodel(premises, phi, AGENTS)
    if chain_entails(premises, phi):
        assert m is None
    else:
        assert m is not None and set(m.agents) >= set(AGENTS)
        assert m.satisfies(F.conj(tuple(premises) + (F.Not(phi),)), "w0")


positive = st.recursive(
    st.one_of(st.sampled_from(ATOMS).map(F.Atom), st.just(F.TRUE)),
    lambda kids: st.one_of(
        st.lists(kids, min_size=2, max_size=3).map(lambda xs: F.And(*xs)),
        st.tuples(st.sampled_from(AGENTS), kids).map(lambda t: F.Know(*t)),
        st.tuples(st.lists(st.sampled_from(AGENTS), min_size=1, max_size=2), kids).map(lambda t: F.Everyone(*t))),
    max_leaves=5)


def _announcement(draw):
    atoms = draw(st.lists(st.sampled_from(ATOMS), min_size=1, max_size=2))
    ann = F.conj(tuple(F.Atom(x) for x in atoms))
    inner = draw(formulas(agents=AGENTS, atoms=atoms, max_leaves=4, announcements=False))
    kind = draw(st.sampled_from([F.Announce, F.AnnounceDual]))
    return kind(ann, inner)


announcements = st.composite(lambda draw: _announcement(draw))()


@given(st.one_of(positive, announcements))
def test_the_chain_form_is_equivalent_to_the_formula(f):
    cs = chains_of(f)
    if cs is None:                   # outside the fragment (an announced atom missing): nothing claimed
        assert isinstance(f, (F.Announce, F.AnnounceDual))
        return
    assert valid(F.Iff(f, F.conj(tuple(_chain(x, list(s)) for x, s in sorted(cs))))).holds


def test_the_chain_form_of_e_and_announcements():
    assert chains_of(parse("E{a,b} K_a p")) == {("p", ("a",)), ("p", ("b", "a"))}
    assert chains_of(parse("<!p & q> C{a,b}(p & K_a q)")) == {("p", ()), ("q", ())}
    assert chains_of(parse("[!p] E{a,b} p")) == frozenset()
    assert chains_of(parse("<!p> K_a q")) is None            # q is not announced: not exact
    assert chains_of(parse("<!K_a p> K_a p")) is None        # only atoms announced


@pytest.mark.parametrize("text", ["~p", "p | q", "K_a ~p", "M_a p", "C{a,b} p", "D{a,b} p", "p -> q", "false",
                                  "Kw_a p", "C{a,b}(q, p)"])
def test_outside_the_fragment_the_rule_abstains(text):
    assert chains_of(parse(text)) is None
    assert chain_entails([parse("K_a p")], parse(text)) is None
    assert chain_entails([parse(text)], parse("p")) is None


def test_long_chains_and_deep_nesting():
    deep = _chain("p", ["a", "b"] * 450)                   # 900 operators: read in a loop, no recursion
    assert chains_of(deep) == {("p", ("a", "b") * 450)}
    assert follows([deep], "K_a K_b p") and not follows([deep], _chain("p", ["b", "a"] * 450))
    nested: F.Formula = F.Atom("p")
    for _ in range(300):                                    # deep nesting of & goes to the prover
        nested = F.And(nested, F.Atom("q"))
    assert chains_of(nested) is None
    assert follows([nested], "p")


# -- the memoized layer ------------------------------------------------------------------------------------------

mixed = formulas(agents=["a", "b"], atoms=["p"], max_leaves=4, announcements=False)


@given(st.lists(st.one_of(chains, mixed), max_size=3), st.one_of(chains, mixed))
def test_cached_entails_agrees_with_the_prover(premises, phi):
    v = cached_entails(premises, phi)
    assert v.holds == entails(premises, phi).holds
    assert follows(premises, phi) == v.holds
    assert cached_entails(list(reversed(premises)), phi).holds == v.holds      # the premises as a set
    if not v.holds:
        assert v.countermodel.satisfies(F.conj(tuple(premises) + (F.Not(phi),)), "w0")


@given(st.lists(st.one_of(chains, mixed), min_size=1, max_size=3))
def test_consistent_agrees_with_the_prover(premises):
    from kop.reasoning.prover import satisfiable

    assert consistent(premises) == satisfiable(F.conj(premises)).holds


@config.fresh_caches()
def test_answers_are_remembered_per_knowledge_set():
    ks = [parse("K_A K_B E_A"), parse("K_B E_B")]
    assert follows(ks, "K_A E_A")
    assert follows(list(reversed(ks)), "K_A E_A")
    info = cache_info()
    assert (info["hits"], info["misses"], info["chains"], info["entries"]) == (1, 1, 1, 1)
    # a remembered refutation without a countermodel is recomputed when one is wanted
    assert not follows(["K_a p | K_b p"], "K_a p")
    v = cached_entails(["K_a p | K_b p"], "K_a p")
    assert not v.holds and v.countermodel.satisfies("(K_a p | K_b p) & ~K_a p", "w0")
    assert cache_info()["misses"] == 3


def test_the_table_is_bounded():
    import kop.reasoning.entailment as E

    small = config.Caches()
    small.memo(E.MEMO, 3)          # the first to ask fixes the size
    with config.using(caches=small):
        for i in range(6):
            assert follows([f"K_a p{i}"], f"p{i}")
        assert cache_info()["entries"] == 3


@config.fresh_caches()
def test_clear_cache_clears_the_caches_in_force_only():
    assert follows(["K_a p"], "p")
    with config.fresh_caches():
        assert follows(["K_b q"], "q")
        clear_cache()
        assert cache_info()["entries"] == 0
    assert cache_info()["entries"] == 1


def test_the_provers_checks_still_apply():
    with pytest.raises(AgentError):
        follows(["K_a p"], "K_z p", agents=["a"])
    with pytest.raises(AgentError):
        cached_entails(["K_z p"], "p", agents=["a"])
    with pytest.raises(AgentError):
        consistent(["K_z p"], agents=["a"])


@config.fresh_caches()
def test_other_methods_skip_the_rule():
    v = cached_entails(["K_a K_b p"], "K_b p", method="sat")
    assert v.holds and v.stats["method"] == "sat"
    assert cache_info()["chains"] == 0
    assert follows(["K_a p"], "K_a p", deadline=Deadline(30))
