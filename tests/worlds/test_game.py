"""Possible-worlds games: construction, bad input, Kripke models, generators, competitions."""

import math

import numpy as np
import pytest

from kop import KopError
from kop.worlds.competition import play_in_worlds, play_round, supremacy
from kop.worlds.game import Beliefs, WorldsGame, weights
from kop.worlds.generators import card_atoms, card_game, random_belief_sets, random_game
from kop.worlds.gvm import gvm
from kop.worlds.mc import mc


def test_payoff_vector_of_wrong_length():
    with pytest.raises(KopError, match=r"root/1: payoff vector of length 3, but the game has 2 worlds"):
        WorldsGame.build(("MAX", [[1, 0], [1, 0, 1]]))
    with pytest.raises(KopError, match="3 worlds are named"):
        WorldsGame.build(("MAX", [[1, 0], [0, 1]]), worlds=["a", "b", "c"])


def test_belief_set_without_the_actual_world():
    with pytest.raises(KopError, match=r"Ω_MIN\(w1\) does not contain w1: beliefs must be adequate"):
        WorldsGame.build(("MAX", [[1, 0], [0, 1]]), min_beliefs=Beliefs.sets([{0}, {0}]))
    g = WorldsGame.build(("MAX", [[1, 0], [0, 1]]), min_beliefs=Beliefs.sets([{0}, {0}]), adequate=False)
    assert g.min_beliefs.belief_set(0, 1) == frozenset({0})
    with pytest.raises(KopError, match=r"Ω_MAX\(w1\) does not contain w1"):
        WorldsGame.build(("MAX", [[1, 0], [0, 1]]), max_beliefs=Beliefs.probabilistic([[1, 0]], [[1], [1]]))


def test_probabilities_that_do_not_sum_to_one():
    with pytest.raises(KopError, match="probabilities must sum to 1: belief state 1 sums to 0.9"):
        Beliefs.probabilistic([[1, 0], [0.5, 0.4]], [[1, 0], [0, 1]])
    with pytest.raises(KopError, match="probabilities must sum to 1: Bel"):
        Beliefs.probabilistic([[1, 0], [0.5, 0.5]], [[0.7, 0.7], [0, 1]])
    with pytest.raises(KopError, match="sum to 1"):
        weights(np.array([0.2, 0.3]), 2)


def test_impossible_card_game():
    with pytest.raises(KopError, match=r"impossible card game: two hands of c=4 cards need 2c = 8 cards, "
                                       r"but the deck has n=7"):
        card_game(7, 4)
    with pytest.raises(KopError, match="c >= 2"):
        card_game(5, 1)


def test_other_malformed_input():
    with pytest.raises(KopError, match="'MAX' or 'MIN'"):
        WorldsGame.build(("BOB", [[1]]))
    with pytest.raises(KopError, match="undefined in every world"):
        WorldsGame.build(("MAX", [[None, None], [1, 1]]))
    with pytest.raises(KopError, match="is over 3 worlds"):
        WorldsGame.build(("MAX", [[1, 0]]), min_beliefs=Beliefs.omniscient(3))
    with pytest.raises(KopError, match="empty"):
        Beliefs.sets([set(), {0}])
    with pytest.raises(KopError, match="unknown algorithm"):
        play_round(random_game(2, 3, seed=0), "MC", "minimax")
    with pytest.raises(KopError, match="empty"):
        play_round(random_game(2, 2, seed=0), "MC", "vm", "sets", [True, False], [False, True])


def test_card_game_shape_and_knowledge():
    g = card_game(7, 3, seed=5)
    assert g.n_worlds == math.comb(7, 3) * math.comb(4, 3) == 140
    assert g.depth == 4 and len(g.leaves()) == 16
    w = g.worlds.index("123|456")
    assert g.max_beliefs.belief_set(0, w) == {g.worlds.index(x) for x in ("123|456", "123|457", "123|467",
                                                                          "123|567")}
    m = g.kripke(actual=w, valuation=card_atoms(7, 3))
    assert m.satisfies("K_MAX max_1 & K_MIN min_4")
    assert m.satisfies("~K_MIN max_1 & ~K_MIN ~max_1")  # MIN does not know whether MAX holds card 1
    assert m.satisfies("K_MIN (max_1 | max_2 | max_3 | max_7)")  # 1, 2, 3, 7 are not MIN's
    assert m.satisfies("C{MAX,MIN} ~(max_1 & min_1)")
    back = WorldsGame.from_kripke(m, g.with_beliefs(Beliefs.omniscient(140), Beliefs.omniscient(140)))
    assert np.array_equal(back.max_beliefs.state_ids(0), g.max_beliefs.state_ids(0))


