"""Implicit games: the shipped games, the OpenSpiel bridge, expansion, and bad input."""

from __future__ import annotations

from pathlib import Path

import math

import pytest

import kop
from kop.games.search.implicit import ImplicitGame

THEORIES = Path(__file__).resolve().parents[2] / "theories"   # wherever pytest runs from


class Line(ImplicitGame):
    """A toy game: a counter; A adds 1 or 2, B adds 1 or 2; it ends at or past `goal`."""

    players = ("A", "B")

    def __init__(self, goal=4, **broken):
        self.goal = goal
        self.broken = broken

    def initial_state(self):
        return (0, 0)

    def to_move(self, s):
        return s[1]

    def legal_moves(self, s):
        if self.broken.get("no_moves") and s[0] == 1:
            return []
        return [1, 2]

    def apply(self, s, m):
        if m not in (1, 2):
            raise ValueError(f"bad move {m}")
        return (s[0] + m, 1 - s[1])

    def is_terminal(self, s):
        return s[0] >= self.goal

    def payoffs(self, s):
        return (s[0], s[0] - self.goal)

    def key(self, s):
        if self.broken.get("unhashable"):
            return [s]
        return s


def test_nim_value_is_minus_one_from_22_max():
    g = kop.nim()
    assert g.initial_state() == ((2, 2), "MAX")
    for name in ["minimax", "alphabeta", "Mh"]:
        assert kop.search(g, name).value == (-1, -1)
    assert kop.search(g, "minimax", state=((2, 2), "MIN")).value == (1, 1)


def test_nim_successors_are_the_notes():
    g = kop.nim()
    succ = lambda s: [g.apply(s, m) for m in g.legal_moves(s)]  # noqa: E731
    assert succ(((2, 2), "MAX")) == [((2, 1), "MIN"), ((2, 0), "MIN")]
    assert succ(((2, 1), "MIN")) == [((1, 1), "MAX"), ((1, 0), "MAX"), ((2, 0), "MAX")]
    assert g.payoffs(((0, 0), "MAX")) == (1, 1) and g.payoffs(((0, 0), "MIN")) == (-1, -1)


def test_nim_expanded_agrees_with_the_tree_file():
    t = kop.GameTree.from_game(kop.nim())
    f = kop.load_tree(str(THEORIES / "nim22.json"))
    assert (len(t), t.n_leaves, t.height) == (len(f), f.n_leaves, f.height)
    assert kop.minimax(t).value == kop.minimax(f).value == (-1, -1)


def test_figure2_as_an_implicit_game():
    g = kop.figure2_game()
    t = kop.figure2()
    assert kop.GameTree.from_game(g).payoffs.tolist() == t.payoffs.tolist()
    assert [kop.search(g, f"HM0M{d}").value for d in range(5)] == [(4, 7), (9, 4), (9, 4), (10, 3), (10, 3)]
    assert kop.search(g, "M2").pv_names == ("T", "0")


def test_subtree_is_the_tree_below():
    t = kop.figure2()
    s = t.subtree("S")
    assert s.root.label == "S" and s.height == 3 and len(s) == 15
    assert kop.mh(s).value == kop.mh(t).value_at("S")
    assert kop.minimax(s, "B").value == kop.minimax(t, "B").value_at("S")
    assert t.subtree("root") is t


def test_depth_limit_uses_the_evaluations():
    g = Line(goal=6)
    ev = {"A": lambda s: s[0], "B": lambda s: -s[0]}
    r = kop.search(g, "alphabeta", depth=2, evaluations=ev)
    t = kop.GameTree.from_game(g, 2, evaluations=ev)
    assert t.height == 2 and r.value == kop.minimax(t).value
    assert r.depth == 2 and len(r.pv) == 2


# -- OpenSpiel ---------------------------------------------------------------------

pyspiel = pytest.importorskip("pyspiel")


@pytest.fixture(scope="module")
def ttt():
    # the board is tic-tac-toe's whole state, so the printout is an exact key (and merging
    # transpositions keeps these full-game searches fast); the default key is checked in
    # test_openspiel_exact.py
    return kop.from_openspiel(pyspiel.load_game("tic_tac_toe"), players=("x", "o"), key="string")


def test_tic_tac_toe_is_a_draw_by_minimax_and_mh(ttt):
    assert [p.name for p in ttt.players] == ["x", "o"]
    ab = kop.search(ttt, "alphabeta")
    assert ab.value == (0, 0)
    assert kop.search(ttt, "minimax").value == (0, 0)
    assert kop.search(ttt, "Mh").value == (0, 0)
    same = {"x": lambda s: s.returns()[0], "o": lambda s: s.returns()[1]}
    assert kop.search(ttt, "Mh", evaluations=same).value == (0, 0)
    assert kop.search(ttt, "M2").value == (0, 0)


def test_tic_tac_toe_agrees_with_openspiel_alpha_beta(ttt):
    from open_spiel.python.algorithms import minimax as os_minimax

    game = pyspiel.load_game("tic_tac_toe")
    state = game.new_initial_state()
    for a in [4, 0]:
        state.apply_action(a)
    value, _ = os_minimax.alpha_beta_search(game, state=state.clone(), maximizing_player_id=0)
    mine = kop.search(ttt, "alphabeta", state=state)
    assert mine.value[0] == value
    # every first move of x: same value both ways
    for a in game.new_initial_state().legal_actions():
        s = game.new_initial_state().child(a)
        v, _ = os_minimax.alpha_beta_search(game, state=s.clone(), maximizing_player_id=0)
        assert kop.search(ttt, "alphabeta", state=s, player="x").value[0] == v


