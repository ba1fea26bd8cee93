"""The OpenSpiel bridge is exact: every small perfect-information game OpenSpiel registers,
searched through ``kop.from_openspiel`` with its default key, has the value of a plain backward
induction over ``pyspiel`` states (written here, no transposition table: every history is
searched on its own, so nothing can be merged wrongly).

Each game is made small by its parameters and, where it has none that do, by a prefix of
seeded random moves (chance moves drawn by their probabilities) that reaches a position with a
small game tree below it.  Games that stay too large, or cannot be searched, are listed in
``TOO_LARGE`` with the reason; a test checks that every registered game is in one list or the
other, so a game added to OpenSpiel is noticed.

The quick run covers the 18 pig variants (winscore 2..4 x horizon 2, 4, 6 x diceoutcomes 2, 3;
8 of them were wrong with the old default key ``(player, str(state))``) and a few games; the
whole sweep is marked slow (``pytest -m slow``).
"""

from __future__ import annotations

import itertools
import math
import random

import pytest

import kop

pyspiel = pytest.importorskip("pyspiel")

#: (game spec, random plies played first[, their seed]).  At most LIMIT states below the start.
LIMIT = 20_000
PIGS = [(f"pig(winscore={w},horizon={h},diceoutcomes={d})", 0)
        for w, h, d in itertools.product((2, 3, 4), (2, 4, 6), (2, 3))]
QUICK = [
    ("tic_tac_toe", 3),
    ("nim(pile_sizes=1;2;3)", 0),
    ("breakthrough(rows=4,columns=3)", 3),
    ("connect_four(rows=3,columns=4,x_in_row=3)", 2),
    ("catch(rows=4,columns=3)", 0),
    ("dots_and_boxes(num_rows=1,num_cols=2)", 0),
    ("oware(num_houses_per_player=1,num_seeds_per_house=2)", 0),
]
WIDE = [
    ("2048(max_tile=8)", 10),
    ("cliff_walking(height=2,width=3,horizon=6)", 0),
    ("clobber(rows=3,columns=3)", 0),
    ("gomoku(size=3,connect=3)", 2),
    ("hex(num_rows=3,num_cols=3)", 2),
    ("havannah(board_size=2)", 0),
    ("mnk(m=3,n=3,k=3)", 2),
    ("y(board_size=3)", 0),
    ("go(board_size=2)", 0),
    ("quoridor(board_size=3,wall_count=1)", 6),
    ("twixt(board_size=5)", 12),
    ("mancala", 33),
    ("othello", 52),
    ("ultimate_tic_tac_toe", 57),
    ("yacht(num_dice=1,rolls_per_turn=1,dice_sides=2)", 36),
    ("pentago", 32, 3),
    ("einstein_wurfelt_nicht", 37, 1),
    ("cursor_go(board_size=2,max_cursor_moves=2)", 8, 2),
    ("amazons(board_size=6)", 61),
    ("chinese_checkers(max_moves=8)", 6),
    ("lines_of_action(max_game_length=6)", 4),
    ("backgammon(hyper_backgammon=true,max_player_turns=4)", 7),
]
TOO_LARGE = {   # random play tried from the default start (seeds 0 and 1, 20 to 25 s each)
    "antichess": "random play does not reach a position with at most LIMIT states below",
    "banqi": "random play ends the game, or stays above LIMIT, even with max_no_progress=4",
    "checkers": "no position small enough: boards of 4x4 and 6x6 start terminal, 8x8 is too large",
    "chess": "random play does not reach a position with at most LIMIT states below",
    "crazyhouse": "random play does not reach a position with at most LIMIT states below",
    "efg_game": "needs a file: the EFG bridge is checked in test_mh_vs_open_spiel.py",
    "hive": "random play does not reach a position with at most LIMIT states below",
    "maedn": "random play (209 plies) does not reach a position with at most LIMIT states below",
    "morpion_solitaire": "pyspiel crashes (segmentation fault) while its tree is explored",
    "nine_mens_morris": "random play does not reach a position with at most LIMIT states below",
    "shogi": "random play does not reach a position with at most LIMIT states below",
    "stones_and_gems": "sampled chance: pyspiel lists no chance outcomes to take the expectation over",
    "xiangqi": "random play does not reach a position with at most LIMIT states below",
}


