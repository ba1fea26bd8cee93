"""Gambit .efg files in every style the format allows (tests/games/efg_corpus/), read by kop, and
cross-checked against open-spiel's own reader (``pyspiel.load_efg_game``) where open-spiel reads them.

Every perfect-information file loads; every imperfect-information one is rejected with the
"information set ... more than one node" message, located at the second node of the set.
"""

import math
from pathlib import Path

import numpy as np
import pytest

import kop
from kop.games.errors import EfgError

CORPUS = Path(__file__).resolve().parent / "efg_corpus"
FILES = sorted(p.name for p in CORPUS.glob("*.efg"))
PERFECT = [f for f in FILES if not f.startswith("imperfect_")]
IMPERFECT = [f for f in FILES if f.startswith("imperfect_")]
# the files open-spiel's reader parses (it aborts the process on the others: decimals such as
# .80, escaped quotes, outcomes reused without payoffs, a chance set without its actions,
# payoffs at inner nodes, CRLF line ends)
OPEN_SPIEL_READS = ["commas.efg", "kop_goals.efg", "one_line.efg", "openspiel_style.efg",
                    "rationals_chance.efg", "three_players.efg"]

# (file, M^h value at the root, labels and moves that must survive)
EXPECTED = {
    "commas.efg": ((3, 5), {"moves": ["Out", "In"]}),
    "decimals.efg": ((0.8, 0.2), {}),
    "rationals_chance.efg": ((11 / 12, 8 / 3), {"labels": ["nature", "s-strong"]}),
    "chance_reused.efg": ((1, -1), {"labels": ["first toss", "second toss"]}),
    "outcome_reuse.efg": ((1, -1), {"labels": ["3 left", "0 left"]}),
    "escaped_names.efg": ((1, 2), {"labels": ['say "hi"', "c:\\games"], "moves": ['"hi"', "wave ✋"]}),
    "inner_outcomes.efg": ((1.5, 3.5), {}),
    "one_line.efg": ((5, 6), {}),
    "odd_layout.efg": ((3, 4), {}),
    "three_players.efg": ((2, 2, 2), {}),
    "kop_goals.efg": ((9, 4), {}),
    "openspiel_style.efg": ((2, -2), {}),
}


def test_corpus_is_complete():
    assert set(PERFECT) == set(EXPECTED) and len(IMPERFECT) >= 3


@pytest.mark.parametrize("name", PERFECT)
def test_perfect_information_files_load(name):
    tree = kop.load_tree(CORPUS / name)
    value, names = EXPECTED[name]
    assert kop.mh(tree).value == pytest.approx(value)
    for label in names.get("labels", []):
        assert tree.find(label) is not None
    moves = set(tree.moves.values())
    assert set(names.get("moves", [])) <= moves
    assert kop.loads_efg(kop.dumps_efg(tree)) == tree


def test_specific_readings():
    odd = kop.load_tree(CORPUS / "inner_outcomes.efg")
    # the entry fee (-1, 0) at the root and the bonus (0, 1) at the chance node add up
    assert [leaf.payoff for leaf in odd.leaves()] == [(-1, 0), (4, 6), (-1, 1)]
    reuse = kop.load_tree(CORPUS / "outcome_reuse.efg")
    assert [leaf.payoff for leaf in reuse.leaves()] == [(1, -1), (1, -1), (-1, 1)]  # breadth first
    goals = kop.load_tree(CORPUS / "kop_goals.efg")
    assert [p.goal for p in goals.players] == ["max", "min"] and goals.root.children[0].payoff == (4, 7)
    names = kop.load_tree(CORPUS / "escaped_names.efg")
    assert names.player_names == ('Alice "the first"', "Bob")
    chance = kop.load_tree(CORPUS / "rationals_chance.efg")
    assert chance.root.probabilities == pytest.approx((1 / 3, 2 / 3))
    assert chance.node("s-strong").children[1].payoff == (0.25, -0.5)


