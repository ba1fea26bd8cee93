"""Start-up guard (no timing): small ``kop`` commands must not import heavy libraries.

``benchmarks/startup.py`` measures the CPU time of ``kop parse`` and ``kop check``
(goal: under 0.15 s).  Most of that budget goes to imports: numpy alone costs
more than the rest of ``kop check`` on a small model, and networkx, scipy,
jsonschema, sympy, rich or matplotlib each as much again.  These tests run the
commands in a fresh interpreter (with kop's grammar cache filled, as after the
first run) and fail if one of those modules was imported, so re-adding a
top-level ``import numpy`` on this path is caught without a timed assertion.
Lark reads the formulas (its parser loaded from kop's cache), so it is the one
heavy module allowed, and only in commands that read a formula: ``--help``
imports none.

The symbolic path (the prover's type elimination on BDDs, and knowledge
structures) needs ``dd``, and only once a BDD is built; ``dd`` must come
without networkx (three times the rest of ``dd``'s import, for an export kop
never uses: :mod:`kop.bdd.ddimport`) and the symbolic structures without
numpy.  ``benchmarks/startup.py`` times that path too.

Also guarded: ``kop --help`` imports no command module (it prints
``COMMAND_SUMMARIES``); the prover's answers without a countermodel (SAT
engine, type search) import no numpy; ``kop dominates`` imports numpy (the
game tree) and the parser and nothing else heavy (not even ``numpy.ma``), and
computes each scenario's report once.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MUDDY = str(ROOT / "theories" / "muddy3.model.json")
#: the formula parser: imported by the commands that read a formula, and only by them
PARSER = "lark"
HEAVY = ("numpy", "lark", "scipy", "networkx", "jsonschema", "sympy", "rich", "matplotlib", "typer", "pydantic",
         "click", "dd", "pysat")

#: run ``python -m kop ARGS`` in this interpreter, then print the heavy modules it imported, last
_PROBE = """
import json, runpy, sys
sys.argv = ["kop", *json.loads(sys.argv[1])]
try:
    runpy.run_module("kop", run_name="__main__", alter_sys=True)
except SystemExit as stop:
    status = stop.code
heavy = {heavy!r}
print("\\nIMPORTED " + json.dumps([m for m in heavy if m in sys.modules]) + " STATUS " + json.dumps(status))
"""


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """An environment whose kop cache holds the formula grammar's tables (as after a first run)."""
    env = {**os.environ, "KOP_CACHE_DIR": str(tmp_path_factory.mktemp("kop-cache"))}
    subprocess.run([sys.executable, "-m", "kop", "parse", "p"], env=env, cwd=ROOT, timeout=120, check=True,
                   capture_output=True)
    return env


def heavy_imports(env: dict[str, str], *args: str) -> tuple[list[str], int, str]:
    """(heavy modules imported, exit status, output) of ``python -m kop ARGS`` in a fresh process."""
    done = subprocess.run([sys.executable, "-c", _PROBE.format(heavy=HEAVY), json.dumps(list(args))],
                          capture_output=True, text=True, cwd=ROOT, timeout=120, check=True, env=env)
    last = done.stdout.rstrip().rsplit("\n", 1)[-1]
    assert last.startswith("IMPORTED "), done.stdout + done.stderr
    imported, _, status = last.removeprefix("IMPORTED ").partition(" STATUS ")
    return json.loads(imported), int(json.loads(status) or 0), done.stdout


@pytest.mark.parametrize("args", [
    ("parse", "K_a p"),
    ("parse", "C{a,b}(p, [!q] K_a p)", "--json"),
    ("check", MUDDY, "K_a m_a"),
    ("check", MUDDY, "C{a,b,c}(m_a | m_b, ~K_c m_c)", "--json"),
    ("check", MUDDY, "[!m_a | m_b | m_c] ~K_a m_a", "--world", "110"),
    ("announce", MUDDY, "m_a | m_b | m_c", "--json"),
    ("--help",),
    ("check", "--help"),
])
def test_small_commands_import_no_heavy_library(cache, args):
    imported, status, out = heavy_imports(cache, *args)
    assert status in (0, 1), out   # 1: the formula does not hold
    reads_a_formula = "--help" not in args
    assert imported == ([PARSER] if reads_a_formula else []), f"kop {' '.join(args)} imported {imported}"


