"""Games with information sets (issue 27): reading, recall, its kinds and formulas, beliefs, the CLI.

The references are from the definitions (kop.games.imperfect.reference: histories enumerated and
compared); pygambit's ``is_perfect_recall`` is a second, independent check where installed.  The
test games are kop's own (theories/forgetful_cards.efg, theories/driver.efg and those below); the
optional test ``test_gambit_checkout`` runs over Gambit's example files when KOP_GAMBIT_DIR
points to a checkout of gambitproject/gambit (Gambit is GPL: its files are not shipped here).
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from profiles import examples

import kop
from kop.games.errors import EfgError, TreeError
from kop.io.infogame import dumps_game, loads_game
from kop.games.imperfect.random_games import random_info_game
from kop.games.imperfect.beliefs import beliefs, reach_probabilities
from kop.games.imperfect.recall import KINDS
from kop.games.imperfect.reference import beliefs_reference, histories, knowledge_reference, recall_reference

ROOT = Path(__file__).resolve().parents[2]
CARDS = str(ROOT / "theories" / "forgetful_cards.efg")
DRIVER = str(ROOT / "theories" / "driver.efg")

# Ann chooses L or R, then moves again not knowing which: she forgets what she did
FORGETS_ACTION = """EFG 2 R "forgets action" { "Ann" "Bob" }
""
p "" 1 1 "" { "L" "R" } 0
p "" 2 1 "" { "l" "r" } 0
p "" 1 2 "" { "a" "b" } 0
t "" 1 "" { 1, 0 }
t "" 2 "" { 0, 1 }
t "" 3 "" { 2, 2 }
p "" 2 2 "" { "l" "r" } 0
p "" 1 2 "" { "a" "b" } 0
t "" 4 "" { 3, 0 }
t "" 5 "" { 0, 3 }
t "" 6 "" { 1, 1 }
"""

# matching pennies, Bob not seeing Ann's coin: imperfect information, perfect recall
PENNIES = """EFG 2 R "pennies" { "Ann" "Bob" }
p "" 1 1 "" { "H" "T" } 0
p "" 2 1 "" { "h" "t" } 0
t "" 1 "" { 1, -1 }
t "" 2 "" { -1, 1 }
p "" 2 1 "" { "h" "t" } 0
t "" 3 "" { -1, 1 }
t "" 4 "" { 1, -1 }
"""


def kop_cli(*args):
    return subprocess.run([sys.executable, "-m", "kop", *args], capture_output=True, text=True, cwd=ROOT)


# -- reading --------------------------------------------------------------------------

def test_reader_keeps_sets():
    g = kop.load_game(CARDS)
    assert g.players == ("Ann", "Bob")
    bob = g.player_sets("Bob")
    assert len(bob) == 1 and len(bob[0].nodes) == 2 and bob[0].actions == ("Call", "Fold")
    assert not g.perfect_information
    assert g.tree == kop.loads_game(dumps_game(g)).tree


def test_perfect_information_files_load_as_today():
    tree = kop.load_tree(ROOT / "theories" / "figure2.efg")
    g = kop.load_game(ROOT / "theories" / "figure2.efg")
    assert g.tree == tree and g.perfect_information and kop.perfect_recall(g)


def test_load_tree_still_refuses_and_points_to_load_game():
    with pytest.raises(EfgError, match=r"more than one node.*kop.load_game"):
        kop.load_tree(CARDS)


@pytest.mark.parametrize("text, where, what", [
    (PENNIES.replace('p "" 2 1 "" { "h" "t" } 0\nt "" 3', 'p "" 2 1 "" { "h" "t" "x" } 0\nt "" 3'),
     "line 6, column 13", r"has 2 actions \{ \"h\" \"t\" \} \(at line 3, column 1\); this node gives it 3 actions"),
    (PENNIES.replace('p "" 2 1 "" { "h" "t" } 0\nt "" 3', 'p "" 2 1 "" { "t" "h" } 0\nt "" 3'),
     "line 6, column 13", "other action names"),
    ('EFG 2 R "" { "A" }\nc "" 1 "" { "x" 1/2 "y" 1/3 } 0\nt "" 1 "" { 1 }\nt "" 2 "" { 2 }\n',
     "line 2, column 11", "chance probabilities sum to 0.833333, not 1"),
    ('EFG 2 R "" { "A" }\np "" 2 1 "" { "x" } 0\nt "" 1 "" { 1 }\n', "line 2, column 6", "player 2 does not exist"),
])
def test_bad_input_is_located(text, where, what, tmp_path):
    with pytest.raises(EfgError, match=what) as err:
        kop.loads_game(text)
    assert str(err.value).startswith(where)
    path = tmp_path / "bad.efg"
    path.write_text(text)
    r = kop_cli("recall", str(path))
    assert r.returncode == 2 and r.stdout == ""
    line = r.stderr.strip()
    assert "\n" not in line and "Traceback" not in line and where in line, line


def test_sets_that_mix_players_are_refused():
    t = kop.GameTree.build(["A", "B"], ("A", [("B", [(1, 0), (0, 1)]), ("A", [(1, 1), (0, 0)])]))
    with pytest.raises(TreeError, match="mixes players: root/0 is B's node, root/1 is A's"):
        kop.InfoGame.from_tree(t, {1: "h", 2: "h"})
    t2 = kop.GameTree.build(["A", "B"], ("A", [("B", [(1, 0), (0, 1)]), ("B", [(1, 1), (0, 0), (2, 2)])]))
    with pytest.raises(TreeError, match="root/0 has 2 actions, root/1 has 3"):
        kop.InfoGame.from_tree(t2, {1: "h", 2: "h"})
    with pytest.raises(TreeError, match="terminal node has no information set"):
        kop.InfoGame.from_tree(t, {"root/0/0": "h"})


# -- recall -----------------------------------------------------------------------------

def test_forgetful_cards():
    g = kop.load_game(CARDS)
    ann, bob = kop.recall_report(g, "Ann"), kop.recall_report(g, "Bob")
    assert bob.perfect_recall and bob.kinds == () and bob.witnesses == ()
    assert not ann.perfect_recall and ann.kinds == ("forgets-information",)
    w = ann.witnesses[0]
    assert w.nodes == ("High/Bet/Call", "Low/Bet/Call") and w.infoset == "2"
    assert w.formula == "at_Ann_2 & seen_Ann_1 -> K_Ann seen_Ann_1" and w.fails_at == ("High/Bet/Call",)


def test_forgets_action():
    g = kop.loads_game(FORGETS_ACTION)
    r = kop.recall_report(g, "Ann")
    assert r.kinds == ("forgets-action",)
    w = r.witnesses[0]
    assert w.forgotten == "that it chose 'L' at its information set 1"
    assert w.formula == "at_Ann_2 & did_Ann_1_0 -> K_Ann did_Ann_1_0"
    assert kop.recall_report(g, "Bob").perfect_recall
    assert recall_reference(g, "Ann") == (False, ("forgets-action",))


def test_absent_minded_driver():
    g = kop.load_game(DRIVER)
    r = kop.recall_report(g, 0)
    assert r.kinds == ("absent-minded",) and r.witnesses[0].nodes == ("root", "Continue")
    assert r.witnesses[0].fails_at == ("root", "Continue")


def test_imperfect_information_with_perfect_recall():
    g = kop.loads_game(PENNIES)
    assert kop.perfect_recall(g) and all(kop.recall_report(g, p).perfect_recall for p in g.players)


def test_formulas_fail_exactly_where_the_kind_is():
    """Every witness's formula is false at a node of its set, and true at every node of a game with perfect
    recall for that player (checked on the game model with every set's atoms)."""
    for text in (open(CARDS).read(), FORGETS_ACTION, open(DRIVER).read(), PENNIES):
        g = kop.loads_game(text)
        m = kop.game_model(g, sets="all", knowledge="sets")
        for p in g.players:
            r = kop.recall_report(g, p)
            for w in r.witnesses:
                assert not m.truth_mask(w.formula).all()
            for h in g.player_sets(p):   # absent-mindedness at every set: the formula against the definition
                am = f"at_{p}_{h.number} -> K_{p} ~seen_{p}_{h.number}"
                assert m.truth_mask(am).all() == _am_ok(g, h)


def _am_ok(g, h):
    return not any(x in g.history(y)[:-1] for x in h.nodes for y in h.nodes)


# -- beliefs (gambit#826) ----------------------------------------------------------------

def test_beliefs_driver():
    g = kop.load_game(DRIVER)
    for p in (0.0, 0.25, 0.5, 1.0):
        b, reached = beliefs(g, ("Driver", 1), {("Driver", 1): [p, 1 - p]})
        # the first exit is reached with probability 1, the second with 1 - p; visited at least once: 1
        assert reached == 1.0
        assert b[0] == pytest.approx(1 / (2 - p)) and b[2] == pytest.approx((1 - p) / (2 - p))


def test_beliefs_cards():
    g = kop.load_game(CARDS)
    bob = g.player_sets("Bob")[0]
    ann_high, ann_low = g.player_sets("Ann")[0], g.player_sets("Ann")[2]
    b, reached = beliefs(g, bob, {ann_high: [1.0, 0.0], ann_low: [0.25, 0.75]})
    assert reached == pytest.approx(0.5 + 0.125)
    assert [b[x] for x in bob.nodes] == pytest.approx([0.8, 0.2])
    b0, r0 = beliefs(g, bob, {ann_high: [0.0, 1.0], ann_low: [0.0, 1.0]})
    assert b0 == {} and r0 == 0.0


def test_reach_probabilities_sum_to_one_over_leaves():
    for seed in range(20):
        g = random_info_game(depth=4, branching=(1, 3), chance_prob=0.3, seed=seed)
        reach = reach_probabilities(g)
        assert reach[g.tree.kind == -1].sum() == pytest.approx(1.0) or (g.tree.kind != -1).all()


# -- the CLI ----------------------------------------------------------------------------

def test_cli_json_contract():
    r = kop_cli("recall", CARDS, "--json")
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("\n") == 1
    doc = json.loads(r.stdout)
    assert list(doc) == ["players"]
    assert [p["name"] for p in doc["players"]] == ["Ann", "Bob"]
    for p in doc["players"]:
        assert list(p) == ["name", "perfect_recall", "kinds", "witnesses"]
    assert doc["players"][0]["perfect_recall"] is False and doc["players"][0]["kinds"] == ["forgets-information"]
    w = doc["players"][0]["witnesses"][0]
    assert w["kind"] == "forgets-information" and w["formula"].startswith("at_Ann_2")
    assert doc["players"][1] == {"name": "Bob", "perfect_recall": True, "kinds": [], "witnesses": []}


def test_cli_player_and_text():
    r = kop_cli("recall", DRIVER, "--player", "Driver")
    assert r.returncode == 0 and "absent-minded" in r.stdout and "at_Driver_1 -> K_Driver ~seen_Driver_1" in r.stdout
    r = kop_cli("recall", CARDS, "--player", "1", "--json")
    assert [p["name"] for p in json.loads(r.stdout)["players"]] == ["Bob"]
    r = kop_cli("recall", CARDS, "--player", "Carol")
    assert r.returncode == 2 and r.stderr.startswith("error: no player 'Carol'")
    r = kop_cli("recall", str(ROOT / "no-such.efg"))
    assert r.returncode == 2 and "no such file" in r.stderr


# -- property tests against the definitions ---------------------------------------------

games = st.builds(lambda seed, depth, players, forget, absent, chance: random_info_game(
    depth=depth, branching=(1, 3), players=players, forget=forget, absent=absent, chance_prob=chance, seed=seed),
    st.integers(0, 2**31 - 1), st.integers(1, 5), st.sampled_from([("A",), ("A", "B"), ("A", "B", "C")]),
    st.sampled_from([0.0, 0.3, 1.0]), st.sampled_from([0.0, 0.05, 0.3]), st.sampled_from([0.0, 0.2]))


@settings(max_examples=examples(3000, quick=300), deadline=None)
@given(games)
def test_recall_matches_kuhn_by_brute_force(g):
    for p in g.players:
        r = kop.recall_report(g, p)
        assert (r.perfect_recall, r.kinds) == recall_reference(g, p)
        assert kop.perfect_recall(g, p) == r.perfect_recall
        assert set(r.kinds) <= set(KINDS) and len(r.witnesses) == len(r.kinds)
        for w in r.witnesses:   # the witness's two nodes are in its set; the formula fails at a node of it
            h = next(s for s in g.player_sets(p) if s.label == w.infoset)
            names = {g.node_name(x) for x in h.nodes}
            assert set(w.nodes) <= names and set(w.fails_at) <= names and w.fails_at
            # the formula on the whole game model fails exactly where the report says (on the set alone)
            full = kop.game_model(g, sets="all", knowledge="sets", atoms=())
            assert tuple(g.node_name(x) for x in np.flatnonzero(~full.truth_mask(w.formula)))[:10] == w.fails_at


@settings(max_examples=examples(1000, quick=100), deadline=None)
@given(games)
def test_efg_round_trip(g):
    g2 = loads_game(dumps_game(g))
    assert g2.tree == g.tree
    assert sorted(s.nodes for s in g2.sets) == sorted(s.nodes for s in g.sets)


@settings(max_examples=examples(1000, quick=100), deadline=None)
@given(games, st.data())
def test_knowledge_matches_brute_force(g, data):
    """K_P of the history atoms in the game model = truth at every history of P's cell (enumerated)."""
    assume(g.sets)
    m = kop.game_model(g, sets="all")
    p = data.draw(st.sampled_from(g.players))
    h = data.draw(st.sampled_from(g.sets))
    pairs = [(int(np.flatnonzero(g.node_set == h.index)[0]), r) for r in range(len(h.actions))]
    atoms = {f"seen_{h.player}_{h.number}": lambda path, node: any(g.node_set[n] == h.index for n, _, _ in path)}
    for _, r in pairs:
        atoms[f"did_{h.player}_{h.number}_{r}"] = (
            lambda path, node, r=r: any(g.node_set[n] == h.index and rr == r for n, rr, _ in path))
    atoms["move_0"] = lambda path, node: any(who != "chance" and g.sets[g.node_set[n]].actions[rr] == "0"
                                             for n, rr, who in path)
    for name, pred in atoms.items():
        ref = knowledge_reference(g, p, pred)
        if name not in m.atoms:
            assert not any(pred(path, x) for x, path in histories(g))
            continue
        mask = m.truth_mask(f"K_{p} {name}")
        assert {x: bool(mask[x]) for x in ref} == ref
        truth = {x: pred(path, x) for x, path in histories(g)}
        assert all(ref[x] == all(truth[y] for y in g.cell(p, x)) for x in ref)


@settings(max_examples=examples(1000, quick=100), deadline=None)
@given(games)
def test_recall_agrees_with_pygambit(g):
    gbt = pytest.importorskip("pygambit")
    import io
    theirs = gbt.read_efg(io.StringIO(dumps_game(g, labels=False)))
    assert theirs.is_perfect_recall == kop.perfect_recall(g)


# -- Gambit's own files (optional: a checkout of gambitproject/gambit) ---------------------

@pytest.mark.skipif(not os.environ.get("KOP_GAMBIT_DIR"), reason="KOP_GAMBIT_DIR does not point to a Gambit checkout")
def test_gambit_checkout():
    import io

    gbt = pytest.importorskip("pygambit")
    root = Path(os.environ["KOP_GAMBIT_DIR"])
    files = sorted(p for d in ("catalog", "contrib/games", "tests/test_games", "doc") for p in (root / d).rglob("*.efg"))
    assert files
    imperfect = 0
    for f in files:
        g = kop.load_game(f)
        imperfect += not g.perfect_information
        if g.perfect_information:
            assert kop.load_tree(f) == g.tree
        theirs = gbt.read_efg(io.StringIO(dumps_game(g, labels=False)))
        assert theirs.is_perfect_recall == kop.perfect_recall(g), f
        for p in g.players:
            r = kop.recall_report(g, p)
            assert (r.perfect_recall, r.kinds) == recall_reference(g, p), (f, p)
    assert imperfect > 0


@settings(max_examples=examples(1000, quick=100), deadline=None)
@given(games, st.booleans())
def test_fast_path_reads_sets_as_the_token_reader(g, labels):
    from kop.io.efg import read_efg_sets

    text = dumps_game(g, labels=labels)
    a, b = read_efg_sets(text), read_efg_sets(text, fast=False)
    assert a.tree == b.tree and a.keys == b.keys and a.node_set.tolist() == b.node_set.tolist()


# -- the guide --------------------------------------------------------------------------

def test_guide_examples_and_transcripts():
    from doc_examples import page, run_python_blocks

    text = page("imperfect-information.md")
    failed, tried = run_python_blocks(text, "imperfect-information.md")
    assert failed == 0 and tried > 20
    commands = _recall_transcript(text)
    core = [(c, shown) for c, shown in commands if "openspiel:" not in c]   # those: test_guide_openspiel_example
    assert len(core) >= 3
    for command, shown in core:
        r = kop_cli(*command.split()[1:])
        assert r.returncode == 0, r.stderr
        assert r.stdout.splitlines() == shown, command


def _recall_transcript(text):
    from doc_examples import transcript

    blocks = [b for b in text.split("```\n") if b.startswith("$ kop recall")]
    assert blocks
    return transcript(blocks[0])


def test_guide_openspiel_example():
    """The guide's OpenSpiel block (its own fence: it needs the openspiel extra)."""
    pytest.importorskip("pyspiel")
    from doc_examples import page, run_python_blocks

    text = page("imperfect-information.md")
    failed, tried = run_python_blocks(text, "imperfect-information.md", fence="python openspiel")
    assert failed == 0 and tried >= 5
    spiel = [(c, shown) for c, shown in _recall_transcript(text) if "openspiel:" in c]
    assert spiel
    for command, shown in spiel:
        r = kop_cli(*command.split()[1:])
        assert r.returncode == 0, r.stderr
        assert r.stdout.splitlines() == shown, command


def _behaviour(g, data):
    """A random behaviour: per information set, a distribution over its actions (weights 0-3)."""
    out = []
    for h in g.sets:
        w = data.draw(st.lists(st.integers(0, 3), min_size=len(h.actions), max_size=len(h.actions)))
        w = w if sum(w) else [1] * len(w)
        out.append([x / sum(w) for x in w])
    return out


@settings(max_examples=examples(1000, quick=100), deadline=None)
@given(games, st.data())
def test_beliefs_match_brute_force(g, data):
    assume(g.sets)
    behaviour = _behaviour(g, data)
    profile = {h: behaviour[h.index] for h in g.sets}
    for h in g.sets:
        b, once = beliefs(g, h, profile)
        rb, ronce = beliefs_reference(g, h.index, behaviour)
        assert once == pytest.approx(ronce) and 0 <= once <= 1 + 1e-9
        assert b.keys() == rb.keys() and all(b[x] == pytest.approx(rb[x]) for x in b)
        assert not b or sum(b.values()) == pytest.approx(1.0)


def test_pygambit_games():
    gbt = pytest.importorskip("pygambit")
    pg = gbt.read_efg(CARDS)
    g, mine = kop.from_pygambit(pg), kop.load_game(CARDS)
    assert g.tree == mine.tree and [s.nodes for s in g.sets] == [s.nodes for s in mine.sets]
    assert kop.perfect_recall(pg) == pg.is_perfect_recall is False
    assert kop.game_model(pg, sets="all").satisfies("K_Ann chance_High", "w1")


@settings(max_examples=examples(500, quick=60), deadline=None)
@given(games, st.data())
def test_model_probability_is_the_belief(g, data):
    """With a profile, P_P(phi) at a node of P's set h is the reference belief mass of h's nodes where phi holds."""
    from fractions import Fraction

    assume(g.sets)
    behaviour = _behaviour(g, data)
    m = kop.game_model(g, sets="all", profile={h: behaviour[h.index] for h in g.sets}, knowledge="sets")
    h = data.draw(st.sampled_from(g.sets))
    other = data.draw(st.sampled_from(g.sets))
    atom = f"seen_{other.player}_{other.number}"
    rb, _ = beliefs_reference(g, h.index, behaviour)
    truth = m.truth_mask(atom)
    for x in h.nodes:
        got = m.probability(h.player, atom, f"w{x}")
        if rb:
            assert float(got) == pytest.approx(sum(p for y, p in rb.items() if truth[y]))
        else:   # a set reached with probability 0: its nodes weigh the same
            assert got == Fraction(sum(bool(truth[y]) for y in h.nodes), len(h.nodes))


def test_theories_script_runs():
    r = subprocess.run([sys.executable, str(ROOT / "theories" / "forgetful_cards.py")], capture_output=True,
                       text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 0, r.stderr
    assert "Ann: imperfect recall: forgets-information" in r.stdout and "Bob: perfect recall" in r.stdout
    assert "Bob's belief in High/Bet: 0.80" in r.stdout


def test_long_set_labels_stay_on_one_line():
    t = kop.GameTree.build(["A"], ("A", [("A", [(1,), (0,)]), ("A", [(0,), (1,)])]))
    label = "[Observer: 0]\n[Private: 2]\n" + "x" * 60
    g = kop.InfoGame.from_tree(t, {1: label, 2: label, 0: "first\nmove"})
    w = kop.recall_report(g, "A").witnesses[0]
    assert w.kind == "forgets-action" and w.infoset == label
    assert "\n" not in w.forgotten and w.forgotten == "that it chose '0' at its information set 1"