@pytest.mark.parametrize("name", IMPERFECT)
def test_imperfect_information_files_are_refused_clearly(name):
    with pytest.raises(EfgError, match=r"line \d+, column \d+: information set \d+ of player \d+ \(.*\) contains "
                                       r"more than one node \(also at line \d+, column \d+\); kop supports "
                                       r"perfect-information trees only"):
        kop.load_tree(CORPUS / name)


# -- against open-spiel -------------------------------------------------------------------

def spiel_terminals(game):
    """(reach probability, returns) of every terminal history, actions in order (open-spiel)."""
    out = []
    stack = [(game.new_initial_state(), 1.0)]
    while stack:
        state, p = stack.pop()
        if state.is_terminal():
            out.append((p, tuple(state.returns())))
            continue
        if state.is_chance_node():
            kids = [(state.child(a), p * q) for a, q in state.chance_outcomes()]
        else:
            kids = [(state.child(a), p) for a in state.legal_actions()]
        stack.extend(reversed(kids))
    return out


def kop_terminals(tree):
    """(reach probability, payoffs as Gambit players see them) of every leaf, in prefix order."""
    signs = [p.sign for p in tree.players]
    out = []
    stack = [(tree.root, 1.0)]
    while stack:
        node, p = stack.pop()
        if node.is_leaf:
            out.append((p, tuple(s * x for s, x in zip(signs, node.payoff))))
            continue
        probs = node.probabilities or [1.0] * len(node.children)
        stack.extend(reversed([(c, p * q) for c, q in zip(node.children, probs)]))
    return out


@pytest.mark.parametrize("name", OPEN_SPIEL_READS)
def test_open_spiel_reads_the_same_game(name):
    pyspiel = pytest.importorskip("pyspiel")
    text = (CORPUS / name).read_text(encoding="utf-8")
    game = pyspiel.load_efg_game(text)
    tree = kop.loads_efg(text)
    assert game.num_players() == len(tree.players)
    ours, theirs = kop_terminals(tree), spiel_terminals(game)
    assert len(ours) == len(theirs)
    for (p, u), (q, v) in zip(ours, theirs):
        assert math.isclose(p, q, rel_tol=1e-12) and np.allclose(u, v, rtol=1e-12, atol=0)


# -- defects (each failed before the fix) -----------------------------------------------------

HEAD = 'EFG 2 R "g" { "A" "B" } ""\n'


