"""The theory language: inline games, scenarios, questions, expectations, and every bad input located."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import kop
from kop import KopError, ParseError
from kop.selection.examples import figure2

ROOT = Path(__file__).resolve().parents[2]
THEORIES = ROOT / "theories"


def _cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "kop", *args], capture_output=True, text=True, timeout=300,
                          cwd=cwd)


def _run(text, tmp_path=None, **kw):
    base = tmp_path if tmp_path is not None else "."
    return kop.run_theory(kop.parse_theory(text, base), **kw)


def test_inline_figure2_is_the_papers_tree():
    from kop.theory import TheoryRun

    run = TheoryRun(kop.load_theory(THEORIES / "figure2.kop"), questions=False)
    assert run.tree == figure2()
    assert [c.name for c in run.scenarios()] == ["s1", "s2", "s3", "s4"]
    lines = [ln for ln in (THEORIES / "figure2.kop").read_text().splitlines()]
    start = next(i for i, ln in enumerate(lines) if ln.startswith("game"))
    end = next(i for i in range(start, len(lines)) if lines[i] == "}")
    assert end - start + 1 < 15


def test_dominates_figure2_json():
    r = _cli("dominates", str(THEORIES / "figure2.kop"), "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["theory"].endswith("figure2.kop")
    got = {s["scenario"]: (s["recommended"], s["outcome"], s["outcome_with_communication"])
           for s in doc["scenarios"]}
    assert got == {"s1": ("minimax", [4, 7], None), "s2": ("HM0M1", [9, 4], [10, 3]),
                   "s3": ("HM0M1", [9, 4], [10, 3]), "s4": ("HM0M2", [9, 4], [10, 3])}
    s3 = next(s for s in doc["scenarios"] if s["scenario"] == "s3")
    assert set(s3) >= {"scenario", "player", "recommended", "outcome", "outcome_with_communication",
                       "candidates", "dominance"}
    assert s3["player"] == "A"
    assert {"strategy": "HM0M1", "over": "minimax", "claimed_by": "Theorem 8", "verified": True} in s3["dominance"]
    assert s3["mstar"]["outcome"] == [3, 8] and s3["mstar"]["minimax_outcome"] == [4, 7]
    assert "worse for both players" in s3["mstar"]["note"]
    mh = s3["candidates"][0]
    assert mh["strategy"] == "Mh" and mh["precondition"]["status"] == "refuted"
    cm = kop.KripkeModel.from_json(mh["precondition"]["countermodel"])
    assert not cm.satisfies(kop.parse(mh["precondition"]["formula"]))
    assert all(e["result"]["ok"] for e in doc["expectations"])


def test_dominates_text_and_scenario_flag():
    r = _cli("dominates", str(THEORIES / "figure2.kop"), "--scenario", "s3")
    assert r.returncode == 0, r.stderr
    assert "M1 against M1 gives (3, 8); minimax against minimax gives (4, 7): M1 is worse for both players" \
        in r.stdout
    assert "Recommendation: HM0M1, outcome (9, 4); with communication (scheme I) (10, 3)." in r.stdout
    r = _cli("dominates", str(THEORIES / "figure2.kop"), "--scenario", "nope")
    assert r.returncode == 2 and "no scenario 'nope'" in r.stderr


def test_expectation_mismatch_exits_1(tmp_path):
    t = tmp_path / "t.kop"
    t.write_text((THEORIES / "figure2.kop").read_text().replace("in s4 expect A: HM0M2 (9,4)",
                                                               "in s4 expect A: HM0M2 (10,3)"))
    r = _cli("dominates", str(t))
    assert r.returncode == 1 and "MISMATCH" in r.stdout
    r = _cli("run", str(t))
    assert r.returncode == 1


def test_decided_names_what_is_missing_with_checked_countermodels():
    r = _cli("decided", str(THEORIES / "figure2.kop"), "--scenario", "s2", "--json")
    assert r.returncode == 0, r.stderr
    sc = json.loads(r.stdout)["scenarios"][0]
    assert sc["decided"] == ["R", "T", "W", "X", "Y", "Z"]
    assert [g["node"] for g in sc["undecided"]] == ["root", "S", "U", "V"]
    premises = kop.f_level("A", "B", 1) + kop.f_level("B", "A", 0)
    for g in sc["undecided"]:
        m = kop.KripkeModel.from_json(g["countermodel"])
        assert m.satisfies(kop.conj(premises)) and not m.satisfies(kop.parse(g["missing"]))
        assert not kop.entails(premises, g["missing"]).holds
    r = _cli("decided", str(THEORIES / "figure2.kop"), "-s", "s1")
    assert r.returncode == 0 and "R (B moves) is undecided: K_A E_B does not follow" in r.stdout


def test_scopes_and_players():
    text = ("players A max, B min\ngame A { L: B { (1,5) (3,2) }  R: B { (2,1) (0,0) } }\n"
            "scenario one { core A = 0 }\nscenario two {\n  core A = 1\n  know K_B E_A\n}\n"
            "in two ask level A\nin base ask level A\nin all ask level A\nask play A=Mh B=Mh\n")
    ans = _run(text)
    assert [(a.scenario, a.result.get("level")) for a in ans[:5]] == [
        ("two", 1), (None, -1), ("one", 0), ("two", 1), (None, None)]
    assert ans[-1].result["outcome"] == [3, 2]


def test_chance_and_move_labels():
    text = "players A, B\ngame A { go -> N: chance { 1/3 -> (3,0)  tails 2/3 -> (0,3) }  stop -> (1,1) }\n"
    from kop.theory.questions import run_statements

    tree = run_statements(kop.parse_theory(text)).tree
    assert tree.has_chance and [p.goal for p in tree.players] == ["max", "max"]
    text3 = "players A, B, C\ngame A { B { (1,2,3) (3,2,1) }  C { (0,0,9) (9,9,0) } }\nask play A=Mh B=Mh C=Mh\n"
    out = _run(text3)[0].result["outcome"]
    assert out == [1, 2, 3]  # three players, every one maximizing its own payoff


# -- goals: a player without one maximizes, whatever the number of players (issue 15) ----------

GAME = "game A { L: B { (1,2) (3,0) }  R: B { (0,5) (2,4) } }\nask play A=Mh B=Mh\n"


@pytest.mark.parametrize("players, goals, outcome", [
    ("players A, B\n", ["max", "max"], [1, 2]),          # bare: both maximize (was: B minimizes)
    ("", ["max", "max"], [1, 2]),                         # no players line: the movers maximize
    ("players A max, B min\n", ["max", "min"], [3, 0]),  # the paper's convention, written out
    ("players A, B min\n", ["max", "min"], [3, 0]),
    ("players A max, B\n", ["max", "max"], [1, 2]),
])
def test_a_player_without_a_goal_maximizes(players, goals, outcome):
    from kop.theory.questions import run_statements

    text = players + GAME
    assert [p.goal for p in run_statements(kop.parse_theory(text)).tree.players] == goals
    assert _run(text)[0].result["outcome"] == outcome


def test_bare_players_keep_a_tree_files_goals(tmp_path):
    from kop.theory.questions import run_statements

    fig2 = "figure2.json"                                       # read from THEORIES, wherever pytest runs
    for text in (f'players A, B\ntree "{fig2}"\n', f'tree "{fig2}"\nplayers A, B\n'):
        assert [p.goal for p in run_statements(kop.parse_theory(text, THEORIES)).tree.players] == ["max", "min"]
    text = f'players A, B max\ntree "{fig2}"\n'                # a goal given replaces the file's
    assert [p.goal for p in run_statements(kop.parse_theory(text, THEORIES)).tree.players] == ["max", "max"]


def test_the_sharing_game_of_the_reference():
    """docs/theories.md's sharing game: Andy and Barb both maximize, and Barb says yes to every
    offer (were Barb minimizing, she would refuse to share and refuse a gift)."""
    from kop.theory.questions import run_statements

    text = (ROOT / "docs" / "theories.md").read_text(encoding="utf-8")
    start = text.index("players Andy, Barb   ")
    block = text[start:text.index("```", start)]
    state = run_statements(kop.parse_theory(block))
    assert [(p.name, p.goal) for p in state.tree.players] == [("Andy", "max"), ("Barb", "max")]
    assert _run(block)[0].result["outcome"] == [2, 0]
    offers = [ln.strip() for ln in block.splitlines() if "-> Barb" in ln]
    assert len(offers) == 3
    for line in offers:
        yes = [int(x) for x in line.split("yes -> (")[1].split(")")[0].split(",")]
        one = f"players Andy, Barb\ngame Andy {{\n  {line}\n}}\nask play Andy=Mh Barb=Mh\n"
        assert _run(one)[0].result["outcome"] == yes, line


def test_observation_model_and_include(tmp_path):
    (tmp_path / "base.kop").write_text("model {\n  vocabulary p q\n  law p | q\n  observes a: p\n"
                                       "  observes b: q\n  actual p q\n}\n")
    (tmp_path / "main.kop").write_text('include "base.kop"\nask check K_a p & ~K_a q\nask worlds\n')
    ans = kop.run_theory(kop.load_theory(tmp_path / "main.kop"))
    assert ans[0].result["holds"] is True and ans[1].result["worlds"] == ["w11"]


@pytest.mark.parametrize("text,line,column,part", [
    ("agents A, B\nscenario s {\n  core Z = 1\n}\n", 3, 8, "unknown agent 'Z'"),
    ("agents A, B\nin nope ask level A\n", 2, 4, "no scenario 'nope'"),
    ("agents A, B, C\ncore A = 1\n", 2, 6, "cannot tell who A's opponent is"),
    ("agents A, B\nknow K_A p\nknow K_Z q\nask level A\n", 3, 6, "names agent 'Z'"),
    ("players A, B\ngame A { (1,2) (3) }\n", 2, 16, "a leaf needs 2 payoffs"),
    ("players A, B\ngame A { C { (1,2) } }\n", 2, 10, "unknown mover 'C'"),
    ("players A, B\ngame A { (1,2) }\nask select Z\n", 3, 12, "unknown player 'Z'"),
    ("players A, B\ngame A { (1,2) }\nask dominates Q\n", 3, 15, "unknown player 'Q'"),
    ("players A, B\ngame A { N: chance { 1/2 -> (1,2)  1/3 -> (0,0) } }\n", 2, 10, "sum to 5/6"),
    ('tree "missing.json"\n', 1, 1, "does not exist"),
    ('include "missing.kop"\n', 1, 1, "does not exist"),
    ("core A = 99999999999999999999\n", 1, 10, "above kop's limit"),
    ("agents A, B\nscenario s {\n  ask level A\n}\n", 3, 3, "expected"),
    ("agents A, B\nknow K_A (p &\n", 2, 14, "in a formula"),
])
def test_located_errors(tmp_path, text, line, column, part):
    with pytest.raises(ParseError) as info:
        _run(text, tmp_path)
    assert (info.value.line, info.value.column) == (line, column), str(info.value)
    assert part in str(info.value)


def test_inconsistent_knowledge_shows_a_minimal_contradictory_subset():
    text = "agents A, B\nknow K_A p\nknow q\nknow K_B ~r\nknow t\nknow ~q | ~K_A p\nask entails s\n"
    with pytest.raises(ParseError) as info:
        _run(text)
    msg = str(info.value)
    assert "inconsistent" in msg and "line 3" in msg and "line 6" in msg and "line 2" in msg
    assert "line 4" not in msg and "line 5" not in msg


def test_include_cycles(tmp_path):
    (tmp_path / "a.kop").write_text('include "b.kop"\n')
    (tmp_path / "b.kop").write_text('agents A, B\ninclude "a.kop"\n')
    (tmp_path / "self.kop").write_text('include "self.kop"\n')
    with pytest.raises(ParseError, match="include cycle: a.kop -> b.kop -> a.kop"):
        kop.load_theory(tmp_path / "a.kop")
    with pytest.raises(ParseError, match="include cycle: self.kop -> self.kop"):
        kop.load_theory(tmp_path / "self.kop")


def test_reads_are_confined(tmp_path):
    inside = tmp_path / "in"
    inside.mkdir()
    secret = tmp_path / "secret.json"
    secret.write_text("root:x:0:0:top secret\n")
    (inside / "link.json").symlink_to(secret)
    for name in ["../secret.json", "link.json", str(secret)]:
        (inside / "t.kop").write_text(f'tree "{name}"\n')
        with pytest.raises(ParseError, match="outside the theory's folder") as info:
            kop.run_theory(kop.load_theory(inside / "t.kop"))
        assert "top secret" not in str(info.value)
    # allowed: read, but a file in the wrong format is never quoted
    with pytest.raises(ParseError) as info:
        kop.run_theory(kop.load_theory(inside / "t.kop", allow_outside=True))
    assert "is not a kop-tree/1 JSON" in str(info.value) and "top secret" not in str(info.value)
    r = _cli("run", str(inside / "t.kop"), "--allow-outside")
    assert r.returncode == 2 and "top secret" not in r.stderr


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_devices_and_fifos_are_refused(tmp_path):
    (tmp_path / "t.kop").write_text('model "/dev/zero"\n')
    with pytest.raises(ParseError, match="not a regular file"):
        kop.run_theory(kop.load_theory(tmp_path / "t.kop", allow_outside=True))
    os.mkfifo(tmp_path / "pipe.json")
    (tmp_path / "t.kop").write_text('tree "pipe.json"\n')
    with pytest.raises(ParseError, match="not a regular file"):
        kop.run_theory(kop.load_theory(tmp_path / "t.kop"))


def test_nul_and_non_utf8_are_located_exit_2(tmp_path):
    (tmp_path / "t.kop").write_text('tree "a\x00b.json"\n')
    r = _cli("run", str(tmp_path / "t.kop"))
    assert r.returncode == 2 and "NUL" in r.stderr and "line 1, column" in r.stderr
    (tmp_path / "u.kop").write_bytes(b"agents A, B\nknow K_A \xff\n")
    r = _cli("run", str(tmp_path / "u.kop"))
    assert r.returncode == 2 and "not UTF-8" in r.stderr and "line 2, column 10" in r.stderr


def test_huge_core_does_not_hang():
    with pytest.raises(ParseError, match="above kop's limit"):
        kop.parse_theory("agents A, B\ncore A = 100000\n")
    with pytest.raises(ParseError, match="above kop's limit 990") as info:
        kop.run_theory(kop.parse_theory("agents A, B\ncore A = 991\n"))
    assert info.value.line == 2


def test_announce_on_a_game_reports_before_and_after():
    text = (THEORIES / "figure2.kop").read_text().split("ask level A")[0] + "in s4 announce E_A & E_B\n" \
        "in s4 ask level A\n"
    ans = kop.run_theory(kop.parse_theory(text, THEORIES))
    before, after = ans[0].result["before"], ans[0].result["after"]
    assert before["recommended"] == "HM0M2" and before["outcome"] == [9, 4]
    assert after["recommended"] == "Mh" and after["outcome"] == [10, 3]
    assert after["levels"]["A"] == "inf"
    assert ans[-1].result["level"] == "inf"


def test_every_shipped_theory_runs_in_process():
    for path in sorted(THEORIES.glob("*.kop")):
        answers = kop.run_theory(kop.load_theory(path))
        assert all(a.result.get("ok", True) for a in answers if a.question.startswith("expect")), path


def test_cli_huge_core_is_refused_quickly():
    r = _cli("select", str(THEORIES / "figure2.json"), "-c", "A=100000", "--timeout", "5")
    assert r.returncode == 2 and "above kop's limit" in r.stderr
    r = _cli("select", str(THEORIES / "figure2.json"), "-c", "A=99999999999999999999")
    assert r.returncode == 2 and "above kop's limit" in r.stderr


_FIG2 = (THEORIES / "partial_knowledge.kop").read_text().split("core A = 0")[0]


@pytest.mark.parametrize("stmt,line,column,part", [
    ("B knows E_A among {\n  [4, 8, 7]\n  [4, 8, 7, 5, 10, 6, 3, 1, 2, 11, 9, 1]\n}\n", 2, 3, "needs 12 values"),
    ("B knows E_A among {\n  [1, 8, 7, 5, 10, 6, 3, 1, 2, 11, 9, 1]\n  [2, 8, 7, 5, 10, 6, 3, 1, 2, 11, 9, 1]\n}\n",
     1, 1, "exclude the actual E_A"),
    ("B knows E_A among {\n  (Q = 3)\n}\n", 2, 3, "no leaf labelled 'Q'"),
    ("C knows E_A exactly\n", 1, 1, "unknown player 'C'"),
    ("B knows E_A on NOPE\n", 1, 1, "NOPE"),
])
def test_partial_knowledge_errors_are_located(stmt, line, column, part):
    text = _FIG2 + "agents A, B\n" + stmt + "ask decided\n"
    base = _FIG2.count("\n") + 1
    with pytest.raises(ParseError) as info:
        kop.run_theory(kop.parse_theory(text, THEORIES))
    assert (info.value.line - base, info.value.column) == (line, column), str(info.value)
    assert part in str(info.value)


def test_partial_knowledge_theory():
    ans = kop.run_theory(kop.load_theory(THEORIES / "partial_knowledge.kop"))
    dec = {a.scenario: a.result for a in ans if a.question == "decided"}
    assert dec["b_partial"]["decided"] == [] and dec["a_partial"]["by_partial_knowledge"] == \
        ["R", "T", "W", "X", "Y", "Z"]                  # B cannot predict A at U and V (SPEC §2.6 erratum)
    assert dec["both_partial"]["by_partial_knowledge"] == ["root", "R", "S", "T", "U", "V", "W", "X", "Y", "Z"]
    dom = {a.scenario: a.result for a in ans if a.question.startswith("dominates")}
    assert dom["both_partial"]["recommended"] == "Mh" and dom["both_partial"]["outcome"] == [10, 3]
    assert dom["both_partial"]["candidates"][0]["precondition"]["status"] == "met by partial knowledge"
    assert dom["b_partial"]["recommended"] == "minimax" and dom["a_partial"]["recommended"] == "minimax"


def test_partial_knowledge_contradicting_the_formulas_names_both_statements():
    text = "players A max, B min\ngame A { B { (1,2) (3,4) } (0,0) }\ncore B = 1\nB knows order of E_A\nask decided\n"
    with pytest.raises(ParseError) as info:
        _run(text)
    msg = str(info.value)
    assert "inconsistent" in msg and "line 3" in msg and "line 4" in msg
