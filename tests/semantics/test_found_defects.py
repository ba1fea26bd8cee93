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