def test_the_probe_sees_a_heavy_import(cache):
    """The guard can fail: a command that needs numpy (bisimulation contraction) is reported."""
    imported, status, _ = heavy_imports(cache, "minimize", MUDDY, "--json")
    assert status == 0 and "numpy" in imported


def test_import_kop_and_a_model_import_nothing_heavy(cache):
    code = ("import sys, kop; m = kop.KripkeModel({'u': ['p'], 'v': []}, {'a': [['u', 'v']]}); "
            "assert m.satisfies('M_a p') and m.truth_set('K_a p') == frozenset(); "
            f"print([x for x in {HEAVY!r} if x in sys.modules])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
                          check=True, env=cache)
    assert done.stdout.strip() == f"[{PARSER!r}]"


def test_only_the_command_run_is_imported():
    """Registering the commands imports only the module of the command being run."""
    code = ("import sys; from kop.cli.app import run; run(['parse', 'p']); "
            "print(sorted(m for m in sys.modules if m.startswith('kop.cli.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
                          check=True)
    assert done.stdout.strip().splitlines()[-1] == "['kop.cli.app', 'kop.cli.parse_cmd']"


def test_command_index_names_each_command_and_its_module():
    """COMMAND_INDEX (the fast path) lists exactly the commands each module registers."""
    import importlib

    from kop.cli.app import COMMAND_INDEX, COMMAND_MODULES, Commands

    found: dict[str, str] = {}
    for name in COMMAND_MODULES:
        cli = Commands(None, only="")  # no command is run: nothing is built
        importlib.import_module(name).register(cli)
        found.update((command, name) for command in cli.names)
    assert COMMAND_INDEX == found


def test_a_command_missing_from_the_index_still_runs(monkeypatch, capsys):
    from kop.cli import app

    monkeypatch.setattr(app, "COMMAND_INDEX", {})
    assert app.run(["parse", "K_a p"]) == 0
    assert capsys.readouterr().out.strip()


@pytest.mark.parametrize("args,allowed", [
    (("valid", "D{a,b} p -> p"), {"dd", PARSER}),
    (("valid", "C{a,b} p -> K_a K_b p", "--method", "bdd"), {"dd", PARSER}),
    (("entails", "-p", "C{a,b} p", "K_a K_b p", "--method", "bdd", "--json"), {"dd", PARSER}),
    (("satisfiable", "C{a,b} p & ~K_a q", "--method", "bdd"), {"dd", "numpy", PARSER}),   # + the model's arrays
])
def test_symbolic_commands_import_dd_without_networkx(cache, args, allowed):
    imported, status, out = heavy_imports(cache, *args)
    assert status == 0, out
    assert "dd" in imported, out                      # the guard sees the BDD package ...
    assert set(imported) <= allowed, f"kop {' '.join(args)} imported {imported}"   # ... and nothing else heavy


def test_commands_without_bdds_do_not_import_dd(cache):
    """C answered by the type search, and a question without C or D: no BDD is built, so no dd."""
    for args in (("valid", "C{a,b} p -> K_a K_b p"), ("valid", "K_a p -> p")):
        imported, status, out = heavy_imports(cache, *args)
        assert status == 0 and "dd" not in imported, (args, imported)


_STRUCTURE = """
import sys, json
from kop import KnowledgeStructure
ks = KnowledgeStructure(["p", "q"], "p | q", {"a": ["p"], "b": ["q"]}, actual={"p", "q"})
assert ks.satisfies("K_a p & ~K_a q") and ks.count() == 3
heavy = [m for m in %r if m in sys.modules]
import networkx, dd.bdd                      # networkx still works afterwards, and so does dd's export to it
b = dd.bdd.BDD(); b.declare("x")
graph = dd.bdd.to_nx(b, [b.var("x")])
print(json.dumps([heavy, type(graph).__name__]))
"""


