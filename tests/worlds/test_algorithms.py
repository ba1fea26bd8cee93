"""The possible-worlds algorithms: the paper's special cases, non-locality, and cross-checks.

Property tests draw the game itself (tree shape, owners, payoff vectors, belief partitions),
so failures shrink to small games.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from profiles import examples

import kop
from kop.worlds.game import LEAF, MAX, Beliefs, WorldsGame
from kop.worlds.findoptimal import findoptimal
from kop.worlds.gvm import gvm, gvm_values
from kop.worlds.mc import mc, minimax_values
from kop.worlds.optbd import optbd, strategies
from kop.worlds.plan import expected, outcome
from kop.worlds.prm import prm, reduced_payoffs
from kop.worlds.reference import best_defense_ref, gvm_ref
from kop.worlds.vm import vm

@st.composite
def trees(draw, n, max_depth=3, alternate=False, owner=None):
    if owner is None:
        owner = draw(st.sampled_from(["MAX", "MIN"]))
    if max_depth == 0 or draw(st.integers(0, 4)) == 0:
        return draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    k = draw(st.integers(1, 3))
    nxt = ("MIN" if owner == "MAX" else "MAX") if alternate else None
    return (owner, [draw(trees(n, max_depth - 1, alternate, nxt)) for _ in range(k)])


@st.composite
def games(draw, max_worlds=4, max_depth=3, alternate=False):
    n = draw(st.integers(1, max_worlds))
    root = draw(trees(n, max_depth, alternate))
    if not isinstance(root, tuple):
        root = ("MAX", [root])
    return WorldsGame.build(root)


@st.composite
def partitions(draw, n):
    return Beliefs.partition(np.array(draw(st.lists(st.integers(0, n - 1), min_size=n, max_size=n))))


@st.composite
def beliefs_of(draw, n):
    return np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n).filter(any)))


def _max_nodes(g):
    return np.flatnonzero(g.owner == MAX)


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_gvm_with_known_max_belief_is_vm(data):
    """Ω_MAX(w) = Ω⁰_MAX: gvm is vector minimaxing (against MIN's beliefs; omniscient MIN: Frank & Basin's vm)."""
    g = data.draw(games())
    b0 = data.draw(beliefs_of(g.n_worlds))
    omin = data.draw(st.one_of(st.just(Beliefs.omniscient(g.n_worlds)), partitions(g.n_worlds)))
    h = g.with_beliefs(Beliefs.constant(np.flatnonzero(b0), g.n_worlds), omin, adequate=False)
    a = gvm(h, b0)
    v = vm(g, b0, min_beliefs=omin)
    assert np.array_equal(a.choices[_max_nodes(g)], v.choices[_max_nodes(g)])
    if g.owner[0] == MAX:
        assert np.array_equal(a.value, v.value, equal_nan=True)
    if omin.kind == "partition" and len(set(omin.state_ids(0))) == g.n_worlds:
        assert vm(g, b0) == v


@settings(max_examples=examples(120), deadline=None)
@given(st.data())
def test_gvm_with_omniscient_players_is_mc(data):
    """Ω_MIN(w) = Ω_MAX(w) = {w}: gvm is Monte Carlo minimaxing, for either player."""
    g = data.draw(games())
    b0 = data.draw(beliefs_of(g.n_worlds))
    omni = Beliefs.omniscient(g.n_worlds)
    h = g.with_beliefs(omni, omni)
    for player in ("MAX", "MIN"):
        assert gvm(h, b0, player) == mc(g, b0, player)
    assert np.array_equal(gvm_values(h).values[0], minimax_values(g)[0])


@settings(max_examples=examples(80), deadline=None)
@given(st.data())
def test_findoptimal_against_omniscient_min_is_optbd(data):
    """Ω_MIN(w) = {w}, Ω_MAX(w) = Ω⁰_MAX: findoptimal finds Frank & Basin's optimum against best defense."""
    g = data.draw(games(max_worlds=3, max_depth=3))
    b0 = data.draw(beliefs_of(g.n_worlds))
    h = g.with_beliefs(Beliefs.constant(np.flatnonzero(b0), g.n_worlds), Beliefs.omniscient(g.n_worlds),
                       adequate=False)
    f = findoptimal(h, b0)
    o = optbd(g, b0)
    assert f == o
    assert np.array_equal(f.value, o.value)


@settings(max_examples=examples(80), deadline=None)
@given(st.data())
def test_optbd_is_the_best_strategy_against_best_defense(data):
    g = data.draw(games(max_worlds=3, max_depth=3))
    b0 = data.draw(beliefs_of(g.n_worlds)).astype(float)
    o = optbd(g, b0)
    assert np.array_equal(best_defense_ref(g, o.choices), o.value)
    best = max(float(b0 @ best_defense_ref(g, s)) for s in strategies(g))
    assert float(b0 @ o.value) == best
    for other in (vm(g, b0), prm(g, b0), mc(g, b0)):  # no heuristic beats the optimum
        assert float(b0 @ best_defense_ref(g, other.choices)) <= best


dyadic = st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0])


