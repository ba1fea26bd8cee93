"""kop check / announce / minimize, run as processes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kop import KripkeModel

ROOT = Path(__file__).resolve().parents[2]
MUDDY = str(ROOT / "theories" / "muddy3.model.json")


def kop(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kop", *args], capture_output=True, text=True, cwd=ROOT, timeout=60)


def test_check_json():
    r = kop("check", MUDDY, "M_a m_a & ~K_a m_a", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["holds"] is True
    assert out["worlds"] == ["000", "001", "010", "011", "100", "101", "110", "111"]
    assert out["checked_at"] == ["110"] and out["failing"] == [] and out["world_count"] == 8


def test_check_text_and_world():
    r = kop("check", MUDDY, "m_c")
    assert r.returncode == 0
    assert r.stdout.splitlines() == ["does not hold at the designated world 110",
                                     "true at 4 of 8 worlds: 001, 011, 101, 111"]
    r = kop("check", MUDDY, "m_c", "--world", "111", "--json")
    assert json.loads(r.stdout)["holds"] is True and json.loads(r.stdout)["checked_at"] == ["111"]


def test_announce_then_check(tmp_path):
    out = tmp_path / "after.json"
    r = kop("announce", MUDDY, "m_a | m_b | m_c", "-o", str(out))
    assert r.returncode == 0 and "kept 7 of 8 worlds" in r.stderr
    after = KripkeModel.load(out)
    assert len(after) == 7 and after.actual == ("110",)
    r = kop("check", str(out), "[! ~Kw_a m_a & ~Kw_b m_b & ~Kw_c m_c] (K_a m_a & K_b m_b)", "--json")
    assert json.loads(r.stdout)["holds"] is True


def test_announce_false_everywhere_warns(tmp_path):
    out = tmp_path / "empty.json"
    r = kop("announce", MUDDY, "m_a & ~m_a", "-o", str(out))
    assert r.returncode == 0
    assert "warning: the announcement 'm_a & ~m_a' is false at every world" in r.stderr
    assert KripkeModel.load(out).is_empty
    r = kop("check", str(out), "m_a")
    assert r.returncode == 2 and "the model is empty" in r.stderr and "Traceback" not in r.stderr


def test_minimize(tmp_path):
    doubled = tmp_path / "doubled.json"
    KripkeModel({"u1": ["p"], "v1": [], "u2": ["p"], "v2": [], "far": ["q"]},
                {"a": [["u1", "v1"], ["u2", "v2"], ["far"]]}, actual="u1").save(doubled)
    out = tmp_path / "small.json"
    r = kop("minimize", str(doubled), "-o", str(out))
    assert r.returncode == 0 and "5 worlds -> 3" in r.stderr
    assert KripkeModel.load(out).worlds == ("u1", "v1", "far")
    r = kop("minimize", str(doubled), "--generated")
    assert r.returncode == 0
    assert json.loads(r.stdout)["worlds"] == {"u1": ["p"], "v1": []}


@pytest.mark.parametrize("args, message", [
    (("check", MUDDY, "K_z m_a"), "agent 'z' that the model does not have"),
    (("check", MUDDY, "K_a ("), "line 1, column 6"),
    (("check", MUDDY, "m_a", "--world", "999"), "unknown world '999'"),
    (("check", "no/such/file.json", "p"), "no such model file"),
    (("announce", "BAD_JSON", "p"), "malformed JSON at line 1"),
    (("minimize", "DUPLICATE"), "$.worlds: duplicate world name 'w0'"),
    (("check", "OVERLAP", "p"), "agent 'a': world 'w1' is in two blocks"),
    (("check", "NO_ACTUAL", "p"), "designated world 'w5' does not exist"),
])
def test_bad_input_exits_2_without_traceback(tmp_path, args, message):
    files = {
        "BAD_JSON": '{"agents": ["a"], "worlds": ',
        "DUPLICATE": '{"agents": ["a"], "worlds": {"w0": [], "w0": []}, "relations": {"a": [["w0"]]}, "actual": ["w0"]}',
        "OVERLAP": '{"agents": ["a"], "worlds": {"w0": [], "w1": []}, "relations": {"a": [["w0", "w1"], ["w1"]]}, "actual": ["w0"]}',
        "NO_ACTUAL": '{"agents": ["a"], "worlds": {"w0": []}, "relations": {"a": [["w0"]]}, "actual": ["w5"]}',
    }
    real = []
    for a in args:
        if a in files:
            path = tmp_path / f"{a}.json"
            path.write_text(files[a])
            a = str(path)
        real.append(a)
    r = kop(*real)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert message in r.stderr
    assert "Traceback" not in r.stderr
