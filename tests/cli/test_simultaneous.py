"""Trees with simultaneous-move nodes through every command (issue 15 part 3, issue 16 item 9).

Each test is a regression test of a crash on the old main: ``select``, ``draw``, ``decided``,
``dominates`` and ``ask decided`` ended in "internal error (IndexError)", ``play`` (and
``draw --play``) in "internal error (KeyError: -3)" when the root is simultaneous, ``match`` in
IndexError on an inner simultaneous node.  What each command does now:

* ``draw`` draws the tree (a square naming the stage's players, the joint moves on its edges);
* ``solve -s naive|substructure|dominating`` answers (the equilibrium value, as before);
* every command whose strategies or knowledge are defined for sequential moves only (``play``,
  ``solve`` with a sequential strategy, ``select``, ``decided``, ``dominates``, theory questions on
  the game, ``match``) refuses with exit 2, naming the simultaneous node and the commands that
  handle such trees; the Python API raises :class:`kop.errors.StrategyError` (a KopError).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import kop
from kop.games.errors import StrategyError
from cli_runner import run_cli
from extras import needs_draw

ROOT = Path(__file__).resolve().parents[2]
STAGE = str(ROOT / "theories" / "matching_stage.json")   # the root is simultaneous (Row, Col)
INNER = {"format": "kop-tree/1", "players": ["A", "B"], "root": {"player": "A", "children": [
    {"payoff": [1, 2]}, {"simultaneous": {"players": ["A", "B"], "children": [
        [{"payoff": [4, -4]}, {"payoff": [0, 0]}], [{"payoff": [0, 0]}, {"payoff": [4, -4]}]]}}]}}


@pytest.fixture
def files(tmp_path):
    inner = tmp_path / "inner.json"
    inner.write_text(json.dumps(INNER), encoding="utf-8")
    stage = tmp_path / "stage.json"
    stage.write_text(Path(STAGE).read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "inner.kop").write_text('tree "inner.json"\ncore A = 2\ncore B = 2\nask decided\n', encoding="utf-8")
    (tmp_path / "stage.kop").write_text('tree "stage.json"\ncore Row = 2\ncore Col = 2\nask select\n',
                                        encoding="utf-8")
    return {"inner": (str(inner), str(tmp_path / "inner.kop"), "root/1", ("A", "B")),
            "root": (str(stage), str(tmp_path / "stage.kop"), "root", ("Row", "Col"))}


def refused(argv: list[str], where: str) -> None:
    r = run_cli(argv)
    assert r.code == 2, r
    assert "internal error" not in r.err and "Traceback" not in r.err
    assert r.err.startswith("error: ") and f"{where}: " in r.err, r.err
    assert "simultaneous-move node" in r.err and "kop solve -s naive" in r.err, r.err


@pytest.mark.parametrize("which", ["root", "inner"])
def test_commands_refuse_naming_the_node(files, which):
    tree, theory, where, (p, q) = files[which]
    refused(["select", tree], where)
    refused(["select", tree, "-c", f"{p}=1", "-c", f"{q}=0"], where)   # the issue's command
    refused(["play", tree, "-s", f"{p}=Mh", "-s", f"{q}=minimax"], where)
    refused(["solve", tree, "-s", "Mh"], where)
    refused(["draw", tree, "--play", f"{p}=Mh", "-o", str(Path(tree).with_suffix(".svg"))], where)
    refused(["match", tree, "-a", p, "-a", q], where)
    refused(["decided", theory], where)
    refused(["dominates", theory], where)
    refused(["run", theory], where)
    refused(["match", theory], where)


@needs_draw
@pytest.mark.parametrize("which", ["root", "inner"])
def test_draw_draws_simultaneous_nodes(files, which, tmp_path):
    tree, theory, _, (p, q) = files[which]
    r = run_cli(["draw", tree, "-o", str(tmp_path / "t.svg"), "--json"])
    assert r.code == 0, r
    assert json.loads(r.out)["nodes"] == len(kop.load_tree(tree))
    r = run_cli(["draw", theory, "-o", str(tmp_path / "th.svg"), "--json"])
    assert r.code == 0, r
    assert json.loads(r.out)["simultaneous"] is True
    fig = kop.load_tree(tree).draw()
    texts = {t.get_text() for t in fig.axes[0].texts}
    assert f"{p}|{q}" in texts and {"0,0", "0,1", "1,0", "1,1"} <= texts


@needs_draw
def test_draw_names_joint_moves_in_row_major_order():
    t = kop.load_tree(STAGE)   # Row has 3 moves, Col 2: children (0,0) (0,1) (1,0) (1,1) (2,0) (2,1)
    texts = [t.get_text() for t in t.draw().axes[0].texts]
    assert [x for x in texts if "," in x and "(" not in x] == ["0,0", "0,1", "1,0", "1,1", "2,0", "2,1"]


@pytest.mark.parametrize("which", ["root", "inner"])
def test_solve_naive_still_answers(files, which):
    tree, *_ = files[which]
    r = run_cli(["solve", tree, "-s", "naive", "--json"])
    assert r.code == 0, r
    assert json.loads(r.out)["value"] == pytest.approx(2.0)


@pytest.mark.parametrize("call", [
    lambda t: kop.select(t, []), lambda t: kop.decide(t, []), lambda t: kop.play(t, {"Row": "Mh", "Col": "Mh"}),
    lambda t: kop.strategy(t, "minimax"), lambda t: kop.search(t, "maxn"),
])
def test_api_raises_a_kop_error(call):
    with pytest.raises(StrategyError, match=r"^root: .*simultaneous-move node \(Row, Col move at once\)"):
        call(kop.load_tree(STAGE))


def test_subtree_keeps_simultaneous_nodes():
    t = kop.GameTree.from_dict(INNER)
    sub = t.subtree("root/1")
    assert sub.simultaneous == {0: ((0, 1), (2, 2))}
    assert kop.search(sub, "naive").value == pytest.approx(2.0)


def test_solve_prints_the_root_stage_equilibrium():
    r = run_cli(["solve", STAGE, "-s", "dominating"])
    assert r.code == 0, r
    assert r.out.splitlines()[-1] == "equilibrium at the root: Row plays (0.5, 0.5, 0), Col plays (0.5, 0.5)"
    r = run_cli(["solve", STAGE, "-s", "naive", "-p", "Col"])
    assert "value: -2.0" in r.out
    assert r.out.splitlines()[-1] == "equilibrium at the root: Col plays (0.5, 0.5), Row plays (0.5, 0.5, 0)"


@pytest.mark.parametrize("search", ["naive", "substructure", "dominating"])
def test_a_minimizer_s_value_is_in_its_payoff_units(search):
    """Found by the CLI fuzz test: the simultaneous-move searches reported a minimizing player's value
    negated (-1 for a payoff of 1), unlike every other search; the row/col strategies were right."""
    t = kop.GameTree.from_dict({"format": "kop-tree/1", "players": [{"name": "A", "goal": "min"}, "B"],
                                "root": {"simultaneous": {"players": ["A", "B"], "children": [
                                    [{"payoff": [1, 0]}, {"payoff": [5, 0]}], [{"payoff": [3, 0]}, {"payoff": [2, 0]}]]}}})
    # A minimizes its payoff, B maximizes it (zero-sum view): mixed equilibrium, value 13/5
    r = kop.search(t, search, player="A")
    assert r.value == pytest.approx(13 / 5)
    assert r.row == pytest.approx((1 / 5, 4 / 5)) and r.col == pytest.approx((3 / 5, 2 / 5))
    assert kop.search(t, search, player="B").value == pytest.approx(0.0)
