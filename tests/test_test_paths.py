"""The suite runs from any folder (issue 29): tests find the repository's files from ``__file__``, never by
a path relative to the folder pytest was started in.  Run, e.g.,
``cd /tmp && pytest --rootdir REPO -c REPO/pyproject.toml REPO/tests/semantics``."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_no_test_reads_the_repositorys_files_by_a_relative_path() -> None:
    """A literal "theories/..." path is read relative to the current folder unless the test runs kop in a
    subprocess started in the repository (``cwd=ROOT``, or a helper given ``ROOT``) or moves there first."""
    relative = re.compile(r"""(?<![/\w])["']theories/[\w./-]+["']""")
    offenders = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "cwd=ROOT" in text or "chdir(ROOT)" in text or path.name == Path(__file__).name:
            continue
        lines = text.splitlines()
        for m in relative.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            if ", ROOT)" not in lines[line - 1]:
                offenders.append(f"{path.relative_to(ROOT)}:{line}: {m.group(0)}")
    assert offenders == [], "\n".join(offenders)


def _prefixes(folder: str) -> set[str]:
    """The folder's name and its shortenings of three letters or more (``sem`` for ``semantics``)."""
    return {folder[:n] for n in range(3, len(folder) + 1)} | {folder.rstrip("s")}


def test_test_files_follow_the_naming_rule() -> None:
    """tests/README.md: ``tests/<package>/test_<subject>.py``, the subject without the folder's name as a
    prefix, every folder of tests a package; a helper is not named like a test file."""
    offenders = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        rel = path.relative_to(ROOT / "tests")
        if len(rel.parts) > 2:
            offenders.append(f"{rel}: deeper than tests/<package>/")
        elif len(rel.parts) == 2:
            folder, subject = rel.parts[0], path.stem.removeprefix("test_")
            head = subject.split("_", 1)[0]
            if "_" in subject and head in _prefixes(folder):
                offenders.append(f"{rel}: the subject repeats the folder's name ({head}_)")
            if not (path.parent / "__init__.py").is_file():
                offenders.append(f"{rel}: tests/{folder}/ has no __init__.py")
    assert offenders == [], "\n".join(offenders)


def test_every_test_folder_is_a_folder_of_kop() -> None:
    """Each folder of tests is named after a top-level package of kop (or a kind of test: fuzz, draw)."""
    packages = {p.name for p in (ROOT / "kop").iterdir() if (p / "__init__.py").is_file()}
    kinds = {"fuzz", "draw"}
    folders = {p.name for p in (ROOT / "tests").iterdir() if p.is_dir() and any(p.glob("test_*.py"))}
    assert folders <= packages | kinds, sorted(folders - packages - kinds)


def test_every_docs_test_goes_through_the_harness() -> None:
    """tests/doc_examples.py is the one place that cuts code blocks out of a page and runs them as doctests."""
    own = re.compile(r"DocTestRunner\(|get_doctest\(|```(python|sh|json)\\n\(|startswith\(\"\$ \"\)")
    offenders = [f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
                 for path in sorted((ROOT / "tests").rglob("*.py")) if path.name != "doc_examples.py"
                 for text in [path.read_text(encoding="utf-8")] for m in own.finditer(text)]
    assert offenders == [], "\n".join(offenders)


def test_no_test_opens_a_repository_folder_by_a_relative_path() -> None:
    """``open("docs/...")`` or ``Path("grammar/...")`` depends on the folder pytest runs in: a test builds such
    paths from ``ROOT`` (or reads a guide through ``tests/doc_examples.page``)."""
    relative = re.compile(r"""(?:open|Path)\(\s*["'](?:theories|docs|grammar|benchmarks|kop|tests)/""")
    offenders = [f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
                 for path in sorted((ROOT / "tests").rglob("*.py")) if path.name != Path(__file__).name
                 for text in [path.read_text(encoding="utf-8")] for m in relative.finditer(text)]
    assert offenders == [], "\n".join(offenders)
