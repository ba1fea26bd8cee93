"""The CLI's small print (issue 16, item 13): every flag either works or says why not, exit 2 for bad
input, and the usage shown is the command's own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kop.cli.app import main

ROOT = Path(__file__).resolve().parents[2]
FIG2_KOP = str(ROOT / "theories" / "figure2.kop")
FIG2_JSON = str(ROOT / "theories" / "figure2.json")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as stop:
        main(list(args))
    out = capsys.readouterr()
    return int(stop.value.code or 0), out.out, out.err


def test_run_with_an_unknown_scenario_names_the_scenarios(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "run", FIG2_KOP, "--scenario", "nosuch")
    assert code == 2 and out == ""
    assert "'nosuch'" in err and "s1, s2, s3, s4" in err


def test_run_with_a_known_scenario_still_answers(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "run", FIG2_KOP, "--scenario", "s1", "--json")
    assert code == 0 and json.loads(out)


def test_level_of_a_player_against_itself_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "level", "--player", "Z", "--opponent", "Z", "-k", "K_Z E_Z")
    assert code == 2 and out == "" and "'Z'" in err


@pytest.mark.parametrize("args", [("solve", FIG2_JSON, "--max-nodes", "0"),
                                  ("match", FIG2_JSON, "-a", "A", "-a", "B", "--max-nodes", "0"),
                                  ("solve", FIG2_JSON, "--max-nodes", "-3")])
def test_max_nodes_must_be_positive(capsys: pytest.CaptureFixture[str], args: tuple[str, ...]) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2 and "--max-nodes" in err and "positive integer" in err


@pytest.mark.parametrize("flags", [("--max-nodes", "5"), ("--eval", "zero"), ("--depth", "2")])
def test_search_flags_on_a_tree_file_are_not_ignored(capsys: pytest.CaptureFixture[str], flags: tuple[str, ...]) -> None:
    code, out, err = run(capsys, "solve", FIG2_JSON, *flags)
    assert code == 2 and out == "" and flags[0] in err and "openspiel:NAME" in err


def test_format_with_json_is_the_formula_field(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "parse", "K_a p", "--format", "latex", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["formula"] == doc["latex"] != doc["ascii"]
    _, help_text, _ = run(capsys, "parse", "--help")
    assert "--json" in help_text.split("--format", 2)[-1]   # the flag's help says what it does with --json


def test_unknown_openspiel_game_is_one_line_with_the_nearest_names(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel")
    code, out, err = run(capsys, "solve", "openspiel:tic_tac_tow")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "tic_tac_toe" in err
    code, _, err = run(capsys, "match", "openspiel:conect_four", "-a", "P0", "-a", "P1")
    assert code == 2 and err.count("\n") == 1 and "connect_four" in err


def test_openspiel_error_output_is_not_printed_by_the_library(capfd: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel")
    with pytest.raises(SystemExit) as stop:
        main(["solve", "openspiel:connect_four(rows=x)"])
    err = capfd.readouterr().err
    assert stop.value.code == 2 and err.count("\n") == 1 and "rows" in err


@pytest.mark.parametrize("args,command", [(("parse", "p", "extra"), "kop parse"),
                                          (("entails", "P", "Q"), "kop entails"),
                                          (("experiment", "jamroga", "--fig", "4", "zz"), "kop experiment jamroga")])
def test_a_stray_argument_shows_the_commands_usage(capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
                                                    command: str) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.startswith(f"usage: {command} ") and "unrecognized arguments" in err


def test_entails_without_p_says_where_premises_go(capsys: pytest.CaptureFixture[str]) -> None:
    _, _, err = run(capsys, "entails", "P", "Q")
    assert "-p" in err.splitlines()[-1]


@pytest.mark.parametrize("command", ["select", "solve", "play"])
def test_a_theory_given_as_a_tree_says_where_theories_go(capsys: pytest.CaptureFixture[str], command: str) -> None:
    extra = ("-s", "A=minimax", "-s", "B=minimax") if command == "play" else ()
    code, out, err = run(capsys, command, FIG2_KOP, *extra)
    assert code == 2 and out == ""
    assert "theory" in err and "kop run" in err and "kop dominates" in err and "JSON" not in err


@pytest.mark.parametrize("where", ["before", "after"])
def test_experiment_json_before_or_after_the_name(capsys: pytest.CaptureFixture[str], where: str) -> None:
    args = ["jamroga", "--fig", "8", "--small", "--games", "2", "--workers", "1", "--no-progress"]
    args = ["experiment", "--json", *args] if where == "before" else ["experiment", *args, "--json"]
    code, out, _ = run(capsys, *args)
    assert code == 0 and json.loads(out)["figure"] == 8
    code, out, _ = run(capsys, "experiment", "bodkin-nplayer", "--depth", "3", "--trees", "2", "--workers", "1")
    assert code == 0 and not out.startswith("{")
    if where == "before":
        code, out, _ = run(capsys, "experiment", "--json", "bodkin-nplayer", "--depth", "3", "--trees", "2",
                           "--workers", "1")
        assert code == 0 and json.loads(out)["config"]["depth"] == 3
