"""``kop valid``, ``kop satisfiable``, ``kop entails``, ``kop level`` through the real command line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import kop


def run(*args: str, timeout: float = 60):
    proc = subprocess.run([sys.executable, "-m", "kop", *args], capture_output=True, text=True, timeout=timeout)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def test_valid_text():
    p = run("valid", "C{a,b} p -> K_a K_b p")
    assert p.returncode == 0 and p.stdout.strip() == "valid"
    p = run("valid", "K_a p -> K_b p")
    assert p.returncode == 0
    assert p.stdout.startswith("not valid")
    assert "countermodel" in p.stdout and "designated" in p.stdout and "agent a:" in p.stdout


def test_valid_json_countermodel_is_a_model():
    p = run("valid", "E{a,b} p -> C{a,b} p", "--json")
    doc = json.loads(p.stdout)
    assert doc["holds"] is False
    m = kop.KripkeModel.from_json(doc["countermodel"])
    assert m.satisfies("E{a,b} p & ~C{a,b} p")
    p = run("valid", "K_a p -> p", "--json")
    doc = json.loads(p.stdout)
    assert doc == {**doc, "holds": True, "countermodel": None}


def test_entails():
    p = run("entails", "-p", "K_A E_B", "-p", "K_B E_A", "K_A K_B E_A", "--json")
    doc = json.loads(p.stdout)
    assert doc["holds"] is False
    assert kop.KripkeModel.from_json(doc["countermodel"]).satisfies("K_A E_B & K_B E_A & ~K_A K_B E_A")
    p = run("entails", "-p", "C{A,B} E_A", "K_A K_B E_A")
    assert p.stdout.strip() == "entailed"


def test_satisfiable():
    p = run("satisfiable", "M_a p & M_a ~p", "--json")
    doc = json.loads(p.stdout)
    assert doc["holds"] is True and kop.KripkeModel.from_json(doc["model"]).satisfies("M_a p & M_a ~p")
    assert run("satisfiable", "p & ~p").stdout.strip() == "unsatisfiable"


@pytest.mark.parametrize("k,expected", [
    (["K_A E_A", "K_A S_A"], 0),
    (["K_A E_A", "K_A S_A", "K_A E_B"], 1),
    (["K_A E_A", "K_A S_A", "K_A E_B", "K_A K_B E_A"], 2),
    (["K_A E_A", "K_A S_A", "C{A,B}(E_A & E_B)"], "inf"),
])
def test_level(k, expected):
    args = [x for f in k for x in ("-k", f)]
    p = run("level", *args, "--player", "A", "--opponent", "B", "--json")
    assert p.returncode == 0
    assert json.loads(p.stdout)["level"] == expected
    p = run("level", *args, "--player", "A", "--opponent", "B")
    assert p.stdout.strip() == str(expected)


def test_timeout_exit_status_3():
    from kop.reasoning.generators import k_ph_p
    from kop.syntax.printer import to_ascii

    f = to_ascii(k_ph_p(10))
    p = run("valid", f, "--timeout", "0.3")
    assert p.returncode == 3 and "unknown within the limit" in p.stdout
    p = run("valid", f, "--timeout", "0.3", "--json")
    assert p.returncode == 3 and json.loads(p.stdout)["status"] == "unknown within the limit"
    p = run("level", "-k", "K_A E_A", "-k", "K_A S_A", "-k", f"~({f})", "--player", "A", "--opponent", "B",
            "--timeout", "0.3")
    assert p.returncode == 3
    p = run("entails", "-p", "p", f, "--timeout", "0.3")
    assert p.returncode == 3


@pytest.mark.parametrize("args,fragment", [
    (["valid", "K_c p", "--agents", "a,b"], "'c'"),
    (["valid", "K_a (p"], "line 1"),
    (["entails", "-p", "K_a p &", "p"], "line 1"),
    (["level", "-k", "K_A E_A", "--player", "A", "--opponent", "B", "--timeout", "-1"], "timeout"),
    (["valid", "p", "--method", "magic"], "unknown method"),
    (["valid", "K_a " * 2000 + "p"], "nested"),
])
def test_bad_input_exit_2(args, fragment):
    p = run(*args)
    assert p.returncode == 2
    assert fragment in p.stderr
