"""What a new user tripped on (issue 19, part 7): one test per stumble."""

from __future__ import annotations

from pathlib import Path

import pytest

from kop.cli.app import main

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as stop:
        main(list(args))
    out = capsys.readouterr()
    return int(stop.value.code or 0), out.out, out.err


def _theory(tmp_path: Path, text: str) -> str:
    path = tmp_path / "t.kop"
    path.write_text(text)
    return str(path)


# -- installing what the tutorial uses ---------------------------------------------------------------------
def test_the_tutorial_installs_the_draw_extra() -> None:
    text = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
    assert "pip install -q '.[draw]'" in text and "kop draw" in text


def test_the_install_hint_of_a_checkout_names_the_source_folder() -> None:
    from kop.errors import install_hint

    assert install_hint("draw") == "pip install '.[draw]' (in kop's source folder)"   # the tests run in a checkout


# -- a depth-limited search without an evaluation --------------------------------------------------------
@pytest.mark.parametrize("args", [("solve", "openspiel:connect_four", "--depth", "4"),
                                  ("match", "openspiel:connect_four", "-a", "P0=depth:2", "-a", "P1=depth:2")])
def test_a_horizon_without_evaluation_names_eval_zero_and_draws_the_state(capsys: pytest.CaptureFixture[str],
                                                                           args: tuple[str, ...]) -> None:
    pytest.importorskip("pyspiel")
    code, _, err = run(capsys, *args)
    assert code == 2 and "--eval zero" in err and "eval:zero" in err
    board = [line.strip() for line in err.splitlines()[1:]]
    assert len(board) == 6 and all(len(row) == 7 and set(row) <= set(".xo") for row in board)  # as OpenSpiel draws it


# -- the theory language's messages ------------------------------------------------------------------------
def test_a_reserved_word_as_a_move_label_is_named(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = _theory(tmp_path, "players E max, I max\ngame E {\n  in -> I { fight -> (-1,-1) accommodate -> (1,1) }\n"
                             "  out -> (0, 2)\n}\n")
    code, _, err = run(capsys, "run", path)
    assert code == 2 and "line 3, column 3" in err and "'in' is a reserved word" in err and "'In'" in err


def test_a_word_read_in_part_is_reported_whole(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "run", _theory(tmp_path, "players A max, B maximize\n"))
    assert code == 2 and "column 18" in err and "'maximize'" in err and "did you mean 'max'" in err
    assert "found 'imize'" not in err


def test_an_unclosed_brace_is_named(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "run", _theory(tmp_path, "players A max, B min\ngame A { (1,2) (3,0)\n"
                                                         "ask dominates A\n"))
    assert code == 2 and "line 2, column 8" in err and "'{' is not closed" in err
    code, _, err = run(capsys, "run", _theory(tmp_path, "players A max, B min\ngame A { (1,2) (3,0)\n"))
    assert code == 2 and "the '{' at line 2, column 8 is not closed" in err


def test_a_misspelt_question_gets_did_you_mean(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "run", _theory(tmp_path, "players A max, B min\ngame A { (1,2) (3,0) }\n"
                                                         "ask dominate A\n"))
    assert code == 2 and "did you mean 'dominates'" in err


def test_a_failed_expect_with_communication_says_it_in_words(capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    head = (ROOT / "theories" / "figure2.kop").read_text(encoding="utf-8").split("ask dominates A")[0]
    path = tmp_path / "f.kop"
    path.write_text(head + "in s2 expect A: HM0M1 (9,4) communication (3,3)\n")
    (tmp_path / "figure2.json").write_text((ROOT / "theories" / "figure2.json").read_text(encoding="utf-8"))
    code, out, _ = run(capsys, "run", str(path))
    last = out.strip().splitlines()[-1]
    assert code == 1 and "communication (3, 3): MISMATCH" in last
    assert "outcome with communication (10, 3)" in last and "{" not in last


# -- which state each command answers for ------------------------------------------------------------------
def test_dominates_and_run_say_which_state_they_answer_for(capsys: pytest.CaptureFixture[str]) -> None:
    _, dominates_help, _ = run(capsys, "dominates", "--help")
    _, run_help, _ = run(capsys, "run", "--help")
    assert "before any `announce`" in dominates_help and "kop run" in dominates_help
    assert "announce" in run_help.split("Statements run in order")[1]
    assert "Which state each command answers for" in (ROOT / "docs" / "theories.md").read_text(encoding="utf-8")


# -- small print ---------------------------------------------------------------------------------------------
def test_entails_without_p_shows_its_own_usage(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "entails", "P", "Q")
    assert code == 2 and err.startswith("usage: kop entails") and "-p PREMISE" in err


def test_levels_print_the_same_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    from kop.agents.agent import level_text

    assert level_text(-1) == "-1"
    code, out, _ = run(capsys, "level", "--player", "A", "--opponent", "B", "-k", "p")
    assert code == 0 and out.strip() == "-1"
    code, out, _ = run(capsys, "match", str(ROOT / "theories" / "figure2.json"), "-a", "A=level:2", "-a", "B")
    assert code == 0 and "= none" not in out and "B = -1" in out


def test_solve_help_says_the_default_strategy(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "solve", "--help")
    assert "(default: Mh)" in " ".join(out.split())


def test_bodkin_help_is_styled_like_the_other_commands(capsys: pytest.CaptureFixture[str]) -> None:
    _, bodkin, _ = run(capsys, "experiment", "bodkin-nplayer", "--help")
    _, jamroga, _ = run(capsys, "experiment", "jamroga", "--help")
    for text in (bodkin, jamroga):
        description = text.split("\n\n")[1:3]
        assert all(not line.startswith("    ") for part in description for line in part.splitlines())
        options = text.split("options:\n")[1].splitlines()
        assert options[1].split()[0] == "--json"            # --json first, as every command has it
        assert "{" not in text.split("\n\n")[0]              # plain-word placeholders in the usage line
        assert options[0].index("show this help") == options[1].index(options[1].split(maxsplit=1)[1])


def test_an_unlabelled_chance_node_is_named_by_its_path(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "run", _theory(tmp_path, "players A max, B min\n"
                                                         "game A { chance { 1/3 -> (1,2) 1/2 -> (3,0) } (2,2) }\n"))
    assert code == 2 and "chance node root/0 (unlabelled) sum to 5/6" in err and "node  sum" not in err


def test_play_paths_name_leaves_alike(capsys):
    """Text paths name an unlabelled leaf by its payoffs (not a child index); JSON adds `nodes`, all names."""
    import json

    from cli_runner import run_cli

    r = run_cli(["play", str(ROOT / "theories" / "figure2.json"), "-s", "A=M2", "-s", "B=M1"])
    assert r.code == 0 and "path:    root -> T -> (9, 4)" in r.out, r
    r = run_cli(["play", str(ROOT / "theories" / "figure2.json"), "-s", "A=M2", "-s", "B=M1", "--json"])
    doc = json.loads(r.out)
    assert doc["path"] == ["T", 0] and doc["nodes"] == ["root", "T", "root/2/0"]
    assert all(isinstance(n, str) for n in doc["nodes"])