def test_kripke_needs_partitions():
    g = WorldsGame.build(("MAX", [[1, 0], [0, 1]]), min_beliefs=Beliefs.sets([{0, 1}, {1}]))
    with pytest.raises(KopError, match="not a partition"):
        g.kripke()


def test_generators_are_deterministic_in_the_seed():
    assert random_game(4, 10, seed=3) == random_game(4, 10, seed=3)
    assert random_game(4, 10, seed=3) != random_game(4, 10, seed=4)
    g = random_game(3, 5, seed=1, first="MIN")
    assert g.first == "MIN" and g.depth == 3 and len(g.leaves()) == 8
    assert set(np.unique(g.payoffs[g.leaves()])) <= {0.0, 1.0}
    a = random_belief_sets(30, seed=2)
    assert a[0] == random_belief_sets(30, seed=2)[0] and a[1][a[0]] and a[2][a[0]]


def test_state_dependent_beliefs_change_gvm():
    # MIN learns the world after MAX's first move into the right subtree only
    g = WorldsGame.build(("MAX", [("MIN", [[1, 0], [0, 1]]), ("MIN", [[1, 0], [0, 1]])]))
    blind = [[0, 0]] * 7
    learns = [[0, 0], [0, 0], [0, 1], [0, 0], [0, 0], [0, 0], [0, 0]]
    h1 = g.with_beliefs(min_beliefs=Beliefs.partition(np.array(blind)))
    h2 = g.with_beliefs(min_beliefs=Beliefs.partition(np.array(learns)))
    assert gvm(h1).move(g, 0) == 1           # a tie: the first child
    assert gvm(h2).move(g, 0) == 1           # MIN informed at node 2: MAX avoids it
    assert gvm(h2).value.tolist() == [1.0, 0.0]
    assert gvm(h1.with_beliefs(min_beliefs=Beliefs.partition(np.array(
        [[0, 0], [0, 1], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0]])))).move(g, 0) == 2


def test_competition_scoring_and_symmetry():
    assert supremacy([1, -1, 0, 0]) == (0.0, 0.0)
    g = random_game(4, 20, seed=9)
    a, b = play_round(g, "MC", "MC")
    assert a == b  # the same algorithm on both sides: a draw
    x, y = play_round(g, "MC", "vm")
    y2, x2 = play_round(g, "vm", "MC")
    assert (x, y) == (x2, y2)


def test_worlds_setting_plays_each_world_with_its_beliefs():
    g = card_game(5, 2, seed=1)
    n = g.n_worlds
    mx = np.zeros((1, g.size), dtype=int)
    pay = play_in_worlds(g, mx, np.zeros(n, dtype=int), mx, np.zeros(n, dtype=int))
    assert pay.shape == (n,)
    first_leaf = g.leaves()[0]
    assert np.array_equal(pay, g.payoffs[first_leaf])
    assert mc(g).player == "MAX"


def test_docs_examples_run():
    from doc_examples import page, run_python_blocks

    failed, tried = run_python_blocks(page("worlds.md"), "docs/worlds.md")
    assert failed == 0 and tried >= 20


def test_theory_script_runs():
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "theories" / "jamroga_card_game.py"
    out = subprocess.run([sys.executable, str(script), "5", "2", "4"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "card game n=5, c=2: 30 deals" in out.stdout and "K_MIN max_1" in out.stdout
    assert "gvm vs MC over 4 games" in out.stdout


def test_capable_opponent_beliefs_section_3_5():
    omni = Beliefs.capable(np.arange(4))
    assert len(omni.states) == 4
    g = random_game(3, 4, seed=2)
    assert gvm(g.with_beliefs(min_beliefs=omni)) == gvm(g.with_beliefs(min_beliefs=Beliefs.omniscient(4)))
    b = Beliefs.capable([0, 0, 0, 1])
    assert len(b.states) == 7 + 1 and np.allclose(b.model.sum(axis=1), 1)
    assert all(b.weights(0, w)[w] > 0 for w in range(4))  # adequate: every B holds w
    cards = card_game(5, 2, seed=0)
    h = cards.with_beliefs(min_beliefs=Beliefs.capable(cards.min_beliefs.state_ids(0)))
    assert gvm(h).player == "MAX"


def test_findoptimal_refuses_what_it_does_not_model():
    from kop.worlds.findoptimal import findoptimal

    g = random_game(2, 2, seed=0)
    with pytest.raises(KopError, match="probabilistic beliefs"):
        findoptimal(g.with_beliefs(min_beliefs=Beliefs.capable([0, 0])))
    with pytest.raises(KopError, match="depend on the node"):
        findoptimal(g.with_beliefs(min_beliefs=Beliefs.partition(np.zeros((7, 2), dtype=int))))
