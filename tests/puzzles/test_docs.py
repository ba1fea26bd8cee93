"""The Puzzles section of docs/models.md and the theories/ puzzle scripts run as shown."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from kop import KripkeModel
from kop.puzzles import cheryl

from doc_examples import ROOT, page, python_blocks, run_python_blocks, section


def test_docs_examples_run():
    puzzles = section(page("models.md"), "## Puzzles")
    assert len(python_blocks(puzzles)) >= 7
    failed, tried = run_python_blocks(puzzles, "docs/models.md#puzzles", ellipsis=False)
    assert failed == 0 and tried >= 20


@pytest.mark.parametrize("script", ["muddy_children", "cheryl", "sum_product", "russian_cards",
                                    "drinking_logicians", "dining_cryptographers"])
def test_theory_scripts_run(script):
    out = subprocess.run([sys.executable, str(ROOT / "theories" / f"{script}.py")],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    expected = {"muddy_children": "question 3: children [1, 2, 3, 4] know", "cheryl": "1 left: July 16",
                "sum_product": "solution: [(4, 13)]", "russian_cards": "safe=102",
                "drinking_logicians": "logician 3: yes", "dining_cryptographers": "valid: True"}[script]
    assert expected in out.stdout


def test_cheryl_json_is_the_puzzle_model_renamed():
    doc = json.loads((ROOT / "theories" / "cheryl.model.json").read_text(encoding="utf-8"))
    m_json = KripkeModel.from_json(doc)
    m = cheryl.model(actual=("July", 16))
    rename = {w: "%s%d" % cheryl.date_of(m, w) for w in m.worlds}
    assert set(m_json.worlds) == set(rename.values())
    assert m_json.actual == ("July16",)
    for w in m.worlds:
        assert m_json.valuation(rename[w]) == m.valuation(w)
        for agent in ("Albert", "Bernard"):
            assert m_json.block(agent, rename[w]) == {rename[v] for v in m.block(agent, w)}


def test_cheryl_on_the_command_line(tmp_path):
    albert_day = " & ".join(f"Kw_Albert d{d}" for d in (14, 15, 16, 17, 18, 19))
    bernard_month = " & ".join(f"Kw_Bernard {m}" for m in ("may", "june", "july", "august"))
    steps = [f"~({albert_day}) & K_Albert ~({bernard_month})", bernard_month, albert_day]
    model = ROOT / "theories" / "cheryl.model.json"
    for i, phi in enumerate(steps):
        out = tmp_path / f"after{i}.json"
        r = subprocess.run([sys.executable, "-m", "kop", "announce", str(model), phi, "-o", str(out)],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        model = out
    assert list(json.loads(model.read_text())["worlds"]) == ["July16"]
    r = subprocess.run([sys.executable, "-m", "kop", "check", str(ROOT / "theories" / "cheryl.model.json"),
                        steps[0], "--json"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0
    assert sorted(json.loads(r.stdout)["worlds"]) == ["August14", "August15", "August17", "July14", "July16"]
