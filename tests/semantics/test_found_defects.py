"""Smaller defects found by independent checks (issue 29, section 3): one test each."""

from __future__ import annotations

import pytest

import kop
from kop.errors import LanguageError


@pytest.mark.parametrize("text, column, found", [("p & B_a q", 5, "B_a"), ("q & (p | P_a(q) > 1/2)", 10, "P_a"),
                                                 ("p\n& B_a(p, q)", 3, "B_a")])
def test_a_knowledge_structure_locates_belief_and_probability(text: str, column: int, found: str) -> None:
    ks = kop.KnowledgeStructure("p q", "p | q", {"a": "p"})
    with pytest.raises(LanguageError) as err:
        ks.count(text)
    line = text.count("\n") + 1
    assert (err.value.line, err.value.column, err.value.found) == (line, column, found), str(err.value)
    with pytest.raises(LanguageError) as err2:
        ks.count(kop.parse(text))                   # a formula: located in its printed form
    printed = kop.to_ascii(kop.parse(text))
    assert printed[err2.value.column - 1:].startswith(found), (printed, err2.value.column)


def test_states_fails_at_the_call() -> None:
    ks = kop.KnowledgeStructure("p q", "p | q", {"a": "p"})
    with pytest.raises(LanguageError):
        ks.states("B_a p")                          # not only when iterated
    with pytest.raises(kop.KopError):
        ks.states("K_b p")
    assert sorted(map(sorted, ks.states("K_a q | q"))) == [["p", "q"], ["q"]]


# -- the prover's limit is CPU time -------------------------------------------------------------------------
def test_the_provers_limit_counts_cpu_time_not_waiting() -> None:
    """A machine busy with other work (here: a sleep, which uses no CPU) does not use up the limit."""
    import time

    from kop.reasoning.limits import Deadline
    from kop.syntax.budget import check_deadline, deadline_phase

    d = Deadline(0.2)
    time.sleep(0.3)
    d.check()                                       # wall-clock: it raised ProverTimeout here
    assert not d.expired() and 0 <= d.used() < 0.15
    with deadline_phase(0.2):
        time.sleep(0.3)
        check_deadline()                            # the command's deadline too


def test_the_verdict_says_how_much_of_the_limit_was_used() -> None:
    v = kop.valid("C{a,b} p -> K_a K_b p", timeout=5)
    assert v.stats["limit_seconds"] == 5 and 0 <= v.stats["cpu_seconds"] < 5
    assert v.limit_used == v.stats["cpu_seconds"] / 5
    assert kop.valid("K_a p -> p").limit_used is None and "limit_seconds" not in kop.valid("K_a p -> p").stats


def test_kop_valid_prints_the_cpu_time_of_its_limit(capsys: pytest.CaptureFixture[str]) -> None:
    from kop.cli.app import main

    with pytest.raises(SystemExit):
        main(["valid", "K_a p -> p", "--timeout", "5"])
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "valid" and out[1].startswith("CPU time: ") and out[1].endswith(" of the 5 s limit"), out