def test_a_knowledge_structure_imports_dd_and_the_parser_alone(cache):
    done = subprocess.run([sys.executable, "-c", _STRUCTURE % (HEAVY,)], capture_output=True, text=True, cwd=ROOT,
                          timeout=120, check=True, env=cache)
    heavy, graph = json.loads(done.stdout.strip().splitlines()[-1])
    assert heavy == [PARSER, "dd"] and graph == "MultiDiGraph"


def test_help_imports_no_command_module():
    """``kop --help`` prints the commands from COMMAND_SUMMARIES: no command module, no dataclasses, no pathlib."""
    # modules the interpreter loaded before kop (an editable install's finder loads pathlib) are not kop's
    code = ("import sys; before = set(sys.modules); from kop.cli.app import run\n"
            "try:\n    run(['--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('kop.cli.')\n"
            "             or (m in ('dataclasses', 'pathlib') and m not in before)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
                          check=True)
    assert done.stdout.strip().splitlines()[-1] == "['kop.cli.app']"


def test_command_summaries_are_the_handlers_first_lines():
    """COMMAND_SUMMARIES (what ``kop --help`` prints) is each handler's summary, in the order of the full parser."""
    import argparse

    from kop.cli.app import COMMAND_SUMMARIES, build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert [(c.dest, c.help) for c in sub._choices_actions] == list(COMMAND_SUMMARIES.items())


def test_help_from_the_summaries_is_the_full_parsers_help(monkeypatch, capsys):
    from kop.cli import app

    monkeypatch.setenv("COLUMNS", "100")
    full = app.build_parser().format_help()
    for argv in (["--help"], ["-h"]):
        with pytest.raises(SystemExit):
            app.run(argv)
        assert capsys.readouterr().out == full
    assert app.run([]) == 0 and capsys.readouterr().out == full
    monkeypatch.setattr(app, "COMMAND_SUMMARIES", {"parse": "Parse."})   # a command missing: the full parser
    assert app.run([]) == 0 and capsys.readouterr().out == full


@pytest.mark.parametrize("args", [("valid", "K_a p -> p"), ("entails", "-p", "K_a K_b p", "K_a p", "--json"),
                                  ("valid", "C{a,b} p -> K_a K_b p")])
def test_prover_answers_without_a_countermodel_import_no_numpy(cache, args):
    """The SAT engine and the type search answer "valid" without numpy (only a countermodel needs arrays)."""
    imported, status, out = heavy_imports(cache, *args)
    assert status == 0, out
    assert "numpy" not in imported and set(imported) <= {PARSER, "pysat"}, f"kop {' '.join(args)} imported {imported}"


def test_dominates_imports_only_numpy_and_the_parser(cache):
    """``kop dominates``: the game tree's arrays and the parser; no numpy.ma, sympy, networkx, dd or other commands."""
    code = _PROBE.format(heavy=(*HEAVY, "numpy.ma")) + (
        "print('CLI ' + json.dumps(sorted(m for m in sys.modules if m.startswith('kop.cli.'))))\n")
    done = subprocess.run([sys.executable, "-c", code, json.dumps(["dominates", str(ROOT / "theories" / "figure2.kop")])],
                          capture_output=True, text=True, cwd=ROOT, timeout=120, check=True, env=cache)
    *_, imported_line, cli_line = done.stdout.rstrip().split("\n")
    imported, _, status = imported_line.removeprefix("IMPORTED ").partition(" STATUS ")
    assert json.loads(status) in (0, None), done.stdout
    assert sorted(json.loads(imported)) == ["lark", "numpy"]
    assert json.loads(cli_line.removeprefix("CLI ")) == ["kop.cli.app", "kop.cli.theory_cmds"]


def test_dominates_computes_each_scenarios_report_once(monkeypatch, capsys):
    """The theory's own ``ask dominates``/``expect`` questions reuse the reports ``kop dominates`` printed."""
    import kop.theory.dominance as dominance_module
    from kop.cli.app import run

    calls = []
    real = dominance_module.dominance

    def counted(*args, **kwargs):
        calls.append(kwargs.get("scenario"))
        return real(*args, **kwargs)

    monkeypatch.setattr(dominance_module, "dominance", counted)
    assert run(["dominates", str(ROOT / "theories" / "figure2.kop")]) == 0
    assert sorted(calls) == ["s1", "s2", "s3", "s4"]
