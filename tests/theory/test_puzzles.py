"""Every shipped puzzle is stated as a theory (a model by observation) and answers its known question,
the same answer as the puzzle's Python module."""

from pathlib import Path

import kop
from kop.puzzles import cheryl, muddy_children, russian_cards, sum_product

THEORIES = Path(__file__).resolve().parents[2] / "theories"


def _answers(name):
    return kop.run_theory(kop.load_theory(THEORIES / name))


def _worlds_left(answers):
    return [a.result["worlds"] for a in answers if a.question.startswith("announce")]


def test_muddy_children():
    ans = _answers("muddy_children.kop")
    assert all(a.result["holds"] for a in ans if a.question.startswith("check"))
    assert ans[-1].result["worlds"] == ["w110"]
    r = muddy_children.solve(3, muddy=[1, 2])
    assert r.first_knows[:2] == (2, 2) and r.first_knows[2] == 3


def test_cheryl():
    ans = _answers("cheryl.kop")
    assert _worlds_left(ans) == list(cheryl.solve().counts[1:]) == [5, 3, 1]
    assert ans[-1].result["valuations"] == {ans[-1].result["worlds"][0]: ["d16", "july"]}


def test_sum_and_product():
    ans = _answers("sum_product.kop")
    assert _worlds_left(ans) == list(sum_product.solve().counts[1:]) == [145, 86, 1]
    assert ans[-1].result["worlds"] == ["x4y13"]


def test_russian_cards():
    ans = _answers("russian_cards.kop")
    assert len(ans[0].result["worlds"]) == 1 and ans[0].result["valuations"][ans[0].result["worlds"][0]] == \
        ["a0", "a1", "a2", "b3", "b4", "b5", "c6"]
    checks = [a.result["holds"] for a in ans if a.question.startswith("check")]
    assert checks == [True] * 5
    assert russian_cards.is_safe([(0, 1, 2), (0, 3, 4), (0, 5, 6), (1, 3, 5), (2, 4, 6)])


def test_drinking_logicians():
    ans = _answers("drinking_logicians.kop")
    assert all(a.result["holds"] for a in ans if a.question.startswith("check"))
    assert ans[-1].result["worlds"] == ["w111"]


def test_dining_cryptographers():
    ans = _answers("dining_cryptographers.kop")
    assert all(a.result["holds"] for a in ans if a.question.startswith("check"))


def test_number_models_errors(tmp_path):
    import pytest

    cases = [
        ("model {\n  number x in 1..3\n  where x < z\n  observes a value x\n}\n", 3, "unknown variable 'z'"),
        ("model {\n  number x in 1..3\n  where x +\n  observes a value x\n}\n", 3, "in an expression"),
        ("model {\n  number x in 5..3\n  observes a value x\n}\n", 2, "is empty"),
        ("model {\n  number x in 1..2000\n  number y in 1..2000\n  observes a value x\n}\n", 3,
         "assignments"),
        ("model {\n  number x in 1..3\n  where x / 0 = 1\n  observes a value x\n}\n", 3, "division by zero"),
    ]
    for text, line, part in cases:
        with pytest.raises(kop.ParseError) as info:
            kop.run_theory(kop.parse_theory(text, tmp_path))
        assert info.value.line == line and part in str(info.value), str(info.value)
