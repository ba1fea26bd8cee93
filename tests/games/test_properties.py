"""Hypothesis properties over thousands of random trees.

* the vectorized engine agrees with the recursive references at every node
  (minimax, alpha-beta, M^h, HM0M^d, M^d, Algorithm 2, play), with ties,
  chance nodes, both tie-breaks, both goal conventions and three players;
* Theorems 3, 4, 5, 7, Corollary 4 and Proposition (3) of Sang & Chen.

Chance probabilities are multiples of 1/1024 and payoffs integers, so
expectations are exact and ties are real ties.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

import kop
from tree_strategies import arbitrary_strategy, game_trees
from kop.games.strategies.reference import (ref_hm0m, ref_mh, ref_minimax, ref_mstar, ref_mstar_algorithm2,
                                 ref_play)

MANY = settings(max_examples=examples(1000), deadline=None)
SOME = settings(max_examples=examples(300), deadline=None)


def trees(players=2, chance=True, distinct=False, goals=None):
    """Random trees drawn node by node (see tests/tree_strategies.py), so failures shrink."""
    return game_trees(players, chance=chance, distinct=distinct, goals=goals, max_depth=5, max_branching=3)


ties = st.sampled_from(["first", "last"])


def same(tree, fast, ref):
    for n in tree.nodes():
        assert fast.value_at(n) == ref.value_at(n), n
        if not (n.is_leaf or n.is_chance):
            assert fast.next(n) == ref.next(n), n


def better_or_equal(tree, player, x, y):
    """x is at least as good as y for *player* by its goal."""
    j = tree.player_index(player)
    return tree.players[j].sign * (x[j] - y[j]) >= 0


# -- engine against the references ---------------------------------------------

@MANY
@given(trees(players=(2, 3)), ties, st.data())
def test_minimax_alphabeta_mh_match_references(t, tie, data):
    p = data.draw(st.sampled_from(t.player_names))
    ref = ref_minimax(t, p, tie)
    same(t, kop.minimax(t, p, tie=tie), ref)
    ab = kop.alphabeta(t, p, tie=tie)
    assert ab.value == ref.value and ab.path == ref.path
    for n in t.nodes():
        if not n.is_leaf and not n.is_chance:
            assert ab.next(n) == ref.next(n)
    same(t, kop.mh(t, tie=tie), ref_mh(t, tie))


@MANY
@given(trees(players=(2, 3)), ties, st.integers(0, 6), st.data())
def test_hm0m_matches_reference(t, tie, d, data):
    p = data.draw(st.sampled_from(t.player_names))
    same(t, kop.hm0m(t, d, p, tie=tie), ref_hm0m(t, d, p, tie))


@MANY
@given(trees(players=(2, 3)), ties, st.integers(0, 5), st.data())
def test_mstar_matches_recursive_definition(t, tie, d, data):
    p = data.draw(st.sampled_from(t.player_names))
    same(t, kop.mstar(t, d, p, tie=tie), ref_mstar(t, d, p, tie))


@MANY
@given(trees(), ties, st.integers(0, 6), st.sampled_from("AB"))
def test_algorithm2_with_erratum_matches_recursive_definition(t, tie, d, caller):
    """SPEC 3.2: bottom-up Algorithm 2 with XNOR makes the recursive definition's choices."""
    alg = ref_mstar_algorithm2(t, d, caller, tie)
    rec = ref_mstar(t, d, caller, tie)
    for n in t.nodes():
        if n.player == caller:
            assert alg.next(n) == rec.next(n)
    assert alg.value == rec.value


def test_algorithm2_as_printed_disagrees_often():
    """The XOR of the printed Algorithm 2 gives other choices on a large share of random cases."""
    differ = cases = 0
    for seed in range(300):
        t = kop.random_tree(depth=4, branching=(1, 3), leaf_prob=0.2, seed=seed)
        for d in range(1, 4):
            for caller in "AB":
                cases += 1
                rec = ref_mstar(t, d, caller)
                printed = ref_mstar_algorithm2(t, d, caller, printed=True)
                fixed = ref_mstar_algorithm2(t, d, caller)
                own = [n for n in t.nodes() if n.player == caller]
                assert all(fixed.next(n) == rec.next(n) for n in own)
                differ += any(printed.next(n) != rec.next(n) for n in own)
    assert differ > cases // 10, (differ, cases)


