"""Bad input and explicit limits: declared agents, deep nesting, time limits, bad arguments."""

from __future__ import annotations

import time

import pytest

import kop
from kop.reasoning.errors import AgentError, ProverTimeout
from kop.reasoning.generators import k_ph_p
from kop.syntax.errors import KopError, LimitError
from kop.syntax.formula import Atom, Know, Not


def test_agent_outside_the_declared_set():
    with pytest.raises(AgentError, match="'c'"):
        kop.valid("K_a p -> K_c p", agents=["a", "b"])
    with pytest.raises(AgentError, match="'c'"):
        kop.entails(["K_c p"], "p", agents=["a"])
    with pytest.raises(KopError):
        kop.satisfiable("D{a,z} p", agents="ab")       # a string is a set of one-letter names
    with pytest.raises(AgentError):
        kop.level(["K_A E_A", "K_C p"], "A", "B", agents=["A", "B"])


def test_declared_agents_appear_in_the_countermodel():
    v = kop.valid("K_a p -> p & K_a p", agents=["a", "b", "c"])
    assert v.holds
    v = kop.valid("K_a p -> K_b p", agents=["a", "b", "c"])
    assert set(v.countermodel.agents) == {"a", "b", "c"}


def _deep(n: int):
    f = Atom("p")
    for i in range(n):
        f = Know("a" if i % 2 else "b", f) if i % 3 else Not(f)
    return f


def test_ten_thousand_deep_nesting_is_refused_clearly():
    deep = _deep(10_000)
    for call in (lambda: kop.valid(deep), lambda: kop.satisfiable(deep),
                 lambda: kop.entails([deep], "p"), lambda: kop.level([deep], "A", "B")):
        with pytest.raises(LimitError, match="nested more than"):
            call()


def test_deep_but_allowed_nesting_works():
    f = _deep(900)
    assert kop.satisfiable(f).holds


def test_deep_nesting_in_the_parser():
    with pytest.raises(KopError):
        kop.valid("K_a " * 10_000 + "p")


def test_timeout_raises_unknown_within_the_limit():
    t = time.perf_counter()
    with pytest.raises(ProverTimeout, match="unknown within the limit"):
        kop.valid(k_ph_p(10), timeout=0.3)
    assert time.perf_counter() - t < 5


def test_timeout_with_common_knowledge():
    big = kop.conj(kop.parse(f"C{{a,b}}(q{i} -> M_a q{i + 1}) & M_b (q{i} & K_a ~q{i + 2})") for i in range(40))
    with pytest.raises(ProverTimeout):
        kop.satisfiable(big, timeout=0.05)


def test_bad_timeout_and_method():
    with pytest.raises(LimitError):
        kop.valid("p", timeout=0)
    with pytest.raises(KopError, match="unknown method"):
        kop.valid("p", method="magic")
    with pytest.raises(KopError, match="common"):
        kop.valid("C{a,b} p", method="sat")


def test_bad_types():
    with pytest.raises(TypeError):
        kop.valid(42)
    with pytest.raises(KopError):
        kop.valid("K_a (p")


def test_prover_timeout_is_a_kop_error():
    assert issubclass(ProverTimeout, KopError)
    assert issubclass(kop.ProverBug, AssertionError)
