"""What a newcomer met, and smaller defects found by independent checks (issue 29, sections 2-4): one test each."""

from __future__ import annotations

from pathlib import Path

import pytest

from kop.cli.app import main

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as stop:
        main(list(args))
    out = capsys.readouterr()
    return int(stop.value.code or 0), out.out, out.err


def _theory(tmp_path: Path, text: str, name: str = "t.kop") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


# -- partial knowledge written by leaf label ----------------------------------------------------------------
_LABELLED = """players A max, B min
game root: A {
  R: B { r1: (4,7) r2: (8,9) }
  T: B { t1: (9,4) t2: (1,5) }
}
core A = 0
core B = 0
scenario s {
  A knows E_B among {
    CANDIDATES
  }
}
"""


@pytest.mark.parametrize("command", [("decided",), ("dominates", "--player", "A"), ("run",)])
def test_partial_knowledge_by_leaf_label_answers_as_by_leaf_order(capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path, command: tuple[str, ...]) -> None:
    text = _LABELLED + ("ask select A\nask decided\n" if command == ("run",) else "")
    by_label = text.replace("CANDIDATES", "(r1 = 7, r2 = 9, t1 = 4, t2 = 5)\n    (t2 = 5, r1 = 7, r2 = 10, t1 = 4)")
    by_order = text.replace("CANDIDATES", "[7, 9, 4, 5]\n    [7, 10, 4, 5]")
    code, out, err = run(capsys, command[0], _theory(tmp_path, by_label, "label.kop"), *command[1:])
    assert (code, err) == (0, ""), err
    code2, out2, _ = run(capsys, command[0], _theory(tmp_path, by_order, "order.kop"), *command[1:])
    assert code2 == 0 and out.replace("label.kop", "X") == out2.replace("order.kop", "X")
    if command[0] == "decided":
        assert "R" in out and "T" in out
