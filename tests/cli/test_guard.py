"""Issue 16, items 1-8: every file kop opens is guarded, every limit honoured.

Most cases run the command line in-process (``kop.cli.app.main``), which is
what the console script runs; a few run a subprocess where the process itself
matters (a FIFO that would block it).
"""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import kop
from kop.cli.app import main
from kop.syntax.budget import MAX_NESTING, MAX_TIMEOUT, OutOfTime, TimeoutArgumentError, check_timeout
from kop.errors import KopError, LimitError, ParseError
from kop.syntax.files import DEFAULT_MAX_BYTES, max_bytes, read_bytes, set_max_bytes

ROOT = Path(__file__).resolve().parents[2]
FIG2 = str(ROOT / "theories" / "figure2.json")
FIG2_KOP = str(ROOT / "theories" / "figure2.kop")
MODEL = str(ROOT / "theories" / "coin.model.json")


def cli(capsys, *args):
    """(exit status, stdout, stderr) of ``kop ARGS`` run in this process."""
    with pytest.raises(SystemExit) as info:
        main(list(args))
    out, err = capsys.readouterr()
    return info.value.code, out, err


# ------------------------------------------------------------ 1. guarded reads
@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    return path


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
@pytest.mark.parametrize("args", [
    ("check", "{}", "p"), ("solve", "{}"), ("select", "{}"), ("draw", "{}", "-o", "{out}"),
    ("match", "{}", "-a", "A=strategy:Mh", "-a", "B=strategy:Mh"), ("run", "{}"), ("dominates", "{}"), ("decided", "{}"),
    ("play", "{}", "--strategy", "A=Mh"),
])
@pytest.mark.parametrize("source", ["/dev/zero", "fifo", "folder"])
def test_devices_fifos_and_folders_are_refused_by_every_command(capsys, tmp_path, fifo, args, source):
    path = {"/dev/zero": "/dev/zero", "fifo": str(fifo), "folder": str(tmp_path)}[source]
    argv = [a.replace("{}", path).replace("{out}", str(tmp_path / "x.svg")) for a in args]
    code, out, err = cli(capsys, *argv)
    assert code == 2, (argv, out, err)
    assert path in err or Path(path).name in err
    assert {"/dev/zero": "character device", "fifo": "FIFO", "folder": "directory"}[source] in err
    assert "internal error" not in err and "Traceback" not in err


