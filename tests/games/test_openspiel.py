"""M^h against an independent solver: open-spiel (``pyspiel``), through Gambit .efg export.

For hundreds of random perfect-information trees (two or three players, with and
without chance nodes, distinct payoffs so that the subgame-perfect outcome is
unique), each tree is exported with :func:`kop.dumps_efg` and parsed by
open-spiel's own EFG reader (``pyspiel.load_efg_game``).  Then:

1. backward induction over open-spiel's game states (its ``returns()``,
   ``chance_outcomes()``, ``legal_actions()``; the recursion is ours: open-spiel's
   python solvers -- ``minimax``, ``MinimaxSolver`` -- require zero-sum games)
   must give kop's M^h value, and its principal path the same moves;
2. kop's M^h choices, written into an open-spiel ``TabularPolicy``, must have
   the value kop reports by open-spiel's ``expected_game_score.policy_value``;
3. that policy must be a Nash equilibrium by open-spiel's best-response code:
   ``exploitability.nash_conv(...) == 0``.
"""

import numpy as np
import pytest

import kop

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python import policy as os_policy  # noqa: E402
from open_spiel.python.algorithms import exploitability, expected_game_score  # noqa: E402


def backward_induction(state):
    """(returns, actions along the principal path) by backward induction on open-spiel states."""
    if state.is_terminal():
        return np.array(state.returns()), []
    if state.is_chance_node():
        total = 0
        for a, p in state.chance_outcomes():
            total = total + p * backward_induction(state.child(a))[0]
        return total, []
    me = state.current_player()
    best = None
    for a in state.legal_actions():
        v, path = backward_induction(state.child(a))
        if best is None or v[me] > best[0][me]:
            best = (v, [state.action_to_string(a), *path])
    return best


def to_policy(game, tree, strategies):
    """kop's choices (player name -> strategy) at every decision node as an open-spiel TabularPolicy."""
    tp = os_policy.TabularPolicy(game)
    stack = [(game.new_initial_state(), 0)]
    while stack:
        state, i = stack.pop()
        if state.is_terminal():
            continue
        lo = int(tree.offsets[i])
        names = {state.action_to_string(a): a for a in state.legal_actions()}
        kids = range(lo, int(tree.offsets[i + 1]))
        by_name = {tree.moves.get(c) or str(c - lo): c for c in kids}
        assert set(names) == set(by_name)
        if not state.is_chance_node():
            row = tp.policy_for_key(state.information_state_string())
            row[:] = 0
            c = strategies[tree.players[state.current_player()].name].next(i).index
            row[names[tree.moves.get(c) or str(c - lo)]] = 1
        for name, a in names.items():
            stack.append((state.child(a), by_name[name]))
    return tp


def to_kop(tree, utilities):
    """open-spiel utilities (every player maximizes) back to kop payoffs."""
    return np.array([p.sign for p in tree.players]) * np.asarray(utilities)


@pytest.mark.parametrize("seed", range(300))
def test_mh_matches_open_spiel(seed):
    rng = np.random.default_rng(seed)
    n_players = 2 if seed % 3 else 3
    chance = 0.2 if seed % 2 else 0.0
    tree = kop.random_tree(depth=int(rng.integers(2, 7)), branching=(1, 3), leaf_prob=0.2,
                           players=["A", "B", "C"][:n_players], goals="paper" if seed % 4 else "max",
                           payoffs="real" if chance else "int", distinct=not chance, high=1000,
                           chance_prob=chance, movers="random" if seed % 5 == 0 else "alternate",
                           seed=seed)
    game = pyspiel.load_efg_game(kop.dumps_efg(tree))
    assert game.num_players() == n_players
    mh = kop.mh(tree)
    value, moves = backward_induction(game.new_initial_state())
    assert np.allclose(to_kop(tree, value), mh.value, rtol=1e-12, atol=1e-9)
    kop_moves = [n.move or str(n.rank) for n in mh.path[1:]]
    assert moves == kop_moves
    if set(np.unique(tree.kind[tree.kind >= 0])) != set(range(n_players)):
        return  # open-spiel's TabularPolicy needs every player to have a decision somewhere
    tp = to_policy(game, tree, {p: mh for p in tree.player_names})
    on_policy = expected_game_score.policy_value(game.new_initial_state(), [tp] * n_players)
    assert np.allclose(to_kop(tree, on_policy), mh.value, rtol=1e-12, atol=1e-9)
    assert exploitability.nash_conv(game, tp) == pytest.approx(0, abs=1e-9)


def test_mstar_profile_is_exploitable():
    """The equilibrium check can fail: M^1 against M^1 (scenario 3 of Figure 2) is exploitable."""
    from pathlib import Path

    tree = kop.load_tree(Path(__file__).resolve().parents[2] / "theories" / "figure2.json")
    game = pyspiel.load_efg_game(kop.dumps_efg(tree))
    profile = {p: kop.mstar(tree, 1, p) for p in "AB"}
    assert exploitability.nash_conv(game, to_policy(game, tree, profile)) > 0
    mh = kop.mh(tree)
    assert exploitability.nash_conv(game, to_policy(game, tree, {"A": mh, "B": mh})) == 0
