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


# -- a misspelt atom in a model ----------------------------------------------------------------------------
_MODEL = """model {
  vocabulary m1 m2 m3
  law m1 | m2 | m3
  observes c1: m2 m3
  observes c2: m1 m3
  actual m1 m2
}
ask check K_c2 m2
"""


@pytest.mark.parametrize("line", ["ask check K_c1 m11", "announce m1 & m22", "in all announce m22"])
def test_a_misspelt_atom_is_a_located_error_after_the_answers_before_it(capsys: pytest.CaptureFixture[str],
                                                                        tmp_path: Path, line: str) -> None:
    code, out, err = run(capsys, "run", _theory(tmp_path, _MODEL + line + "\nask check m1\n"))
    word = line.split()[-1]
    assert code == 2 and "line 9" in err and repr(word) in err and "vocabulary" in err, err
    caret = err.splitlines()[2]
    assert caret.index("^") == err.splitlines()[1].index(word)           # under the misspelt atom
    assert out.startswith("[line 8] check K_c2 m2: ")                    # the answer before it is printed


def test_a_number_model_knows_its_bit_atoms(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    text = "model {\n  number x in 0..5\n  observes a value x % 2\n}\nask check K_a x0 | K_a ~x0\nask check x3\n"
    code, out, err = run(capsys, "run", _theory(tmp_path, text))
    assert code == 2 and "line 6" in err and "'x3'" in err and out.startswith("[line 5]"), (out, err)


def test_an_atom_a_model_file_never_makes_true_is_a_warning(capsys: pytest.CaptureFixture[str],
                                                            tmp_path: Path) -> None:
    (tmp_path / "m.model.json").write_text((ROOT / "theories" / "muddy3.model.json").read_text())
    code, out, err = run(capsys, "run", _theory(tmp_path, 'model "m.model.json"\nask check m_a | m_d\n'))
    assert code == 0 and "warning" in out and "'m_d'" in out, (out, err)
    code, out, _ = run(capsys, "run", _theory(tmp_path, 'model "m.model.json"\nask check m_a | m_b\n'))
    assert code == 0 and "warning" not in out


# -- the inconsistency message -----------------------------------------------------------------------------
def test_the_contradictory_subset_is_shown_whole_and_minimal(capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    text = ("players A max, B min\ngame root: A { L: B { (1,5) (3,2) }  R: B { (2,1) (0,0) } }\n"
            "core A = 3\nknow ~K_B K_A E_B\nask level A\n")
    code, _, err = run(capsys, "run", _theory(tmp_path, text))
    first = err.splitlines()[0]
    assert code == 2 and "inconsistent" in first and "..." not in first, err
    assert first.endswith("a minimal contradictory subset: line 3: K_A K_B K_A E_B; line 4: ~K_B K_A E_B"), first


# -- the install hint --------------------------------------------------------------------------------------
def test_the_install_hint_never_names_an_unpublished_distribution(monkeypatch: pytest.MonkeyPatch) -> None:
    """From a wheel (no source folder) the hint installs the extra's own packages, which pip can find."""
    import kop.errors as errors

    assert errors.install_hint("draw") == "pip install '.[draw]' (in kop's source folder)"
    monkeypatch.setattr(errors, "_source_folder", lambda: None)          # as installed from a wheel
    assert errors.install_hint("draw") == "pip install 'matplotlib>=3.8'"
    assert errors.install_hint("dask") == "pip install 'distributed>=2024.1'"
    for extra in ("draw", "gambit", "dask", "parquet"):
        assert "kop-epistemic" not in errors.install_hint(extra)


def test_no_message_or_page_names_the_unpublished_distribution() -> None:
    places = [*(ROOT / "kop").rglob("*.py"), *(ROOT / "docs").glob("*.md"), ROOT / "README.md"]
    named = [str(p.relative_to(ROOT)) for p in places if "kop-epistemic[" in p.read_text(encoding="utf-8")]
    assert named == []


# -- kop match: a level -1 in one line, 0 in the next --------------------------------------------------------
def test_match_says_whose_knowledge_each_level_is_from(capsys: pytest.CaptureFixture[str]) -> None:
    """A's line gave B's level from A's knowledge (-1: A does not know f(B,0)), B's line from B's own (0)."""
    code, out, _ = run(capsys, "match", str(ROOT / "theories" / "figure2.kop"), "--scenario", "s1", "-a", "A", "-a", "B")
    moves = [line for line in out.splitlines() if line.lstrip()[:2] in ("1.", "2.", "3.", "4.")]
    assert code == 0 and len(moves) == 2
    for line in moves:
        me = line.split()[1]
        other = "B" if me == "A" else "A"
        assert f"levels by the prover from {me}'s knowledge: {me} = 0, {other} = -1 ({me}'s knowledge does not " \
               f"entail f({other},0))" in line, line