@MANY
@given(trees(players=(2, 3)), ties, st.data())
def test_play_matches_reference(t, tie, data):
    strategies = {}
    for p in t.player_names:
        name = data.draw(st.sampled_from(["minimax", "alphabeta", "Mh", "M1", "M2", "HM0M1", "random"]))
        strategies[p] = (arbitrary_strategy(data, t) if name == "random"
                         else kop.strategy(t, name, p, tie=tie))
    out = kop.play(t, strategies, tie=tie)
    assert out.value == t.value_of(ref_play(t, strategies))
    assert out.path[0] == t.root
    for a, b in zip(out.path, out.path[1:]):
        assert b.parent == a and strategies[a.player].next(a) == b


# -- theorems ------------------------------------------------------------------

@MANY
@given(trees(players=(2, 3)), ties, st.integers(0, 2), st.data())
def test_theorem3_mstar_beyond_height_is_mh(t, tie, extra, data):
    p = data.draw(st.sampled_from(t.player_names))
    m = kop.mstar(t, t.height + extra, p, tie=tie)
    h = kop.mh(t, tie=tie)
    assert np.array_equal(m.next_array, h.next_array)
    assert np.array_equal(m.value_array(), h.value_array())


@MANY
@given(trees(players=(2, 3), chance=False, distinct=True), st.data())
def test_theorem4_mh_finds_a_planted_global_optimum(t, data):
    leaves = list(t.leaves())
    g = leaves[data.draw(st.integers(0, len(leaves) - 1))]
    pay = t.payoffs.copy()
    row = t.leaf_rows()[g.index]
    for j, p in enumerate(t.players):   # strictly best for everybody
        pay[row, j] = pay[:, j].max() + 1 if p.goal == "max" else pay[:, j].min() - 1
    t2 = kop.GameTree(t.players, t.offsets, t.kind, pay, integral=True)
    assert kop.global_optimum(t2).index == g.index
    assert kop.mh(t2).value == t2.node(g.index).payoff
    assert kop.play(t2, {p: "Mh" for p in t2.player_names}).leaf.index == g.index


@MANY
@given(trees(players=(2, 3), chance=False, distinct=True))
def test_theorem4_on_natural_optima(t):
    g = kop.global_optimum(t)
    if g is not None:
        assert kop.mh(t).value == g.payoff


@MANY
@given(trees(players=(2, 3)), ties, st.data())
def test_theorem5_no_strategy_beats_mh_against_mh(t, tie, data):
    mh = kop.mh(t, tie=tie)
    base = kop.play(t, {p: mh for p in t.player_names}).value
    for p in t.player_names:
        rivals = [arbitrary_strategy(data, t), kop.minimax(t, p, tie=tie), kop.mstar(t, 1, p, tie=tie),
                  kop.mstar(t, 2, p, tie=tie), kop.hm0m(t, 1, p, tie=tie)]
        for s in rivals:
            profile = {q: mh for q in t.player_names}
            profile[p] = s
            assert better_or_equal(t, p, base, kop.play(t, profile).value)


@MANY
@given(trees(players=(2, 3)), ties, st.data())
def test_theorem7_mh_at_least_minimax(t, tie, data):
    p = data.draw(st.sampled_from(t.player_names))
    assert better_or_equal(t, p, kop.mh(t, tie=tie).value, kop.minimax(t, p, tie=tie).value)


@MANY
@given(trees(), ties, st.sampled_from("AB"))
def test_corollary4_hm0m_chain(t, tie, p):
    values = [kop.mh(t, tie=tie).value]
    values += [kop.hm0m(t, d, p, tie=tie).value for d in range(t.height, -1, -1)]
    values.append(kop.minimax(t, p, tie=tie).value)
    for x, y in zip(values, values[1:]):
        assert better_or_equal(t, p, x, y)


@MANY
@given(trees(), ties, st.integers(1, 6), st.sampled_from("AB"))
def test_proposition3_mstar_at_least_minimax_against_mstar(t, tie, d, p):
    q = "B" if p == "A" else "A"
    opp = kop.mstar(t, d - 1, q, tie=tie)
    with_md = kop.play(t, {p: kop.mstar(t, d, p, tie=tie), q: opp}).value
    with_minimax = kop.play(t, {p: kop.minimax(t, p, tie=tie), q: opp}).value
    assert better_or_equal(t, p, with_md, with_minimax)


@SOME
@given(trees(), ties)
def test_definition1_invariant(t, tie):
    for s in (kop.minimax(t, tie=tie), kop.mh(t, tie=tie), kop.mstar(t, 2, tie=tie), kop.hm0m(t, 1, tie=tie)):
        for n in t.nodes():
            c = s.next(n)
            if n.is_leaf or n.is_chance:
                assert c is None
            else:
                assert c.parent == n and s.value_at(n) == s.value_at(c)