@pytest.mark.parametrize("body, message", [
    ('t "" 1 "" { 1e999999999 2 }', r"line 2, column 13: the exponent of '1e999999999' is beyond kop's limit of 400"),
    ('t "" 1 "" { 1e10000000, 2 }', r"line 2, column 13: the exponent of '1e10000000' is beyond kop's limit"),
    ('t "" 1 "" { 1e300 1e308 }', None),
    ('t "" 1 "" { 1e309 1 }', r"line 2, column 13: payoff 1e309 is too large for a 64-bit float"),
    ('t "" 1 "" { ' + "9" * 500 + ' 1 }', r"line 2, column 13: a payoff has 500 characters; kop reads numbers of up to 200"),
    ('c "" 1 "" { "a" 1e400 "b" 0 } 0 t "" 1 "" { 1 2 } t "" 2 "" { 1 2 }',
     r"line 2, column 17: the probability of action 'a' is 1e400; a probability is between 0 and 1"),
    ('c "" 1 "" { "a" 1e-400 "b" 1 } 0 t "" 1 "" { 1 2 } t "" 2 "" { 1 2 }', None),
    ('t "" 1 "" { 1, }', r"line 2, column 16: expected a payoff after ',', found '}'"),
    ('t "" 1 "" { 1,, 2 }', r"line 2, column 15: expected a payoff after ',', found ','"),
    ('t "" 1 "" { 1 2 3 }', r"line 2, column 11: outcome 1 has 3 payoffs, expected 2 \(players A, B\)"),
    ('t "" 1 "" { 1 x }', r"line 2, column 15: expected a payoff, ',' or '}', found 'x'"),
    ('t "" 1 "" { 1 2/0 }', r"line 2, column 15: a payoff '2/0' divides by zero"),
    ('t "" 1 "" { 1 1.2.3 }', r"line 2, column 15: expected a payoff \(like 3, -1.5, .80, 2e-3 or 3/4\), found '1.2.3'"),
    ('t "" 1.5 "" { 1 2 }', r"line 2, column 6: expected the outcome number \(0 for none\) \(a whole number\), found '1.5'"),
    ('t "" 0 "" { 1 2 }', r"line 2, column 6: outcome 0 means no outcome"),
    ('t "" 3', r"line 2, column 6: outcome 3 is used before its payoffs are given"),
    ('p "" 1 1 "" { "a" "b" } 0 t "" 1 "" { 1 2 }', r"line 2, column 44: the file ends before the tree is complete"),
    ('p "" 1 1 "" { } 0', r"line 2, column 13: a personal node needs at least one action"),
    ('p "" 3 1 "" { "a" } 0 t "" 1 "" { 1 2 }', r"line 2, column 6: player 3 does not exist \(players 1..2: A, B\)"),
    ('p "" 1 1 0 t "" 1 "" { 1 2 }', r"line 2, column 8: information set 1 of player 1 is used before its actions"),
    ('c "" 1 "" { "a" 1/2 "b" 1/3 } 0 t "" 1 "" { 1 2 } t "" 2 "" { 1 2 }',
     r"line 2, column 11: chance probabilities sum to 0.833333, not 1"),
    ('p "" 1 1 "" { "a" } 0 t "" 1 "" { 1 2 } t "" 2 "" { 1 2 }', r"line 2, column 41: extra text after the tree"),
    ('t "" 1 "" { 1 2 } @', r"line 2, column 19: extra text after the tree"),
    ('p "" 1 1 "" { "a" "b" } 0 t "" 1 "o" { 1 2 } t "" 1 "o" { 2 1 }',
     r"line 2, column 57: outcome 1 was defined at line 2, column 27 with other payoffs \(1, 2\)"),
    ('t "unterminated 1 "" { 1 2 }', r"line 2, column 20: expected the outcome number \(0 for none\), found the character '\"'"),
])
def test_bad_efg_is_located_and_worded(body, message):
    if message is None:
        assert kop.loads_efg(HEAD + body) is not None
        return
    with pytest.raises(EfgError, match=message):
        kop.loads_efg(HEAD + body)


@pytest.mark.parametrize("comment, goals", [
    ("kop-goals: A=max B=min", ["max", "min"]),
    ("kop-goals: min max (positional)", ["min", "max"]),
    ("kop-goals: B=min and some words", ["max", "min"]),
    ("no goals here", ["max", "max"]),
])
def test_kop_goals_comment(comment, goals):
    t = kop.loads_efg(f'EFG 2 R "g" {{ "A" "B" }} "{comment}" t "" 1 "" {{ 1 2 }}')
    assert [p.goal for p in t.players] == goals


@pytest.mark.parametrize("comment", ["kop-goals: A=max=min", "kop-goals: C=max", "kop-goals: A=up", "kop-goals: ="])
def test_malformed_kop_goals_comment_is_located(comment):
    with pytest.raises(EfgError, match=r"line 1, column 25: the kop-goals comment: .* is not PLAYER=max or PLAYER=min"):
        kop.loads_efg(f'EFG 2 R "g" {{ "A" "B" }} "{comment}" t "" 1 "" {{ 1 2 }}')


def test_flat_game_with_many_terminals_reads():
    n = 30_000
    flat = kop.GameTree.build(["A", "B"], ("A", [(i, -i) for i in range(n)]))
    back = kop.loads_efg(kop.dumps_efg(flat))
    assert back == flat and back.n_leaves == n


def test_names_with_spaces_keep_their_goals():
    t = kop.GameTree.build(["Player one", "B=2"], ("Player one", [(1, 2), (3, 4)]))
    text = kop.dumps_efg(t)
    assert "kop-goals: max min" in text
    assert kop.loads_efg(text) == t