def test_openspiel_depth_limited_matches_the_expanded_tree(ttt):
    ev = {"x": lambda s: sum(1 for c in str(s) if c == "x") - 0.5, "o": lambda s: -len(s.history())}
    for name in ["alphabeta", "M1", "M2", "Mh", "HM0M1"]:
        t = kop.GameTree.from_game(ttt, 3, evaluations=ev)
        r = kop.search(ttt, name, depth=3, evaluations=ev)
        s = kop.strategy(t, name)
        assert r.value == s.value and list(r.pv_names) == [n.move for n in s.path[1:]]


def test_openspiel_chance_games_are_searched():
    g = kop.from_openspiel("pig(winscore=6)")
    r = kop.search(g, "Mh", depth=3, evaluations={"P0": lambda s: 0.0, "P1": lambda s: 0.0})
    assert r.nodes > 0


def test_imperfect_and_simultaneous_games_are_refused():
    with pytest.raises(kop.GameError, match="imperfect information"):
        kop.from_openspiel("kuhn_poker")
    with pytest.raises(kop.GameError, match="simultaneous"):
        kop.from_openspiel("matrix_rps")
    with pytest.raises(kop.GameError, match="has no game 'no_such_game'"):
        kop.from_openspiel("no_such_game")


# -- bad input: clear errors naming the state and the move, never a hang ---------

def test_empty_legal_moves_at_a_nonterminal_state():
    with pytest.raises(kop.GameError, match=r"state \(1, 1\) is not terminal but has no legal moves"):
        kop.search(Line(no_moves=True), "alphabeta")


@pytest.mark.parametrize("bad,match", [
    (lambda s: 1 / 0, "evaluation of A failed at .*ZeroDivisionError"),
    (lambda s: "high", "evaluation of A at .* is 'high', not a number"),
    (lambda s: math.nan, "evaluation of A at .* is NaN"),
    (lambda s: None, "not a number"),
])
def test_bad_evaluations(bad, match):
    with pytest.raises(kop.GameError, match=match):
        kop.search(Line(goal=5), "alphabeta", depth=2, evaluations={"A": bad})


def test_missing_evaluation_at_the_horizon():
    with pytest.raises(kop.GameError, match="horizon ends at .* and A has no evaluation"):
        kop.search(Line(goal=5), "alphabeta", depth=2)
    with pytest.raises(kop.GameError, match="B has no evaluation"):
        kop.search(Line(goal=5), "Mh", depth=2, evaluations={"A": lambda s: 0})


def test_unhashable_state_key():
    with pytest.raises(kop.GameError, match=r"key\(\(0, 0\)\) returned an unhashable list"):
        kop.search(Line(unhashable=True), "alphabeta")


def test_negative_or_bad_depth():
    with pytest.raises(kop.GameError, match="depth must be >= 0"):
        kop.search(Line(), "alphabeta", depth=-1)
    with pytest.raises(kop.GameError, match="depth must be an integer"):
        kop.search(Line(), "Mh", depth=1.5)
    with pytest.raises(kop.GameError, match="depth must be >= 0"):
        kop.GameTree.from_game(Line(), -2)


def test_illegal_move():
    from kop.games.search.implicit import GameView

    v = GameView(Line())
    with pytest.raises(kop.GameError, match=r"move 3 is not legal at \(0, 0\) \(legal: 1, 2\)"):
        v.check_move((0, 0), 3)
    with pytest.raises(kop.GameError, match=r"apply\(\(0, 0\), 7\) failed: ValueError: bad move 7"):
        v.child((0, 0), 7)
    with pytest.raises(kop.GameError, match="is not legal at"):
        kop.nim().apply(((2, 2), "MAX"), (0, 3))


def test_a_game_that_never_ends_is_a_limit_not_a_hang():
    class Loop(Line):
        def is_terminal(self, s):
            return False

        def key(self, s):
            return None if self.broken.get("same") else s

    with pytest.raises(kop.KopError, match="deeper than"):
        kop.search(Loop(), "alphabeta")
    with pytest.raises(kop.KopError, match="more than 1000 nodes"):
        kop.GameTree.from_game(Loop(), node_limit=1000)


def test_not_a_game():
    with pytest.raises(kop.GameError, match="no method initial_state"):
        kop.search(object(), "Mh")
    with pytest.raises(kop.KopError, match="unknown strategy"):
        kop.search(kop.nim(), "M*")
    with pytest.raises(kop.GameError, match="unknown player 'Z'"):
        kop.search(kop.nim(), "alphabeta", player="Z")


def test_a_node_budget_stops_a_search_that_is_too_big():
    with pytest.raises(kop.KopError, match="visited more than 50 states"):
        kop.search(kop.nim((4, 4, 4)), "minimax", max_nodes=50)
    assert kop.search(kop.nim((2, 2)), "M2", max_nodes=1000).value == (-1, -1)
    with pytest.raises(kop.KopError, match="max_nodes must be a positive integer"):
        kop.search(kop.nim(), "Mh", max_nodes=0)


def test_kop_search_serves_both_implicit_games_and_bodkins_tree_searches():
    t = kop.figure2()
    assert kop.search(t, "M2").value == (9, 4)                     # a tree searched as a TreeGame
    assert kop.search(t, "paranoid", player="A").value == kop.search(t, "minimax").value
    b = kop.bodkin_tree(3, 2, 5, m=1, eta=1, seed=2)
    assert kop.search(b, "bimodal", bounds={"low": 0, "high": 1, "m": 1, "M": 1}).value == \
        kop.search(b, "maxn").value
    with pytest.raises(kop.KopError, match="Bodkin's searches on game trees"):
        kop.search(kop.nim(), "maxn")
    with pytest.raises(kop.KopError, match="bounds apply to Bodkin's searches"):
        kop.search(t, "M2", bounds=(0, 1))
