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