def test_a_fifo_does_not_block_the_process(fifo):
    """The open itself must not wait for a writer (O_NONBLOCK, then fstat)."""
    for args in (["check", str(fifo), "p"], ["solve", str(fifo)]):
        r = subprocess.run([sys.executable, "-m", "kop", *args], capture_output=True, text=True, timeout=60,
                           cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert r.returncode == 2 and "FIFO" in r.stderr


def test_size_cap_and_max_bytes_flag(capsys, tmp_path):
    text = Path(FIG2).read_text(encoding="utf-8")
    code, out, err = cli(capsys, "solve", FIG2, "--max-bytes", "100")
    assert code == 2 and "more than the limit of 100" in err and "--max-bytes" in err
    assert cli(capsys, "solve", FIG2, "--max-bytes", str(len(text)))[0] == 0
    assert max_bytes() == DEFAULT_MAX_BYTES  # the flag does not outlive the command
    code, out, err = cli(capsys, "check", MODEL, "p", "--max-bytes", "0")
    assert code == 2 and "--max-bytes" in err


def test_files_reporting_size_zero_are_still_capped(tmp_path):
    """Files under /proc report size 0: the read itself stops at the cap."""
    if not os.path.exists("/proc/self/status"):
        pytest.skip("needs /proc")
    with pytest.raises(KopError, match="longer than the limit of 10 bytes"):
        read_bytes("/proc/self/status", limit=10)


def test_set_max_bytes_checks_its_argument():
    with pytest.raises(KopError, match="positive whole number"):
        set_max_bytes(0)
    assert max_bytes() == DEFAULT_MAX_BYTES


def test_theory_reads_check_the_file_actually_opened(tmp_path, monkeypatch):
    """A symbolic link swapped in between the check and the open cannot lead outside the folder."""
    from kop.theory import files

    inside = tmp_path / "in"
    inside.mkdir()
    (inside / "t.json").write_text(Path(FIG2).read_text(encoding="utf-8"))
    secret = tmp_path / "secret.json"
    secret.write_text("top secret\n")
    real_resolve = files.resolve_confined

    def swap_after_check(name, base, **kw):
        path = real_resolve(name, base, **kw)   # the check passes on the regular file ...
        (inside / "t.json").unlink()            # ... then a link to the secret takes its place
        (inside / "t.json").symlink_to(secret)
        return path

    monkeypatch.setattr(files, "resolve_confined", swap_after_check)
    with pytest.raises(KopError) as info:
        files.read_confined("t.json", inside, what="tree file")
    assert "top secret" not in str(info.value) and "symbolic link" in str(info.value)


# ----------------------------------------------------------- 2. results files
RUN = ["experiment", "bodkin-nplayer", "--b", "2", "--depth", "3", "--trees", "2", "--workers", "1",
       "--no-progress"]


@pytest.mark.parametrize("kind", ["/dev/full", "folder", "missing folder", "read-only", "fifo"])
def test_bad_results_files_are_located_errors(capsys, tmp_path, fifo, kind):
    if kind == "/dev/full" and not os.path.exists("/dev/full"):
        pytest.skip("needs /dev/full")
    ro = tmp_path / "ro.csv"
    ro.write_text("key,x\nold-row,1\n")
    ro.chmod(0o444)
    path = {"/dev/full": "/dev/full", "folder": str(tmp_path), "missing folder": str(tmp_path / "no" / "r.csv"),
            "read-only": str(ro), "fifo": str(fifo)}[kind]
    code, out, err = cli(capsys, *RUN, "--results", path)
    assert code == 2 and path in err and "internal error" not in err, err
    assert ro.read_text() == "key,x\nold-row,1\n"  # nothing already written is lost


def test_a_good_results_file_still_resumes(capsys, tmp_path):
    results = tmp_path / "r.csv"
    assert cli(capsys, *RUN, "--results", str(results))[0] == 0
    first = results.read_text()
    assert cli(capsys, *RUN, "--results", str(results))[0] == 0
    assert results.read_text() == first


# --------------------------------------------- 3. no quoting of non-theories
def _include(tmp_path, name, body=None, target=None):
    if target is not None:
        (tmp_path / name).symlink_to(target)
    elif body is not None:
        (tmp_path / name).write_bytes(body)
    (tmp_path / "t.kop").write_text(f'agents A, B\ninclude "{name}"\n')
    return tmp_path / "t.kop"


@pytest.mark.parametrize("name,body", [
    ("notes.txt", b"SECRET-LINE one\nSECRET two\n"),
    ("bad.kop", b"agents A, B\nknow K_A p SECRET\xff\n"),
])
def test_included_non_theories_are_not_quoted(capsys, tmp_path, name, body):
    code, out, err = cli(capsys, "run", str(_include(tmp_path, name, body)))
    assert code == 2 and name in err and "SECRET" not in err, err


def test_include_of_proc_environ_and_a_link_to_passwd_print_nothing_of_them(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("KOP_GUARD_SECRET", "hunter2")
    for name, target in [("/proc/self/environ", None), ("passwd.kop", "/etc/passwd")]:
        if not os.path.exists(target or name):
            continue
        theory = _include(tmp_path, name, target=target)
        code, out, err = cli(capsys, "run", str(theory), "--allow-outside")
        assert code == 2 and "hunter2" not in err + out and "root:" not in err + out, err
        (tmp_path / "t.kop").unlink()


def test_a_malformed_kop_include_is_still_located(capsys, tmp_path):
    code, out, err = cli(capsys, "run", str(_include(tmp_path, "inc.kop", b"agents A, B\nbogus here\n")))
    assert code == 2 and "inc.kop" in err and "line 2" in err


# ------------------------------------------------------- 4. include diamonds
def test_include_diamonds_fail_fast(tmp_path):
    n = 40
    for i in range(n):
        (tmp_path / f"d{i}.kop").write_text(f'include "d{i + 1}.kop"\ninclude "d{i + 1}.kop"\n')
    (tmp_path / f"d{n}.kop").write_text("agents A, B\n")
    with pytest.raises(ParseError, match="at most 10000 statements"):
        kop.load_theory(tmp_path / "d0.kop")
    # a diamond of includes only (no statement at the bottom) is counted too
    (tmp_path / f"d{n}.kop").write_text("# nothing\n")
    with pytest.raises(ParseError, match="at most 10000 statements"):
        kop.load_theory(tmp_path / "d0.kop")


def test_small_diamonds_still_expand(tmp_path):
    for i in range(3):
        (tmp_path / f"d{i}.kop").write_text(f'include "d{i + 1}.kop"\ninclude "d{i + 1}.kop"\n')
    (tmp_path / "d3.kop").write_text("agents A, B\n")
    assert len(kop.load_theory(tmp_path / "d0.kop").statements) == 8


def test_theory_loading_checks_the_deadline(tmp_path):
    from kop.syntax.budget import deadline_phase

    (tmp_path / "a.kop").write_text('include "b.kop"\n')
    (tmp_path / "b.kop").write_text("agents A, B\n")
    with deadline_phase(1e-9):
        time.sleep(0.001)
        with pytest.raises(OutOfTime):
            kop.load_theory(tmp_path / "a.kop")


# ---------------------------------------------------------------- 5. nesting
def _game(depth):
    return "players A, B\ngame " + "A { " * depth + "(1,2) (3,4)" + " }" * depth + "\n"


def test_inline_game_at_the_limit_reads_without_recursion_error():
    th = kop.parse_theory(_game(MAX_NESTING - 2))
    from kop.theory import TheoryRun

    assert TheoryRun(th, questions=False).tree.height == MAX_NESTING - 2


@pytest.mark.parametrize("depth", [MAX_NESTING + 1, 100_000])
def test_inline_game_too_deep_is_located_and_fast(depth):
    start = time.process_time()
    with pytest.raises(ParseError, match=f"nested more than {MAX_NESTING} levels") as info:
        kop.parse_theory(_game(depth))
    assert info.value.line == 2 and info.value.column == 4 + 4 * (MAX_NESTING + 1)
    assert time.process_time() - start < 5  # generous: the scan itself takes a few ms


@pytest.mark.parametrize("text", ["~" * 100_000 + "p", "(" * 100_000 + "p" + ")" * 100_000,
                                  "K_a " * 100_000 + "p", "[!p]" * 100_000 + "p"])
def test_deep_formulas_fail_at_once_and_located(text):
    with pytest.raises(ParseError, match="nested at most 1000 levels") as info:
        kop.parse(text)
    assert info.value.line == 1 and info.value.column < 25_000


def test_formulas_at_the_limit_still_parse():
    for text in ["~" * 999 + "p", "[!p]" * 999 + "p", "C{a,b}(p, " * 999 + "p" + ")" * 999,
                 "(p & " * 999 + "p" + ")" * 999]:
        kop.parse(text)


# --------------------------------------------------------------- 6. timeouts
@pytest.mark.parametrize("value", ["inf", "1e400", "-1", "0", "nan", "x"])
def test_bad_timeouts_are_bad_input(capsys, value):
    code, out, err = cli(capsys, "valid", "p", f"--timeout={value}")
    assert code == 2 and "--timeout" in err and "Traceback" not in err


@pytest.mark.parametrize("value", [float("inf"), float("nan"), -1, 0, "x", True, 10 ** 400, MAX_TIMEOUT * 2])
def test_bad_timeouts_in_the_api(value):
    for call in (lambda: kop.valid("p", timeout=value), lambda: kop.satisfiable("p", timeout=value),
                 lambda: kop.entails(["p"], "p", timeout=value)):
        with pytest.raises(TimeoutArgumentError, match="timeout"):
            call()
    assert issubclass(TimeoutArgumentError, LimitError)


def test_good_timeouts():
    assert check_timeout(None) is None and check_timeout(1) == 1.0 and check_timeout("0.5") == 0.5
    assert kop.valid("p -> p", timeout=30).holds


# ----------------------------------------------------- 7. the whole command
def test_the_deadline_covers_every_phase(capsys, monkeypatch):
    """The command's deadline is process-wide: a phase outside the prover (here: parsing, made slow)
    ends in "unknown within the limit", exit 3."""
    import kop.syntax.parser as parser

    slow = parser.parse

    def slow_parse(text):
        _burn(0.3)          # CPU time: the limit counts it (a sleep, which uses none, it does not)
        return slow(text)

    monkeypatch.setattr(parser, "parse", slow_parse)
    code, out, err = cli(capsys, "valid", "p -> p", "--timeout", "0.1")
    assert code == 3 and "unknown within the limit" in out
    code, out, err = cli(capsys, "valid", "p -> p", "--timeout", "0.1", "--json")
    assert code == 3 and '"status": "unknown within the limit"' in out


def test_model_building_checks_the_deadline():
    from kop.reasoning.countermodel import build_model

    def stop():
        raise OutOfTime(1.0)

    agents = [f"a{i}" for i in range(200)]
    from kop.reasoning.core import Closure, Core
    from kop.reasoning.satengine import SatEngine

    core = Core()
    phi = kop.parse(" & ".join(f"M_{a} p" for a in agents))
    root = core.compile(phi)
    pmodel = SatEngine(core, Closure(core, [root]), root, None, {}).run()
    with pytest.raises(OutOfTime):
        build_model(pmodel, agents, stop)
    with pytest.raises(OutOfTime):
        Core(stop).compile(kop.parse("E{%s} E{%s} p" % (",".join(agents), ",".join(agents))))


# ------------------------------------------------------------- 8. exit 3
@pytest.mark.parametrize("args", [
    ("select", FIG2, "-c", "A=2", "-c", "B=1", "-k", "K_B (E_A | p)"), ("run", "T"), ("dominates", "T"), ("decided", "T"),
])
def test_unknown_within_the_limit_exits_3(capsys, tmp_path, args):
    # a disjunction in the knowledge: the prover must answer (chains alone are decided without it,
    # by the subsequence rule, faster than any limit)
    theory = tmp_path / "fig2.kop"
    theory.write_text(Path(FIG2_KOP).read_text(encoding="utf-8") + "\nknow K_B (E_A | p)\n", encoding="utf-8")
    args = tuple(str(theory) if a == "T" else a for a in args)
    with kop.config.fresh_caches():   # answers remembered from an earlier question come back in no time at all
        code, out, err = cli(capsys, *args, "--timeout", "1e-9")
    assert code == 3 and "unknown within the limit" in out, (out, err)


@pytest.mark.skipif(not hasattr(__import__("signal"), "setitimer"), reason="needs SIGALRM")
def test_hard_deadline_interrupts_a_phase_that_does_not_check():
    from kop.syntax.budget import start_deadline

    from kop.syntax.budget import DeadlineInterrupt

    with kop.config.using():         # the deadline is this block's; start_deadline(None) stops the timers
        start_deadline(0.05, hard=True)
        try:
            with pytest.raises(DeadlineInterrupt):
                _burn(30)   # stands for an import or a library call that never checks the deadline
        finally:
            start_deadline(None)
    assert kop.config.current().deadline is None
    _burn(0.1)
    time.sleep(0.1)  # the timers are cancelled: nothing fires any more


@pytest.mark.skipif(not hasattr(__import__("signal"), "setitimer"), reason="needs SIGALRM")
def test_hard_deadline_interrupts_a_wait_that_uses_no_cpu():
    from kop.syntax.budget import WALL_FACTOR, DeadlineInterrupt, start_deadline

    began = time.monotonic()
    with kop.config.using():
        start_deadline(0.01, hard=True)
        try:
            with pytest.raises(DeadlineInterrupt):
                time.sleep(30)   # a blocked wait: no CPU time passes, the wall-clock backstop ends it
        finally:
            start_deadline(None)
    assert time.monotonic() - began < 0.01 * WALL_FACTOR + 1.0 + 5


def _burn(seconds):
    """Use *seconds* of CPU time."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_bad_timeouts_in_the_other_api_functions():
    tree = kop.load_tree(FIG2)
    theory = kop.load_theory(FIG2_KOP)
    for call in (lambda: kop.select(tree, [], timeout="x"), lambda: kop.level([], "A", "B", timeout=float("inf")),
                 lambda: kop.run_theory(theory, timeout=-1)):
        with pytest.raises(TimeoutArgumentError, match="timeout"):
            call()
