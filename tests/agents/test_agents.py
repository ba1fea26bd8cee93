"""Agents and matches: Figure 2 as matches, the selector at every node, communication, tournaments."""

from __future__ import annotations

import doctest
import importlib
import math

import pytest

import kop
from kop.selection.examples import SCENARIOS


def agents(level_a, level_b, **kw):
    return (kop.Agent("A", knowledge=kop.f_level("A", "B", level_a), **kw),
            kop.Agent("B", knowledge=kop.f_level("B", "A", level_b), **kw))


def test_scenario_4_without_communication_is_9_4():
    r = kop.Match(kop.figure2_game(), agents(2, 1)).play()
    assert r.outcome == (9, 4)
    assert r.moves == ("T", "0")
    assert r.strategies == (("A", "HM0M2"), ("B", "Mh"))
    first = r.log[0]
    assert first.kind == "move" and first.predicted == (9, 4)
    assert any("Theorem 8" in x for x in first.reasons)
    assert any("Mh does not apply" in x and "f(A,3)" in x for x in first.reasons)


def test_scenario_4_with_communication_is_10_3():
    r = kop.Match(kop.figure2_game(), agents(2, 1), communication=True).play()
    assert r.outcome == (10, 3)
    assert [e.kind for e in r.log] == ["announcement", "move", "move", "move", "move"]
    assert r.announcements[0].agent == "A" and r.announcements[0].announcement == "E_A & E_B"
    assert all(s == "Mh" for _, s in r.strategies)
    assert r.moves == ("S", "U", "X", "0")


def test_scenario_3_forced_to_m1_is_3_8():
    r = kop.Match(kop.figure2_game(), agents(1, 1, strategy="M1")).play()
    assert r.outcome == (3, 8)
    assert r.moves == ("S", "V", "Y", "0")


@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda s: s.name)
def test_forced_plays_match_the_paper(sc):
    a = kop.Agent("A", strategy=sc.play[0])
    b = kop.Agent("B", strategy=sc.play[1])
    assert kop.Match(kop.figure2_game(), [a, b]).play().outcome == sc.outcome


def test_agents_that_know_nothing_play_minimax():
    r = kop.Match(kop.figure2_game(), [kop.Agent("A"), kop.Agent("B")]).play()
    assert r.strategies[0] == ("A", "minimax") and r.outcome == (4, 7)


def test_agent_knowledge_questions():
    a = kop.Agent("A", knowledge=kop.f_level("A", "B", 2))
    assert a.level("B") == 2 and a.level(kop.Agent("B")) == 2
    assert a.knows("E_B") and a.knows("K_B E_A") and not a.knows("K_B K_A E_B")
    ck = kop.Agent("A", knowledge=["C{A,B}(E_A & E_B)", "K_A S_A"])
    assert ck.level("B") == math.inf
    assert kop.Agent("A", knowledge="K_A E_B").knowledge == (kop.parse("K_A E_B"),)


def test_choose_strategy_at_a_node_for_either_player():
    g = kop.figure2_game()
    b = kop.Agent("B", knowledge=kop.f_level("B", "A", 1))
    s_node = g.apply(g.initial_state(), 1)          # S, where B moves
    c = b.choose_strategy(g, s_node)
    sel = c.selection
    assert sel is not None and sel.player == "B" and sel.height == 3
    assert c.strategy == "HM0M1"
    ref = kop.select(kop.figure2(), kop.f_level("B", "A", 1), "B", node="S")
    assert ref.recommended.strategy == c.strategy and ref.level == c.level
    m = b.move(g, s_node)
    assert m.move_name == kop.hm0m(kop.figure2().subtree("S"), 1, "B").next().label


def test_selector_at_a_node_agrees_with_the_selector_on_the_subtree():
    t = kop.figure2()
    ks = SCENARIOS[3].knowledge
    for label in ["S", "U", "V", "T"]:
        at = kop.select(t, ks, node=label)
        sub = kop.select(t.subtree(label), ks)
        assert at.node == label and sub.node == "root"
        assert at.to_json()["candidates"] == sub.to_json()["candidates"]
    with pytest.raises(kop.KopError, match="moves at S"):
        kop.select(t, ks, "A", node="S")


def test_announcement_keeps_what_stays_true():
    from kop.agents.match import announce

    phi = kop.parse("E_A & E_B")
    ks = {"A": (kop.parse("K_A E_B"), kop.parse("~K_B E_A")), "B": ()}
    out = announce(ks, phi, ["A", "B"])
    assert kop.parse("K_A E_B") in out["A"]
    assert kop.parse("~K_B E_A") not in out["A"]          # falsified by the announcement
    assert kop.parse("C{A,B}(E_A & E_B)") in out["B"]