def reference(state):
    """Backward induction over pyspiel states: the returns every player gets when each mover
    maximizes its own return (the first best legal action on ties) and a chance node is the
    expectation of its outcomes.  No table: each history is searched by itself."""
    if state.is_terminal():
        return tuple(state.returns())
    if state.is_chance_node():
        total = [0.0] * state.get_game().num_players()
        for a, p in state.chance_outcomes():
            for i, v in enumerate(reference(state.child(a))):
                total[i] += p * v
        return tuple(total)
    me = state.current_player()
    best = None
    for a in state.legal_actions():
        v = reference(state.child(a))
        if best is None or v[me] > best[me]:
            best = v
    return best


def size(state, budget):
    """The number of states below *state* (itself included), or None past *budget*."""
    n, stack = 0, [state]
    while stack:
        s = stack.pop()
        n += 1
        if n > budget:
            return None
        if s.is_terminal():
            continue
        moves = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
        stack.extend(s.child(a) for a in moves)
    return n


def start(spec, plies, seed=0):
    """The state after *plies* random moves (seeded by *seed*) from the start of *spec*."""
    state = pyspiel.load_game(spec).new_initial_state()
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state = state.child(rng.choices(actions, probs)[0])
        else:
            state = state.child(rng.choice(state.legal_actions()))
    return state


def same(a, b):
    return len(a) == len(b) and all(math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-9) for x, y in zip(a, b))


def check(spec, plies, seed=0):
    state = start(spec, plies, seed)
    assert not state.is_terminal() and size(state, LIMIT) is not None, f"{spec}: not small after {plies} plies"
    want = reference(state)
    game = kop.from_openspiel(spec)
    got = kop.search(game, "Mh", state=state, max_nodes=10 * LIMIT)
    assert same(got.value, want), (spec, got.value, want)
    if game.game.num_players() == 2 and game.game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM:
        for name in ("minimax", "alphabeta"):
            v = kop.search(game, name, state=state, player="P0" if state.current_player() != 1 else "P1",
                           max_nodes=10 * LIMIT).value
            assert math.isclose(v[0], want[0], abs_tol=1e-9), (spec, name, v, want)


@pytest.mark.parametrize("case", PIGS + QUICK, ids=[c[0] for c in PIGS + QUICK])
def test_bridge_equals_backward_induction(case):
    check(*case)


@pytest.mark.slow
@pytest.mark.parametrize("case", WIDE, ids=[c[0] for c in WIDE])
def test_bridge_equals_backward_induction_wide(case):
    check(*case)


def test_every_registered_perfect_information_game_is_covered():
    covered = {case[0].split("(")[0] for case in PIGS + QUICK + WIDE} | set(TOO_LARGE)
    # games written in Python (python_*) join the registry only when open_spiel.python.games is imported,
    # which another test may or may not have done; their C++ twins (tic_tac_toe, ...) are covered here
    registered = {t.short_name for t in pyspiel.registered_games()
                  if t.information == pyspiel.GameType.Information.PERFECT_INFORMATION
                  and t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
                  and not t.short_name.startswith("python_")}
    assert registered <= covered, sorted(registered - covered)


def test_the_string_key_is_opt_in_and_merges_pig_states():
    """The regression: the old default key (player, printout) merged pig states with different
    turn counters, and 8 of the 18 variants got a wrong value; it is still there on request."""
    pig = "pig(winscore=3,horizon=4,diceoutcomes=2)"
    assert kop.search(kop.from_openspiel(pig), "Mh").value == (0.125, -0.125)
    assert kop.search(kop.from_openspiel(pig, key="history"), "Mh").value == (0.125, -0.125)
    assert kop.search(kop.from_openspiel(pig, key="string"), "Mh").value == (-0.125, 0.125)
    assert kop.search(kop.from_openspiel(pig, key="state"), "Mh").value == (-0.125, 0.125)   # older name
    wrong = [spec for spec, _ in PIGS
             if kop.search(kop.from_openspiel(spec, key="string"), "Mh").value
             != reference(pyspiel.load_game(spec).new_initial_state())]
    assert len(wrong) == 8
    with pytest.raises(kop.GameError, match="key must be 'history'"):
        kop.from_openspiel(pig, key="printout")
