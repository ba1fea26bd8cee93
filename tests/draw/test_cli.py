"""``kop draw`` through the real entry point (subprocess)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.draw.test_draw import rasterize, share

ROOT = Path(__file__).resolve().parents[2]


def kop(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kop", *args], capture_output=True, text=True, cwd=ROOT,
                          env=env)


def test_tree_with_a_play(tmp_path):
    out = tmp_path / "play.svg"
    r = kop("draw", "theories/figure2.json", "--play", "A=M2", "--play", "B=M1", "-o", str(out), "--json")
    assert r.returncode == 0, r.stderr
    info = json.loads(r.stdout)
    assert info["kind"] == "tree" and info["outcome"] == [9, 4] and info["play"] == ["T", 0]
    assert share(rasterize(out.read_text()), "#c0392b") > 0.001


def test_model_to_png(tmp_path):
    out = tmp_path / "muddy.png"
    r = kop("draw", "theories/muddy3.model.json", "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == f"drew theories/muddy3.model.json (8 worlds, 3 agents) to {out}"
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_theory_scenario_draws_the_recommendation(tmp_path):
    out = tmp_path / "s4.svg"
    r = kop("draw", "theories/figure2.kop", "--scenario", "s4", "-o", str(out), "--json")
    assert r.returncode == 0, r.stderr
    info = json.loads(r.stdout)
    assert info["recommended"] == "HM0M2" and info["outcome"] == [9, 4]
    assert {"R", "T", "W", "X", "Y", "Z"} <= set(info["decided"])
    img = rasterize(out.read_text())
    assert share(img, "#c0392b") > 0.001 and share(img, "#b7e4b0") > 0.001


@pytest.mark.parametrize("args,message", [
    (["theories/figure2.kop"], "several scenarios (s1, s2, s3, s4); choose one with --scenario"),
    (["theories/figure2.kop", "-s", "s9"], "no scenario 's9'"),
    (["theories/figure2.json", "--play", "A"], "--play 'A': expected PLAYER=NAME"),
    (["theories/figure2.json", "--play", "A=M*"], "unknown strategy"),
    (["theories/missing.json"], "no such file"),
])
def test_bad_input_is_a_located_error(tmp_path, args, message):
    r = kop("draw", *args, "-o", str(tmp_path / "x.svg"))
    assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr


def test_unknown_picture_format(tmp_path):
    r = kop("draw", "theories/figure2.json", "-o", str(tmp_path / "x.gif"))
    assert r.returncode == 2 and "use one of .svg, .png, .pdf" in r.stderr


def test_without_matplotlib_the_error_names_the_extra(tmp_path):
    fake = tmp_path / "fake" / "matplotlib"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('matplotlib is not installed')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path / "fake"), str(ROOT)])}
    r = kop("draw", "theories/figure2.json", "-o", str(tmp_path / "x.svg"), env=env)
    from kop.errors import install_hint

    assert r.returncode == 2 and install_hint("draw") in r.stderr
