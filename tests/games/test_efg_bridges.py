"""The .efg kop writes, read by Gambit and OpenSpiel as kop means it (issue 29, section 4)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

import kop

THEORIES = Path(__file__).resolve().parents[2] / "theories"

_DIE = ('EFG 2 R "die" { "A" "B" }\n""\n\n'
        'c "" 1 "" { "1" 1/6 "2" 1/6 "3" 1/6 "4" 1/6 "5" 1/6 "6" 1/6 } 0\n'
        + "".join(f't "" {i} "" {{ {i} -{i} }}\n' for i in range(1, 7)))


def test_chance_probabilities_are_written_exactly() -> None:
    t = kop.loads_efg(_DIE)
    text = kop.dumps_efg(t)
    chance = next(line for line in text.splitlines() if line.startswith("c "))
    assert '"1" 1/6 "2" 1/6' in chance and sum(Fraction(p) for p in chance.split("{")[1].split()[1:12:2]) == 1
    assert kop.loads_efg(text) == t
    halves = kop.dumps_efg(kop.loads_efg(_DIE.replace('1/6 "2" 1/6 "3" 1/6 "4" 1/6 "5" 1/6 "6" 1/6',
                                                      '0.5 "2" 0.25 "3" 0.125 "4" 0.0625 "5" 0.03125 "6" 0.03125')))
    assert '"1" 0.5 "2" 0.25' in halves                           # decimals that sum to 1 stay decimals


def test_gambit_reads_what_kop_writes_for_thirds_and_repeated_labels() -> None:
    pygambit = pytest.importorskip("pygambit")
    for t in (kop.loads_efg(_DIE), kop.load_tree(str(THEORIES / "nim22.json"))):
        g = kop.to_gambit(t)                                      # a raw ValueError before
        assert len(list(g.players)) == 2
        back = kop.from_gambit(g)
        assert (back.payoffs == t.payoffs).all() and (back.kind == t.kind).all()
        if t.probs is not None:
            assert back.probs is not None and list(back.probs[1:]) == list(t.probs[1:])
    del pygambit


def test_duplicate_sibling_moves_get_unique_names() -> None:
    def leaf(move: str, a: int, b: int) -> dict:
        return {"move": move, "payoff": [a, b]}

    inner = {"move": "x", "player": "B", "children": [leaf("y", 1, 2), leaf("y", 3, 4)]}
    t = kop.GameTree.build(["A", "B"], {"player": "A", "children": [inner, leaf("x", 5, 6), leaf("x (2)", 7, 8)]})
    text = kop.dumps_efg(t)
    assert '{ "x" "x (3)" "x (2)" }' in text and '{ "y" "y (2)" }' in text
    assert kop.dumps_efg(t) == text                                # deterministic


def test_openspiel_keeps_every_move_of_a_duplicate_name() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    t = kop.GameTree.build(["A", "B"], {"player": "A", "children": [
        {"move": "x", "payoff": [1, -1]}, {"move": "x", "payoff": [5, -5]}, {"move": "y", "payoff": [2, -2]}]})
    g = pyspiel.load_efg_game(kop.dumps_efg(t))
    s = g.new_initial_state()
    assert len(s.legal_actions()) == 3
    best = max(s.child(a).returns()[0] for a in s.legal_actions())
    assert best == 5 == kop.minimax(t, "A").value[0]


# -- SMCDEL: mixed & and | --------------------------------------------------------------------------------
@pytest.mark.parametrize("text, meant", [
    ("1 | 2 & ~3", "(p1 | p2) & ~p3"), ("1 & 2 | 3", "(p1 & p2) | p3"), ("1 | 2 & 3 | 1", "((p1 | p2) & p3) | p1"),
    ("1 ∧ 2 ∨ 3", "(p1 & p2) | p3"), ("1 ∨ 2 ∨ 3", "(p1 | p2) | p3"), ("~1 & 2", "~p1 & p2")])
def test_smcdel_mixed_chains_group_left_to_right_as_smcdel_does(text: str, meant: str) -> None:
    """SMCDEL's Parse.y: ``%left '|' '&'``, one level; Lex.x: ``∧`` and ``∨`` are ``&`` and ``|``."""
    from kop.io.smcdel import parse_smcdel

    spec = parse_smcdel(f"VARS 1,2,3\nLAW {text}\nOBS a: 1\nVALID? {text}\n")
    assert spec.queries[0].formula == kop.parse(meant)


def test_kop_runs_the_smcdel_file_kop_exports(tmp_path: Path) -> None:
    """An agent observing nothing gets a fresh constant: LAW (1 | 2 & ~3), which kop run refused."""
    from kop.cli.app import main

    m = kop.KripkeModel.from_observations(["p", "q"], "p | q", {"a": ["p"], "b": []})
    (tmp_path / "m.model.json").write_text(m.to_json() if isinstance(m.to_json(), str) else __import__("json").dumps(m.to_json()))
    out = tmp_path / "m.smcdel.txt"
    with pytest.raises(SystemExit) as stop:
        main(["export", str(tmp_path / "m.model.json"), "--to", "smcdel", "-o", str(out)])
    assert stop.value.code in (0, None) and "& ~3" in out.read_text()
    with pytest.raises(SystemExit) as stop:
        main(["run", str(out)])
    assert stop.value.code in (0, None)


# -- kop epddl --json COMMAND ---------------------------------------------------------------------------------
@pytest.mark.parametrize("where", ["before", "after"])
@pytest.mark.parametrize("command", ["validate", "show"])
def test_epddl_json_before_or_after_the_command(capsys: pytest.CaptureFixture[str], where: str, command: str) -> None:
    import json

    from kop.cli.app import main

    epddl = THEORIES / "epddl"
    files = [str(epddl / "coin-domain.epddl"), str(epddl / "coin-problem.epddl")]
    if command == "validate":
        files.append(str(epddl / "coin-plan-valid.txt"))
    argv = ["epddl", "--json", command, *files] if where == "before" else ["epddl", command, *files, "--json"]
    with pytest.raises(SystemExit):
        main(argv)
    out = capsys.readouterr().out
    assert isinstance(json.loads(out), dict), out


# -- the SMCDEL export and uncertainty ------------------------------------------------------------------------
def test_the_smcdel_export_refuses_to_drop_plausibility_and_probability(capsys: pytest.CaptureFixture[str],
                                                                        tmp_path: Path) -> None:
    from kop.cli.app import main
    from kop.io.smcdel import to_smcdel

    m = kop.KripkeModel.from_observations(["p", "q"], "p | q", {"a": ["p"], "b": ["q"]})
    with pytest.raises(SystemExit) as stop:
        main(["export", str(THEORIES / "coin_belief.model.json"), "--to", "smcdel", "-o", str(tmp_path / "c.txt")])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "plausibility" in err and "probabilit" in err, err
    assert not (tmp_path / "c.txt").exists()
    assert "VARS" in to_smcdel(m)                                   # S5 models are exported as before
    with pytest.raises(kop.KopError, match="ann has plausibility and probabilities"):
        to_smcdel(kop.KripkeModel.load(str(THEORIES / "coin_belief.model.json")))