def test_tournament_swaps_roles():
    a, b = agents(2, 1)
    t = kop.tournament(kop.figure2_game(), [a, b], rounds=2, seed=3, opening=0)
    assert len(t.matches) == 4
    assert [m.agents for m in t.matches[:2]] == [("A", "B"), ("B", "A")]
    assert t.matches[0].outcome == (9, 4)
    assert set(t.scores) == {"A", "B"}
    t2 = kop.tournament(kop.nim((3, 2)), [a, b], rounds=3, seed=1, opening=1)
    assert len(t2.openings) == 3 and all(len(o) == 1 for o in t2.openings)
    assert t2.to_json()["scores"] == t2.scores


def test_match_errors():
    g = kop.figure2_game()
    a, b = agents(1, 1)
    with pytest.raises(kop.KopError, match=r"^1 agent A for the 2 players A, B of the game$"):
        kop.Match(g, [a])
    with pytest.raises(kop.KopError, match="share a name"):
        kop.Match(g, [a, a])
    with pytest.raises(kop.KopError, match="no agent plays B"):
        kop.Match(g, {"A": a})


def test_match_takes_a_game_tree_and_seats_agents_by_name():
    """Issue 15: a GameTree is played as kop.TreeGame(tree); agents named after the players take
    their own seats whatever the order; an agent named after no player is refused, with both lists."""
    tree = kop.figure2()
    a, b = agents(2, 1)
    want = kop.Match(kop.figure2_game(), [a, b]).play()
    assert kop.Match(tree, [a, b]).play().outcome == want.outcome == (9, 4)
    swapped = kop.Match(tree, [b, a]).play()
    assert swapped.agents == ("A", "B") and swapped.outcome == want.outcome
    z = kop.Agent("Z", knowledge=kop.f_level("Z", "A", 1))
    with pytest.raises(kop.KopError, match=r"^Z is not the name of a player: 2 agents A, Z, the game has the "
                                           r"2 players A, B; name each agent after its player, or seat them "
                                           r"with a mapping \{player: agent\}$"):
        kop.Match(tree, [a, z])
    with pytest.raises(kop.KopError, match=r"^Z is not a player of the game: the mapping seats 2 players A, Z; "
                                           r"the game has the 2 players A, B$"):
        kop.Match(tree, {"A": a, "Z": z})
    with pytest.raises(kop.KopError, match=r"^3 agents A, B, Z for the 2 players A, B of the game$"):
        kop.Match(tree, [a, b, z])
    one = kop.GameTree.build(["A"], ("A", [(1,), (2,)]), goals="max")
    with pytest.raises(kop.KopError, match=r"^2 agents A, B for the 1 player A of the game$"):
        kop.Match(one, [a, b])
    # a mapping seats any agent anywhere (as a tournament swaps roles)
    r = kop.Match(tree, {"A": kop.Agent("B"), "B": kop.Agent("A")}).play()
    assert r.agents == ("B", "A") and r.players == ("A", "B")
    with pytest.raises(kop.KopError, match="agent's name"):
        kop.Agent("A B")
    with pytest.raises(kop.KopError, match="unknown strategy"):
        kop.Agent("A", strategy="best")


def test_an_agent_that_returns_an_illegal_move_is_caught():
    class Cheat(kop.Agent):
        def move(self, game, state=None, **kw):
            real = super().move(game, state, **kw)
            return type(real)(99, "99", real.strategy, real.choice, real.search)

        def with_knowledge(self, knowledge):
            return Cheat(self.name, knowledge=knowledge)

    with pytest.raises(kop.GameError, match="move 99 is not legal at 0"):
        kop.Match(kop.figure2_game(), [Cheat("A"), kop.Agent("B")]).play()


pyspiel = pytest.importorskip("pyspiel")


def test_tic_tac_toe_agents_with_different_evaluations():
    ttt = kop.from_openspiel("tic_tac_toe", players=("x", "o"), key="string")

    def lines(me):
        def score(state):
            if state.is_terminal():
                return 10 * state.returns()[me]
            b = str(state).replace("\n", "")
            mark, other = "xo"[me], "ox"[me]
            rows = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
            return sum(1 for r in rows if all(b[i] != other for i in r) and any(b[i] == mark for i in r))
        return score

    x = kop.Agent("X", evaluation=lines(0), knowledge=kop.f_level("X", "O", 1), depth=2)
    o = kop.Agent("O", evaluation=lines(1), knowledge=kop.f_level("O", "X", 0), depth=2)
    r = kop.Match(ttt, {"x": x, "o": o}).play()   # agents X, O at the seats of players x, o
    assert len(r.moves) >= 5 and len(r.outcome) == 2
    assert {s for a, s in r.strategies if a == "X"} <= {"Mh", "HM0M1"}
    assert {s for a, s in r.strategies if a == "O"} == {"minimax"}


