"""Every guide's ``>>>`` examples (fenced ```` ```python ```` blocks) run and print what the page shows.

Each page's blocks run as one doctest session from the repository's root (pages open
``theories/...``).  Blocks that need an optional extra use their own fence (``python openspiel``)
and are run by that extra's tests.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from doc_examples import python_blocks, run_python_blocks
from extras import installed

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted(p for p in (ROOT / "docs").glob("*.md") if re.search(r"```python\n>>>", p.read_text(encoding="utf-8")))


def test_the_guides_have_examples() -> None:
    assert {"selection.md", "models.md", "games.md", "syntax.md"} <= {p.name for p in PAGES}


#: what in a page's Python blocks needs which optional package
NEEDS = {"from_openspiel": "pyspiel", "pyspiel": "pyspiel", ".draw(": "matplotlib", "draw_model": "matplotlib",
         "pygambit": "pygambit", "distributed": "distributed"}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_guide_examples_run(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code = "".join(python_blocks(page.read_text(encoding="utf-8")))
    for word, package in NEEDS.items():
        if word in code and not installed(package):
            pytest.skip(f"docs/{page.name} uses {package} (an optional extra)")
    monkeypatch.chdir(ROOT)
    failed, tried = run_python_blocks(page.read_text(encoding="utf-8"), f"docs/{page.name}")
    assert tried > 0 and failed == 0, f"docs/{page.name}: {failed} of {tried} examples failed (doctest output above)"
