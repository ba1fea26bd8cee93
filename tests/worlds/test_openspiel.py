"""OpenSpiel's imperfect-information games as possible-worlds games: payoffs and beliefs checked by
replaying each world in OpenSpiel from scratch, the no-leak property, the algorithms, the logic."""

from __future__ import annotations

import numpy as np
import pytest

import kop
from kop.worlds.game import LEAF, MAX

pyspiel = pytest.importorskip("pyspiel")


def _replay(name: str, chances: tuple[int, ...], moves: tuple[int, ...]):
    """The OpenSpiel state of one world after *moves*: chance outcomes taken in order whenever chance moves."""
    state = pyspiel.load_game(name).new_initial_state()
    todo_c, todo_m = list(chances), list(moves)
    while True:
        if state.is_chance_node():
            if not todo_c:     # a chance event this world's sequence never reached: cannot happen
                raise AssertionError("world too short")
            state.apply_action(todo_c.pop(0))
        elif todo_m:
            state.apply_action(todo_m.pop(0))
        else:
            return state


GAMES = ["kuhn_poker", "leduc_poker"]


@pytest.fixture(scope="module", params=GAMES)
def built(request):
    return request.param, kop.worlds_from_openspiel(request.param)


def test_sizes():
    kuhn = kop.worlds_from_openspiel("kuhn_poker")
    assert (kuhn.game.n_worlds, kuhn.game.size, len(kuhn.game.leaves())) == (6, 9, 5)
    assert np.isclose(kuhn.probabilities, 1 / 6).all()
    leduc = kop.worlds_from_openspiel("leduc_poker")
    assert leduc.game.n_worlds == 120 and np.isclose(leduc.probabilities.sum(), 1)


def test_payoffs_and_beliefs_are_those_of_openspiel(built):
    """Every node in every world, replayed in OpenSpiel from the world's chance outcomes and the node's moves."""
    name, g = built
    game = g.game
    for node in range(game.size):
        hist = g.histories[node]
        info = {0: [], 1: []}
        for w, chances in enumerate(g.chances):
            state = _replay(name, chances, hist)
            if game.owner[node] == LEAF:
                assert state.is_terminal()
                assert game.payoffs[node, w] == state.returns()[0]
            else:
                assert int(state.current_player()) == (0 if game.owner[node] == MAX else 1)
                for p in (0, 1):
                    info[p].append(state.information_state_string(p))
        if game.owner[node] == LEAF:
            continue
        for p, beliefs in ((0, game.max_beliefs), (1, game.min_beliefs)):
            for w in range(game.n_worlds):
                # the definition: exactly the worlds where the player's information state is the same
                same = frozenset(v for v in range(game.n_worlds) if info[p][v] == info[p][w])
                assert beliefs.belief_set(node, w) == same


def test_no_world_reveals_the_opponents_private_card():
    """A player's worlds agree on its own card and leave the opponent's card every value the deck allows."""
    kuhn = kop.worlds_from_openspiel("kuhn_poker")
    g = kuhn.game
    for node in np.flatnonzero(g.owner != LEAF):
        for w, (c0, c1) in enumerate(kuhn.chances):
            mine = {kuhn.chances[v] for v in kuhn.belief("MAX", w, int(node))}
            assert {a for a, _ in mine} == {c0}                       # its own card, only
            assert {b for _, b in mine} == {0, 1, 2} - {c0}           # the opponent's: both other cards
            theirs = {kuhn.chances[v] for v in kuhn.belief("MIN", w, int(node))}
            assert {b for _, b in theirs} == {c1} and {a for a, _ in theirs} == {0, 1, 2} - {c1}
    leduc = kop.worlds_from_openspiel("leduc_poker")
    before = leduc.node_of("Call")                    # still in the first round: the public card is hidden
    after = leduc.node_of("Call", "Call")             # the public card is dealt and seen by both
    for w, (c0, c1, pub) in enumerate(leduc.chances):
        seen = {leduc.chances[v] for v in leduc.belief("MAX", w, before)}
        assert {s[0] for s in seen} == {c0} and len(seen) == 20
        seen = {leduc.chances[v] for v in leduc.belief("MAX", w, after)}
        assert {(s[0], s[2]) for s in seen} == {(c0, pub)} and len(seen) == 4
        assert c1 in {s[1] for s in seen}


def test_the_algorithms_run_and_play_legal_moves():
    kuhn = kop.worlds_from_openspiel("kuhn_poker")
    g = kuhn.game
    w = kuhn.world_of(p0="K", p1="J")
    belief = kuhn.belief("MAX", w)
    for algorithm in (kop.mc, kop.vm, kop.prm, kop.gvm, kop.findoptimal):
        plan = algorithm(g, belief)
        assert plan.move(g, 0) in g.children(0)
        for node in np.flatnonzero(g.owner == MAX):     # -1 where the plan never gets to
            assert -1 <= plan.choices[node] < len(g.children(int(node)))
    # holding the king, MAX wins whatever MIN holds and does: every plan's payoff is >= 1 in those worlds
    values = kop.findoptimal(g, belief).value
    assert values is not None and (values[sorted(belief)] >= 1).all()


def test_the_logic_answers_questions_about_kuhn_poker():
    kuhn = kop.worlds_from_openspiel("kuhn_poker")
    w = kuhn.world_of(p0="K", p1="J")
    m = kuhn.kripke(0, actual=w)
    assert m.satisfies("K_MAX p0_K & ~K_MIN p0_K")          # player 1 does not know player 0 holds the king
    assert m.satisfies("K_MIN ~p0_J & K_MAX ~p1_K")          # each knows the other does not hold its card
    assert m.satisfies("C{MAX,MIN} (p0_J | p0_Q | p0_K)")
    assert not m.satisfies("K_MAX p1_J")


def test_refusals_are_clear():
    with pytest.raises(kop.WorldsError, match="perfect-information"):
        kop.worlds_from_openspiel("tic_tac_toe")
    with pytest.raises(kop.WorldsError, match="no chance events"):
        kop.worlds_from_openspiel("phantom_ttt")
    with pytest.raises(kop.WorldsError, match="two players"):
        kop.worlds_from_openspiel("kuhn_poker(players=3)")
    with pytest.raises(kop.KopError, match="more than 10 nodes"):
        kop.worlds_from_openspiel("leduc_poker", max_nodes=10)
    with pytest.raises(kop.WorldsError, match="no atom"):
        kop.worlds_from_openspiel("kuhn_poker").world_of(p2="K")


def test_the_kuhn_poker_section_of_the_docs_runs():
    from doc_examples import page, run_python_blocks

    text = page("worlds.md")
    failed, tried = run_python_blocks(text, "docs/worlds.md", fence="python openspiel")
    assert failed == 0 and tried >= 10
