"""kop.config: each thread and asyncio task has its own deadline, byte cap and (when asked) caches.

The references are written from the definitions: a thread's settings are the stack of the
``using`` blocks it has entered (a new thread starts from the process default); an asyncio
task's are those of the context it was created in, then its own blocks; a :class:`Memo` is a
table that forgets its oldest entry past ``maxsize`` (a ``put`` makes its key the newest).
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kop
from kop import config
from kop.reasoning.entailment import cache_info, clear_cache, follows
from kop.reasoning.errors import ProverTimeout
from kop.syntax.budget import OutOfTime, check_deadline, deadline_phase, deadline_seconds, start_deadline
from kop.syntax.files import max_bytes, read_bytes, set_max_bytes

ROOT = Path(__file__).resolve().parent.parent


def _burn(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def _in_threads(*targets):
    """Run each target in its own thread, all started together; re-raise the first failure."""
    barrier = threading.Barrier(len(targets))
    errors: list[BaseException] = []

    def wrap(fn):
        def run():
            try:
                fn(barrier)
            except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
                errors.append(exc)
                barrier.abort()
        return run

    threads = [threading.Thread(target=wrap(fn)) for fn in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    if errors:
        raise errors[0]


# ------------------------------------------------------------------------- threads

def test_two_threads_have_their_own_byte_caps(tmp_path):
    path = tmp_path / "fifty.txt"
    path.write_bytes(b"x" * 50)
    seen = {}

    def small(barrier):
        with config.using(max_bytes=10):
            barrier.wait()                        # both blocks are open now
            seen["small"] = max_bytes()
            with pytest.raises(kop.KopError, match="more than the limit of 10"):
                read_bytes(path)
            barrier.wait()

    def large(barrier):
        with config.using(max_bytes=100):
            barrier.wait()
            seen["large"] = max_bytes()
            assert read_bytes(path) == b"x" * 50
            barrier.wait()

    _in_threads(small, large)
    assert seen == {"small": 10, "large": 100}
    assert max_bytes() == config.DEFAULT_MAX_BYTES


def test_two_threads_have_their_own_deadlines():
    seen = {}

    def hurried(barrier):
        with deadline_phase(1e-9):
            barrier.wait()
            _burn(0.001)
            with pytest.raises(OutOfTime):
                check_deadline()
            with pytest.raises(ProverTimeout):     # the prover's own limit starts from the context's deadline
                kop.valid("C{a,b} p -> K_a K_b p")
            seen["hurried"] = deadline_seconds()
            barrier.wait()

    def patient(barrier):
        with config.using(timeout=1000):
            barrier.wait()
            barrier.wait()                         # the other thread's deadline has passed by now
            check_deadline()
            assert kop.valid("C{a,b} p -> K_a K_b p").holds
            seen["patient"] = deadline_seconds()

    _in_threads(hurried, patient)
    assert seen == {"hurried": 1e-9, "patient": 1000.0}
    assert deadline_seconds() is None


def test_a_new_thread_starts_from_the_process_default_and_takes_a_saved_config():
    got = {}
    with config.using(max_bytes=123) as mine:
        def worker():
            got["own"] = max_bytes()
            with config.using(mine):
                got["handed"] = max_bytes()
        t = threading.Thread(target=worker)
        t.start()
        t.join()
    assert got == {"own": config.DEFAULT_MAX_BYTES, "handed": 123}


def test_the_command_line_run_in_two_threads_keeps_each_ones_max_bytes():
    from kop.cli.app import run

    model = str(ROOT / "theories" / "coin.model.json")
    codes = {}

    def tight(barrier):
        barrier.wait()
        with pytest.raises(kop.KopError, match="more than the limit of 10"):
            run(["check", model, "p", "--max-bytes", "10"])
        codes["tight"] = 2

    def loose(barrier):
        barrier.wait()
        codes["loose"] = run(["check", model, "p"])

    _in_threads(tight, loose)
    assert codes == {"tight": 2, "loose": 0}
    assert max_bytes() == config.DEFAULT_MAX_BYTES


def test_the_older_setters_change_the_innermost_block_only():
    with config.using():
        assert set_max_bytes(10) == config.DEFAULT_MAX_BYTES
        start_deadline(100)
        with config.using(max_bytes=20):
            set_max_bytes(30)
            assert max_bytes() == 30
        assert max_bytes() == 10 and deadline_seconds() == 100
        start_deadline(None)
        assert deadline_seconds() is None
        start_deadline(100)
    assert max_bytes() == config.DEFAULT_MAX_BYTES and deadline_seconds() is None


def test_the_older_setters_outside_every_block_set_the_process_default():
    """As before: ``set_max_bytes`` outside any block holds for the whole process, other threads too."""
    code = ("import threading\nfrom kop.syntax.files import max_bytes, set_max_bytes\n"
            "set_max_bytes(77)\nseen = []\nt = threading.Thread(target=lambda: seen.append(max_bytes()))\n"
            "t.start(); t.join(); print(seen[0], max_bytes())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
                          check=True)
    assert done.stdout.split() == ["77", "77"]


def test_a_block_never_outlives_its_callers_limit():
    with config.using(timeout=10) as outer:
        with config.using(timeout=1000) as inner:
            assert inner.deadline == outer.deadline and inner.timeout == 10
        with config.using(timeout=1) as shorter:
            assert shorter.deadline < outer.deadline and shorter.timeout == 1
        with config.using(timeout=None) as same:
            assert same.deadline == outer.deadline


# ------------------------------------------------------------------------- asyncio

def test_two_asyncio_tasks_have_their_own_settings():
    async def task(n: int, timeout: float, out: dict) -> None:
        with config.using(max_bytes=n, timeout=timeout):
            for _ in range(5):
                await asyncio.sleep(0)                       # the other task runs here
                out.setdefault(n, set()).add((max_bytes(), deadline_seconds()))

    async def both() -> dict:
        out: dict = {}
        await asyncio.gather(task(10, 5.0, out), task(20, 50.0, out))
        return out

    assert asyncio.run(both()) == {10: {(10, 5.0)}, 20: {(20, 50.0)}}


def test_a_task_starts_with_the_settings_of_its_creator_and_keeps_its_changes_to_itself():
    async def child() -> int:
        before = max_bytes()
        set_max_bytes(7)                                     # the task's copy of the block
        return before

    async def parent() -> tuple[int, int]:
        with config.using(max_bytes=99):
            before = await asyncio.create_task(child())
            return before, max_bytes()

    assert asyncio.run(parent()) == (99, 99)


def test_a_deadline_in_one_task_does_not_stop_another():
    async def hurried() -> str:
        with deadline_phase(1e-9):
            await asyncio.sleep(0)
            _burn(0.001)
            try:
                check_deadline()
            except OutOfTime:
                return "out of time"
            return "done"

    async def patient() -> str:
        await asyncio.sleep(0)
        _burn(0.002)
        check_deadline()
        return "done"

    async def both() -> list[str]:
        return list(await asyncio.gather(hurried(), patient()))

    assert asyncio.run(both()) == ["out of time", "done"]


# ------------------------------------------------------------------------- caches

def test_the_default_caches_are_shared_by_threads_and_fresh_ones_are_apart():
    shared = {}

    def look(barrier):
        barrier.wait()
        shared[threading.get_ident()] = config.current().caches

    _in_threads(look, look)
    assert len({id(c) for c in shared.values()}) == 1 and config.current().caches in shared.values()

    infos = {}

    def ask(name):
        def run(barrier):
            with config.fresh_caches():
                barrier.wait()
                assert follows([f"K_a {name}"], name) and follows([f"K_a {name}"], name)
                barrier.wait()
                infos[name] = cache_info()
                clear_cache()                                # clears this block's caches only
        return run

    with config.fresh_caches():
        assert follows(["K_b q"], "q")
        _in_threads(ask("p"), ask("r"))
        assert cache_info()["entries"] == 1
    assert infos == {n: {"hits": 1, "misses": 1, "chains": 1, "entries": 1} for n in ("p", "r")}


def test_a_question_out_of_time_is_not_remembered():
    with config.fresh_caches():
        with deadline_phase(1e-9):
            _burn(0.001)
            with pytest.raises(ProverTimeout):
                follows(["K_a p | K_b p"], "K_a p")
        assert cache_info()["entries"] == 0
        assert not follows(["K_a p | K_b p"], "K_a p")


@settings(deadline=None)
@given(st.integers(1, 5), st.lists(st.tuples(st.booleans(), st.integers(0, 7)), max_size=60))
def test_memo_matches_its_definition(maxsize, ops):
    """Against the definition: keys oldest first; put makes a key the newest; past maxsize the oldest go."""
    memo = config.Memo(maxsize)
    order: list[int] = []
    values: dict[int, int] = {}
    hits = misses = 0
    for step, (put, key) in enumerate(ops):
        if put:
            memo.put(key, step)
            if key in order:
                order.remove(key)
            order.append(key)
            values[key] = step
            while len(order) > maxsize:
                values.pop(order.pop(0))
        else:
            got = memo.get(key)
            assert got == values.get(key, config.MISSING)
            hits, misses = (hits + 1, misses) if key in values else (hits, misses + 1)
    assert memo.info() == {"hits": hits, "misses": misses, "entries": len(order)}


def test_memo_is_safe_under_threads():
    memo = config.Memo(8)

    def hammer(seed):
        def run(barrier):
            barrier.wait()
            for i in range(3000):
                key = (seed * 7919 + i) % 13
                memo.put(key, key * 2)
                got = memo.get((key + 1) % 13)
                assert got is config.MISSING or got == ((key + 1) % 13) * 2
        return run

    _in_threads(*(hammer(s) for s in range(4)))
    info = memo.info()
    assert len(memo) <= 8 and info["hits"] + info["misses"] == 4 * 3000


# ------------------------------------------------------------------------- a stress test of the definition

SETTING = st.one_of(st.tuples(st.just("bytes"), st.integers(1, 1000)),
                    st.tuples(st.just("time"), st.integers(1, 1000).map(float)),  # whole seconds: CPU time used meanwhile cannot tip a comparison
                    st.tuples(st.just("set"), st.integers(1, 1000)),
                    st.tuples(st.just("pop"), st.just(0)))
PROGRAM = st.lists(SETTING, max_size=12)


def _follow(program):
    """Run *program* in this thread or task; after each step compare the settings with the definition.

    The definition: a stack of blocks, each (cap, limit); ``bytes``/``time`` open a block with a
    changed copy (a limit only ever shortens), ``set`` changes the innermost block's cap (or
    the outermost of this program's, here always open), ``pop`` closes the innermost block.
    """
    stack: list[tuple[int, float | None]] = [(config.DEFAULT_MAX_BYTES, None)]
    blocks = []
    with config.using():
        for kind, value in program:
            cap, limit = stack[-1]
            if kind == "bytes":
                blocks.append(config.using(max_bytes=value))
                blocks[-1].__enter__()
                stack.append((value, limit))
            elif kind == "time":
                blocks.append(config.using(timeout=value))
                blocks[-1].__enter__()
                stack.append((cap, value if limit is None or value < limit else limit))
            elif kind == "set":
                set_max_bytes(value)
                stack[-1] = (value, limit)
            elif blocks:
                blocks.pop().__exit__(None, None, None)
                stack.pop()
            yield
            assert (max_bytes(), deadline_seconds()) == stack[-1], (program, stack)
        while blocks:
            blocks.pop().__exit__(None, None, None)


@settings(deadline=None, max_examples=40)
@given(st.lists(PROGRAM, min_size=2, max_size=4))
def test_threads_running_random_blocks_each_see_their_own(programs):
    def thread(program):
        def run(barrier):
            barrier.wait()
            for _ in _follow(program):
                time.sleep(0)                                # let the others interleave
        return run

    _in_threads(*(thread(p) for p in programs))
    assert max_bytes() == config.DEFAULT_MAX_BYTES and deadline_seconds() is None


@settings(deadline=None, max_examples=40)
@given(st.lists(PROGRAM, min_size=2, max_size=4))
def test_asyncio_tasks_running_random_blocks_each_see_their_own(programs):
    async def task(program):
        for _ in _follow(program):
            await asyncio.sleep(0)

    async def all_tasks():
        await asyncio.gather(*(task(p) for p in programs))

    asyncio.run(all_tasks())
    assert max_bytes() == config.DEFAULT_MAX_BYTES and deadline_seconds() is None


# ------------------------------------------------------------------------- the value and its checks

def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match="positive whole number"):
        config.using(max_bytes=0).__enter__()
    with pytest.raises(ValueError, match="finite number of seconds"):
        config.using(timeout=float("inf")).__enter__()
    with pytest.raises(TypeError, match="unknown settings"):
        config.using(cap=3).__enter__()
    with pytest.raises(TypeError, match="takes a Config"):
        config.using({"max_bytes": 3}).__enter__()
    with pytest.raises(AttributeError, match="cannot be changed"):
        config.current().max_bytes = 3  # type: ignore[misc]
    assert config.current().max_bytes == config.DEFAULT_MAX_BYTES


def test_the_config_repr_rebuilds_it():
    c = config.Config(timeout=2.0, deadline=5.0, max_bytes=10)
    assert eval(repr(c), {"Config": config.Config, "Caches": config.Caches}).replace(caches=c.caches) == c


def test_kop_config_is_an_attribute_of_kop():
    assert kop.config is config and "config" in dir(kop) and kop.Config is config.Config


def test_recursion_room_is_kept_while_any_thread_needs_it():
    """The recursion limit is the interpreter's: one thread's block ending leaves another's room in place."""
    import sys

    from kop.syntax.budget import recursion_room

    base = sys.getrecursionlimit()
    seen = {}

    def short(barrier):
        with recursion_room(100):
            barrier.wait()                                   # both blocks open
        barrier.wait()                                       # this one has closed

    def long(barrier):
        with recursion_room(1000):
            barrier.wait()
            barrier.wait()
            seen["after the other closed"] = sys.getrecursionlimit()

    _in_threads(short, long)
    assert seen == {"after the other closed": base + 1000} and sys.getrecursionlimit() == base


def test_the_shared_parsers_answer_threads_as_they_answer_one():
    """The formula and theory parsers are built once and shared (``lru_cache``): parsing is reentrant."""
    from kop.theory.grammar import parse_theory

    formulas = [f"K_a{i % 3} (p{i} -> C{{a,b}} q{i}) & ~B_b{i % 2} r" for i in range(150)]
    theory = "players A max, B min\nagents A, B\n" + "".join(f"know K_A E_A & p{i}\n" for i in range(40))
    alone = ([kop.parse(f) for f in formulas], parse_theory(theory).statements)
    got = []

    def parse_all(barrier):
        barrier.wait()
        got.append(([kop.parse(f) for f in formulas], parse_theory(theory).statements))

    _in_threads(*([parse_all] * 4))
    assert got == [alone] * 4


def test_bdd_managers_are_shared_within_a_thread_and_apart_between_threads():
    from kop.bdd.manager import manager

    mine = manager("python", ["p", "q"])
    assert manager("python", ["p", "q"]) is mine
    theirs = []

    def other():
        theirs.extend([manager("python", ["p", "q"]), manager("python", ["p", "q"])])

    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert theirs[0] is theirs[1] and theirs[0] is not mine
