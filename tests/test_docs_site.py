"""The docs site (docs/conf.py, Sphinx): every public name of kop has a page generated from its
docstring, every guide is in the site, and links to repository files point to the repository.

The whole site is built with warnings as errors by ``.ci/run``; the test here builds only the API
reference (``api.rst`` as the root document), which is what proves every name has its page.
"""

from __future__ import annotations

import importlib.util
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

import kop

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
_spec = importlib.util.spec_from_file_location("kop_docs_conf", DOCS / "conf.py")
assert _spec is not None and _spec.loader is not None
conf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(conf)


def test_the_api_reference_lists_every_public_name_once() -> None:
    listed = [line.strip() for line in conf.api_reference().splitlines() if line.startswith("   ")
              and not line.strip().startswith(":")]
    assert sorted(listed) == sorted(kop._EXPORTS)
    assert len(set(listed)) == len(listed) == len(kop._EXPORTS)


def test_pages_do_not_clash_on_a_case_insensitive_file_system() -> None:
    pages = {conf._page_name(name).lower() for name in kop._EXPORTS}
    assert len(pages) == len(kop._EXPORTS)
    assert conf._page_name("strategy") == "kop.strategy-function" and conf._page_name("Strategy") == "kop.Strategy"


def test_every_guide_is_in_the_site() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    toctree = {line.strip() for line in index.split("```{toctree}", 1)[1].splitlines()}
    guides = {p.stem for p in DOCS.glob("*.md") if p.stem != "index"}
    assert guides <= toctree, f"guides missing from docs/index.md's toctree: {sorted(guides - toctree)}"


def test_links_to_repository_files_point_to_the_repository() -> None:
    text = "[a](../theories/figure2.kop#top) [b](../grammar/) [c](syntax.md) [d](../nothing.txt) [e](https://x.org/y)"
    out = conf.repository_links(text, DOCS)
    assert f"[a]({conf.REPOSITORY}/blob/main/theories/figure2.kop#top)" in out
    assert f"[b]({conf.REPOSITORY}/tree/main/grammar)" in out
    assert "[c](syntax.md)" in out and "[d](../nothing.txt)" in out and "[e](https://x.org/y)" in out
    assert conf.repository_links("[r](theories/cheryl.kop)", ROOT) == \
        f"[r]({conf.REPOSITORY}/blob/main/theories/cheryl.kop)"


def test_ci_builds_the_site_with_warnings_as_errors() -> None:
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert any("--group docs" in line for line in lines[:-1])
    assert any("-m sphinx -W --keep-going" in line and " docs docs/_build/html" in line for line in lines[:-1])
    assert lines[-1] in readme and lines[-1].endswith("-m pytest -q")
    assert "-m sphinx -W --keep-going -b html docs docs/_build/html" in readme


def test_every_public_name_has_a_generated_page(tmp_path: Path) -> None:
    pytest.importorskip("sphinx")
    pytest.importorskip("myst_parser")
    doctrees = tmp_path / "doctrees"
    # read the API reference only (the dummy builder writes no pages: reading is what proves them)
    cmd = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "dummy",
           "-D", "root_doc=api", "-D", "exclude_patterns=_build,*.md,**/*.md",
           "-d", str(doctrees), str(DOCS), str(tmp_path / "out")]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=900,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.returncode == 0, r.stderr
    with open(doctrees / "environment.pickle", "rb") as f:
        env = pickle.load(f)
    objects = env.domaindata["py"]["objects"]
    missing = [name for name in kop._EXPORTS
               if f"kop.{name}" not in objects or objects[f"kop.{name}"].docname != f"generated/{conf._page_name(name)}"]
    assert not missing, f"public names without a generated page: {missing}"
    # and each page shows the object's docstring
    from sphinx import addnodes

    empty = []
    for name in kop._EXPORTS:
        doctree = env.get_doctree(f"generated/{conf._page_name(name)}")
        contents = [node for node in doctree.findall(addnodes.desc_content) if node.astext().strip()]
        if not contents:
            empty.append(name)
    assert not empty, f"pages without the docstring: {empty}"
    parse_page = env.get_doctree("generated/kop.parse").astext()
    assert "Parse one formula." in parse_page, parse_page[:300]