MODULES = ["kop.agents.agent", "kop.agents.match", "kop.agents.tournament", "kop.games.search.implicit",
           "kop.games.search.expand", "kop.games.search.openspiel", "kop.games.search", "kop.games.search.result",
           "kop.games.search.minimax", "kop.games.search.mstar", "kop.games.search.mh",
           "kop.games.search.treegame", "kop.games.registry", "kop.selection.examples", "kop.selection.selector"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name),
                             optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_partial_knowledge_of_evaluations_reaches_the_selector():
    g = kop.figure2_game()
    # A knows the order of B's outcomes, and (publicly) that B knows the order of A's: every node is
    # decided (B must predict A too: SPEC §2.6 erratum), so A plays M^h
    both = (kop.knows_order("A", "B"), kop.knows_order("B", "A"))
    a = kop.Agent("A", knowledge=(kop.f_level("A", "B", 0), *both))
    b = kop.Agent("B", knowledge=kop.f_level("B", "A", 0))
    assert a.evaluation_knowledge == both
    r = kop.Match(g, [a, b]).play()
    assert r.outcome == (10, 3) and r.strategies[0] == ("A", "Mh")
    assert "partial knowledge: knows_order('A', 'B'); knows_order('B', 'A')" in r.log[0].reasons
    # knowing B's order alone decides B's nodes of height 1 only: B cannot predict A at U and V
    one = kop.Agent("A", knowledge=(kop.f_level("A", "B", 0), kop.knows_order("A", "B")))
    assert kop.Match(g, [one, b]).play().outcome == (4, 7)
    plain = kop.Match(g, [kop.Agent("A", knowledge=kop.f_level("A", "B", 0)), b]).play()
    assert plain.outcome == (4, 7)
    # an interval too wide to fix B's choices changes nothing
    w = kop.Agent("A", knowledge=(kop.f_level("A", "B", 0), kop.knows_within("A", "B", 1)))
    assert kop.Match(g, [w, b]).play().outcome == (4, 7)


def test_leaf_bound_partial_knowledge_is_used_only_on_the_whole_tree():
    g = kop.figure2_game()
    k = kop.knows_on_subtree("A", "B", "T")
    a = kop.Agent("A", knowledge=(kop.f_level("A", "B", 0), k))
    u = g.apply(g.apply(g.initial_state(), 1), 0)        # U, where A moves
    c = a.choose_strategy(g, u)
    assert any("not used below the root" in x for x in c.reasons)
    assert not any("not used below the root" in x for x in a.choose_strategy(g).reasons)


def test_levels_alone_rank_the_strategies_on_large_trees():
    g = kop.nim((3, 3))
    knowledge = kop.f_level("A", "B", 1)
    small = kop.Agent("A", knowledge=knowledge, select_limit=5)
    c = small.choose_strategy(g, opponent="B")
    assert c.strategy == "HM0M1" and c.selection is None
    assert any("exceeds 5 nodes" in r for r in c.reasons) and any("Theorem 8" in r for r in c.reasons)
    ck = kop.Agent("A", knowledge=["C{A,B}(E_A & E_B)", "K_A S_A"], select_limit=5)
    assert ck.choose_strategy(g, opponent="B").strategy == "Mh"
    none = kop.Agent("A", select_limit=5)
    assert none.choose_strategy(g, opponent="B").strategy == "minimax"
    horizon = kop.Agent("A", knowledge=kop.f_level("A", "B", 1), select_limit=5, depth=2)
    assert horizon.choose_strategy(g, opponent="B", evaluations={"MIN": lambda s: 0}).strategy == "Mh"
    assert kop.Agent("A", knowledge=knowledge).choose_strategy(g, opponent="B").selection is not None


def test_select_limit_holds_on_game_trees_too():
    """A game tree's subtree past select_limit nodes is ranked from the levels, as an expanded game is
    (the 22-node Figure 2 against a limit of 5; below it, at R, the 3-node subtree goes to the selector)."""
    g = kop.figure2_game()
    small = kop.Agent("A", knowledge=kop.f_level("A", "B", 2), select_limit=5)
    c = small.choose_strategy(g)
    assert c.selection is None and c.strategy == "HM0M2"
    assert any("exceeds 5 nodes" in r for r in c.reasons)
    assert kop.Agent("A", knowledge=kop.f_level("A", "B", 2)).choose_strategy(g).selection is not None
    b = kop.Agent("B", knowledge=kop.f_level("B", "A", 1), select_limit=5)
    assert b.choose_strategy(g, g.apply(g.initial_state(), 0)).selection is not None
