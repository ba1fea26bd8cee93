"""Sphinx configuration of kop's documentation site.

Build it from the repository's root with the ``docs`` extra installed::

    python -m sphinx -W --keep-going -b html docs docs/_build/html

The guides are the Markdown pages of ``docs/`` (read by MyST); the API reference has one page per
public name of ``kop`` (``kop._EXPORTS``), generated from the docstrings (autosummary, autodoc and
napoleon for the numpydoc sections). ``api.rst`` is written when the build starts (``setup``
below) and ``generated/`` by autosummary; neither is kept in git.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path
from typing import Any

from pygments.lexers.shell import BashLexer, BashSessionLexer

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))

import kop  # noqa: E402

project = "kop"
author = "The kop developers"
copyright = "the kop developers"
version = release = kop.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "myst_parser",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "generated/.*", ".ipynb_checkpoints", "**/.ipynb_checkpoints"]
templates_path = ["_templates"]

html_theme = "alabaster"
html_title = f"kop {release}"
html_static_path: list[str] = []

# MyST: the guides are CommonMark/GFM pages with tables and heading anchors (`page.md#a-heading`)
myst_heading_anchors = 3

# autodoc/autosummary/napoleon: numpydoc docstrings, one page per public name
autosummary_generate = True
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_preserve_defaults = True
napoleon_numpy_docstring = True
napoleon_google_docstring = False
napoleon_use_rtype = False

# ---------------------------------------------------------------------------------------------
# The API reference: every public name (kop._EXPORTS), grouped by layer, one page each.

LAYERS = {
    "errors": "Errors: every exception kop raises",
    "config": "Limits and caches per thread or task",
    "syntax": "Formulas: syntax, parsing, printing",
    "bdd": "Binary decision diagrams",
    "semantics": "Kripke models: model checking, announcements, action models, bisimulation",
    "reasoning": "The prover: satisfiability, validity, entailment, knowledge levels",
    "games": "Game trees, implicit games and their strategies",
    "stories": "Theory-of-mind stories",
    "puzzles": "The classic puzzles",
    "io": "Readers and writers: every file format in and out",
    "drawing": "Pictures of models and trees",
    "worlds": "Possible-worlds games",
    "selection": "Decided nodes, the strategy selector, partial knowledge of evaluations",
    "agents": "Agents and matches",
    "theory": "Theory files",
    "experiments": "The experiment runner",
    "serve": "The playground",
    "cli": "The command line",
}


def _layer_title(layer: str) -> str:
    return f"{LAYERS[layer]} (``kop.{layer}``)" if layer in LAYERS else f"``kop.{layer}``"


def _page_name(name: str) -> str:
    """The generated page of a public name: ``kop.NAME``, and ``kop.NAME-function`` for a lower-case
    name that differs from another only by case (``strategy``/``Strategy``), so that the pages
    do not clash on case-insensitive file systems."""
    clash = any(other != name and other.lower() == name.lower() for other in kop._EXPORTS)
    return f"kop.{name}-function" if clash and name[:1].islower() else f"kop.{name}"


autosummary_filename_map = {f"kop.{name}": _page_name(name) for name in kop._EXPORTS
                            if _page_name(name) != f"kop.{name}"}


def api_reference() -> str:
    """The text of ``api.rst``: every name of ``kop._EXPORTS`` under its layer."""
    groups: dict[str, list[str]] = {}
    for name, module in kop._EXPORTS.items():
        groups.setdefault(module.split(".")[1], []).append(name)
    order = [g for g in LAYERS if g in groups] + sorted(g for g in groups if g not in LAYERS)
    lines = ["API reference", "=============", "",
             "Every public name of ``kop`` (``import kop``; the API is flat: ``kop.parse``,",
             "``kop.KripkeModel``, ...), grouped by the layer that defines it, in the order data flows",
             "(the floors of the house, from the bottom up: docs/architecture.md).",
             "Each page is generated from the name's docstring.", "",
             ".. currentmodule:: kop", ""]
    for layer in order:
        title = _layer_title(layer)
        lines += [title, "-" * len(title), "", ".. autosummary::", "   :toctree: generated", ""]
        lines += [f"   {name}" for name in groups[layer]]
        lines.append("")
    return "\n".join(lines)


def _write_if_changed(path: Path, text: str) -> None:
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def _write_api_reference(app: Any, config: Any) -> None:
    _write_if_changed(Path(app.srcdir) / "api.rst", api_reference())

# ---------------------------------------------------------------------------------------------
# Links from the guides (and the README, included by index.md) to files of the repository that
# are not pages of the site (`../theories/figure2.kop`, `../grammar/s5n.lark`) point to the
# repository on GitHub.

with open(ROOT / "pyproject.toml", "rb") as _f:
    REPOSITORY = tomllib.load(_f)["project"]["urls"]["Source"].rstrip("/")

_LINK = re.compile(r"\]\((?P<target>[^)\s#]+)(?P<anchor>#[^)\s]*)?\)")


def repository_links(text: str, base: Path) -> str:
    """Rewrite the Markdown links of ``text`` (a file in ``base``) that name a repository file or
    folder outside ``docs/`` as links to that file on GitHub."""

    def sub(m: re.Match[str]) -> str:
        target = m.group("target")
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("/"):
            return m.group(0)
        path = (base / target).resolve()
        if not path.is_relative_to(ROOT) or path.is_relative_to(DOCS) or not path.exists():
            return m.group(0)
        rel = path.relative_to(ROOT).as_posix()
        kind = "tree" if path.is_dir() else "blob"
        return f"]({REPOSITORY}/{kind}/main/{rel}{m.group('anchor') or ''})"

    return _LINK.sub(sub, text)


def _source_read(app: Any, docname: str, source: list[str]) -> None:
    source[0] = repository_links(source[0], (DOCS / docname).parent)


def _include_read(app: Any, relative_path: Path, parent_docname: str, content: list[str]) -> None:
    content[0] = repository_links(content[0], (DOCS / relative_path).parent)


# ---------------------------------------------------------------------------------------------
# ``sh`` blocks are either commands (highlighted as a script) or transcripts: ``$ kop ...`` lines
# followed by what kop prints, whose text is output, not shell code (an apostrophe in a message
# must not make Pygments fail).


class ShellLexer(BashSessionLexer):
    """A transcript when a line starts with the prompt ``$ ``; a shell script otherwise."""

    name = "Shell script or transcript"
    aliases = ["sh"]

    def get_tokens_unprocessed(self, text: str) -> Any:
        if any(line.startswith("$ ") for line in text.splitlines()):
            return super().get_tokens_unprocessed(text)
        return BashLexer(**self.options).get_tokens_unprocessed(text)


def setup(app: Any) -> None:
    app.add_lexer("sh", ShellLexer)
    # before Sphinx looks for the source files and autosummary generates the pages api.rst lists
    app.connect("config-inited", _write_api_reference)
    app.connect("source-read", _source_read)
    app.connect("include-read", _include_read)
