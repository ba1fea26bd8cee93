"""The prover decides knowledge and belief; probability is a located error (exit 2), never a wrong answer."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import kop
from kop import LanguageError, parse

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("call", [
    lambda: kop.satisfiable("p & P_a(p) >= 1/2"),
    lambda: kop.entails(["K_a p"], "B_a(q, p) | P_a(p) < 1"),
    lambda: kop.entails(["P_a(p) = 1"], "p"),
])
def test_api_refuses_probability(call):
    with pytest.raises(LanguageError, match="not probability") as info:
        call()
    assert info.value.found == "P_a"


def test_belief_is_decided():
    assert kop.valid("K_a p -> B_a p").holds
    assert not kop.entails(["K_a p"], "B_a(q, p) & B_b p").holds


def test_located_in_the_text_as_written():
    with pytest.raises(LanguageError) as info:
        kop.valid("K_a p ->\n  P_a(p) > 0")
    assert (info.value.line, info.value.column) == (2, 3)
    with pytest.raises(LanguageError) as info:
        kop.valid(parse("K_a p") >> parse("P_a(p) > 0"))     # a Formula: located in its printed form
    assert info.value.column == 10


def test_knowledge_structures_refuse_them():
    ks = kop.KnowledgeStructure("p q", "true", {"a": ["p"]})
    with pytest.raises(LanguageError, match="knowledge structure"):
        ks.satisfies("B_a p")


def _kop(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kop", *args], capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_cli_exit_2(tmp_path):
    r = _kop("valid", "K_a p -> P_a(p) = 1")
    assert r.returncode == 2 and "line 1, column 10" in r.stderr and "Traceback" not in r.stderr
    r = _kop("entails", "-p", "P_a(p) >= 1/2", "p")
    assert r.returncode == 2 and "P_a (probability)" in r.stderr
    r = _kop("valid", "K_a p -> B_a p")
    assert r.returncode == 0 and r.stdout.startswith("valid"), r.stderr
    theory = tmp_path / "t.kop"
    theory.write_text("agents a, b\nknow K_a p\nask valid K_a p -> P_a(p) = 1\n", encoding="utf-8")
    r = _kop("run", str(theory))
    assert r.returncode == 2 and "line 3, column 20" in r.stderr, r.stderr
    theory.write_text("players A max, B min\ngame root: A {\n  L: B { (1,2) (3,4) }\n  R: B { (5,6) (7,8) }\n}\n"
                      "announce P_A(E_B) >= 1/2\n", encoding="utf-8")
    r = _kop("run", str(theory))
    assert r.returncode == 2 and "line 6, column 10" in r.stderr and "P_a (probability)" in r.stderr, r.stderr
    r = _kop("check", "theories/coin_belief.model.json", "B_ann h & ~h & P_ann(h) = 3/4")
    assert r.returncode == 0 and r.stdout.startswith("holds"), r.stderr
