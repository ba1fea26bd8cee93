"""Smaller defects found by independent checks (issue 29, section 3): one test each."""

from __future__ import annotations

from fractions import Fraction

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


# -- Kooi's update after an announcement of probability 0 -------------------------------------------------------
_ZERO = {"a": {"v": 1, "x": 3}}   # a gives u (the only p-world of its cell) probability 0


def _model() -> kop.KripkeModel:
    return kop.KripkeModel({"u": ["p"], "v": ["q"], "x": []}, {"a": [["u", "v", "x"]]}, actual="u",
                           probability=_ZERO)


@pytest.mark.parametrize("formula, holds", [
    ("[!p] P_a(true) = 1", True),            # Kooi: valid; kop's old rule gave 0
    ("[!p] P_a(q) = 1/4", True),             # the measure kept: v weighs 1 of 4
    ("[!p] (K_a p & P_a(p) = 0)", True),     # it knows p, and its kept measure still gives p nothing
    ("[!p] [!p] P_a(true) = 1", True),       # twice: still the measure from before
    ("[!(p | q)] P_a(q) = 1", True),         # probability 1/4 > 0: conditioned as usual
])
def test_an_agent_that_gave_the_announcement_probability_0_keeps_its_measure(formula: str, holds: bool) -> None:
    from kop.semantics.checker import truth_vector
    from kop.semantics.reference import naive_truth_set

    m = _model()
    f = kop.parse(formula)
    assert m.satisfies(f) is holds                                        # bit sets (a small model)
    assert bool(truth_vector(m, f)[m.index("u")]) is holds                # numpy
    assert ("u" in naive_truth_set(m, f)) is holds                        # the naive reference
    after = m.announce("p")
    assert after.probability("a", "true", "u") == 1 and after.probability("a", "q", "u") == Fraction(1, 4)
    assert after.satisfies("P_a(true) = 1")


def test_kooi_cross_checked_on_random_models() -> None:
    """Every checker against the naive reference, announcements of probability 0 included."""
    import random

    from kop.semantics.checker import truth_vector
    from kop.semantics.reference import naive_truth_set

    rng = random.Random(29)
    atoms = ["p", "q"]
    for _ in range(150):
        worlds = {f"w{i}": [a for a in atoms if rng.random() < 0.5] for i in range(rng.randint(2, 5))}
        names = list(worlds)
        rng.shuffle(names)
        cut = rng.randint(1, len(names))
        cells = [c for c in (names[:cut], names[cut:]) if c]
        probs = {w: rng.choice([0, 1, 2]) for w in names}
        for c in cells:
            if not any(probs[w] for w in c):
                probs[c[0]] = 1
        m = kop.KripkeModel(worlds, {"a": cells}, probability={"a": probs})
        for text in ("[!p] P_a(true) = 1", "[!p] P_a(q) >= 1/2", "[!~q] [!p] P_a(p) > 0", "[!p] P_a(K_a p) = 1"):
            f = kop.parse(text)
            fast = {m.worlds[i] for i in truth_vector(m, f).nonzero()[0].tolist()}
            assert fast == set(naive_truth_set(m, f)) == set(m.truth_set(f)), (worlds, cells, probs, text)
        assert m.satisfies("[!p] P_a(true) = 1") if m.truth_set("p") else True