@st.composite
def probabilistic(draw, n):
    """Belief states (dyadic probability functions) and a dyadic probability over them per world."""
    k = draw(st.integers(1, 3))
    states = []
    for _ in range(k):
        w = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n).filter(any))
        row = np.array(w, dtype=float)
        if row.sum() not in (1, 2, 4):  # keep the probabilities dyadic
            row = np.zeros(n)
            row[draw(st.integers(0, n - 1))] = 1.0
        states.append(row / row.sum())
    model = []
    for _ in range(n):
        cut = draw(st.integers(0, 4))
        j1, j2 = draw(st.integers(0, k - 1)), draw(st.integers(0, k - 1))
        row = np.zeros(k)
        row[j1] += cut / 4
        row[j2] += 1 - cut / 4
        model.append(row)
    return Beliefs.probabilistic(np.array(states), np.array(model))


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_gvm_matches_the_literal_fig10_recursion(data):
    """The one-sweep gvm equals Fig. 10 as printed, with partitions, sets or probabilistic beliefs."""
    g = data.draw(games(max_worlds=3, max_depth=3))
    n = g.n_worlds
    kinds = st.one_of(partitions(n), probabilistic(n),
                      st.just(Beliefs.omniscient(n)), st.just(Beliefs.partition(np.zeros(n, dtype=int))))
    h = g.with_beliefs(data.draw(kinds), data.draw(kinds), adequate=False)
    b0 = data.draw(beliefs_of(n)).astype(float)
    sweep = gvm_values(h)
    for s in range(h.size):
        if h.owner[s] == LEAF:
            continue
        ch, vec = gvm_ref(h, s, b0)
        assert int(sweep.choose(s, b0[None])[0]) == ch
        kids = sweep.values[h.offsets[s]:h.offsets[s + 1]]
        assert np.allclose(kids[ch], vec, atol=1e-12)


@settings(max_examples=examples(80), deadline=None)
@given(st.data())
def test_mc_values_agree_with_kop_minimax_in_every_world(data):
    g = data.draw(games(max_worlds=3))
    mm = minimax_values(g)
    for w in range(g.n_worlds):
        tree = g.world_tree(w)
        assert kop.minimax(tree, "MAX").value[0] == mm[0, w]


@settings(max_examples=examples(80), deadline=None)
@given(st.data())
def test_payoff_reduction_keeps_every_worlds_minimax_value(data):
    g = data.draw(games())
    r = reduced_payoffs(g)
    leaves = g.owner == LEAF
    assert (r[leaves] <= g.payoffs[leaves]).all()
    red = WorldsGame(g.offsets, g.owner, r, adequate=False)
    assert np.array_equal(minimax_values(red)[0], minimax_values(g)[0])


def fig3():
    """A game of Fig. 3's shape (D = 2, N = 4): MIN moves at a, MAX at b and c."""
    return WorldsGame.build(("MIN", [("MAX", [[1, 1, 1, 0], [0, 0, 1, 1]]),
                                     ("MAX", [[0, 0, 0, 1], [0, 0, 0, 1]])]),
                            min_beliefs=Beliefs.omniscient(4))


def test_non_locality_fig3():
    """At b the left branch looks better locally (0.75 against 0.5), but MIN, knowing the world,
    moves to b only where that pays for him, and then the right branch is MAX's best."""
    g = fig3()
    b = 1
    left, right = g.payoff(3), g.payoff(4)
    assert left.mean() == 0.75 and right.mean() == 0.5
    for local in (mc(g), vm(g), gvm(g)):  # compositional: decide at b alone
        assert local.move(g, b) == 3
    # payoff reduction caps each world at MIN's minimax value at a: left becomes worthless
    assert prm(g).move(g, b) == 4
    best = optbd(g)
    assert best.move(g, b) == 4
    assert findoptimal(g).move(g, b) == 4
    # against best defense the non-local choice is strictly better
    assert best_defense_ref(g, best.choices).mean() > best_defense_ref(g, vm(g).choices).mean()


def test_findoptimal_reports_bound_when_minmax_and_maxmin_differ():
    # MIN knows nothing and, knowing MAX's strategy, answers it: either MAX move yields 1 (minmax).
    # Against the MIN strategy vector that minimizes MAX's best replies (MAX knowing the world
    # there), MAX's best reply yields 2: the bounds do not meet.
    g = WorldsGame.build(("MAX", [("MIN", [[1, 1], [0, 1]]), ("MIN", [[1, 0], [1, 1]])]),
                         max_beliefs=Beliefs.omniscient(2), min_beliefs=Beliefs.partition([0, 0]))
    p = findoptimal(g)
    assert p.status == "BOUND" and p.move(g, 0) == 1 and p.value.tolist() == [0.0, 1.0]
    h = g.with_beliefs(Beliefs.partition([0, 0]), Beliefs.omniscient(2))  # Frank & Basin's setting
    assert findoptimal(h).status == "OPTIMUM"


def test_partial_payoffs_are_ignored_in_sums_and_extrema():
    # the first move is illegal in world 1 (undefined there); MAX believes only world 1
    g = WorldsGame.build(("MAX", [[5, None], [0, 1]]))
    assert mc(g, {1}).move(g, 0) == 2
    assert vm(g, {1}).move(g, 0) == 2
    assert gvm(g, {1}).move(g, 0) == 2
    assert minimax_values(g)[0].tolist() == [5.0, 1.0]
    assert g.accessible()[1].tolist() == [True, False]
    assert expected(g, mc(g, {1}), mc(g, {1}, "MIN"), {1}) == 1.0


def test_min_plans_mirror_max_plans():
    g = fig3()
    p = mc(g, player="MIN")
    assert p.player == "MIN" and p.choices[0] in (0, 1) and p.choices[1] == -1
    assert outcome(g, mc(g), p) in g.leaves()
