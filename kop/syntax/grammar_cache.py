"""kop's Lark grammars (``grammar/*.lark``), analysed once and then loaded from a cache.

Building an LALR parser from a grammar takes Lark about 0.1-0.3 s of CPU, more
than the rest of a small ``kop`` command.  :func:`lalr_parser` builds it once,
saves Lark's analysed tables in kop's cache folder and loads them from there on
later runs (a few milliseconds).  The cache file's name carries a SHA-256 of the
grammar text, the options, and the Lark and Python versions, so an edited
grammar or an upgraded Lark never meets a stale table.  The file is written to
a temporary name and renamed, so concurrent runs never see half a file; a
cache that cannot be read or written is ignored (the parser is then built in
memory).

The folder is ``$KOP_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/kop``, else
``~/.cache/kop``; ``KOP_CACHE_DIR=""`` turns the cache off.

:func:`lalr_tables` goes one step further for the formula grammar: it keeps the
parse tables as plain data (JSON) that :mod:`kop.syntax.lalr` runs,
so that a formula is parsed without importing Lark at all (importing Lark
costs about 50 ms of CPU, a third of a small ``kop`` command).  The file holds
the grammar text it was made from and is used only if that text is the
current one.

    >>> p = lalr_parser("s5n")
    >>> p.parse("K_a p").data == "start"
    True
    >>> sorted(lalr_tables("s5n"))[:3]
    ['end', 'format', 'grammar']
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from lark import Lark

__all__ = ["grammar_dir", "cache_dir", "lalr_parser", "lalr_tables"]

#: options given again at each load (callbacks), as in Lark's own cache
_NOT_SAVED = ("transformer", "postlex", "lexer_callbacks", "use_bytes", "debug", "g_regex_flags", "regex",
              "propagate_positions", "tree_class", "_plugins")


def grammar_dir() -> Path:
    """The folder of kop's ``.lark`` grammars (``kop/grammar`` in the installed package)."""
    return Path(__file__).resolve().parent.parent / "grammar"


def cache_dir() -> Path | None:
    """The folder kop keeps analysed grammars in, or None when caching is turned off."""
    explicit = os.environ.get("KOP_CACHE_DIR")
    if explicit is not None:
        return Path(explicit) if explicit else None
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "kop"


def _key(text: str, options: dict[str, Any]) -> str:
    import hashlib

    import lark

    parts = [text, repr(sorted((k, repr(v)) for k, v in options.items())), lark.__version__,
             "%d.%d" % sys.version_info[:2]]
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:32]


def lalr_parser(name: str, *, transformer: Any = None, propagate_positions: bool = False,
                **options: Any) -> Lark:
    """The LALR(1) Lark parser of ``grammar/<name>.lark``, from the cache when it is current.

    Parameters
    ----------
    name : str
        The grammar's file name without ``.lark``: ``"s5n"`` or ``"theory"``.
    transformer : lark.Transformer, optional
        Callbacks run at each reduction (given to Lark, not cached).
    propagate_positions : bool
        Whether trees carry their line and column (``meta``).
    **options
        Other Lark options (``lexer``, ``maybe_placeholders``, ...); they are
        part of the cache key.
    """
    from lark import Lark

    text = (grammar_dir() / f"{name}.lark").read_text(encoding="utf-8")
    options = {"parser": "lalr", **options}
    folder = cache_dir()
    path = None if folder is None else folder / f"{name}-{_key(text, options)}.lark-cache"
    if path is not None:
        try:
            with open(path, "rb") as f:
                loaded: Lark = Lark.__new__(Lark)._load(f, transformer=transformer,
                                                       propagate_positions=propagate_positions)
                return loaded
        except Exception:  # missing, unreadable or from another Lark: build it again
            pass
    parser = Lark(text, transformer=transformer, propagate_positions=propagate_positions, **options)
    if path is not None:
        _save(parser, path)
    return parser


def _save(parser: Lark, path: Path) -> None:
    """Write *parser*'s tables to *path* atomically; give up quietly if the folder is not writable."""
    import io

    buffer = io.BytesIO()
    parser.save(buffer, _NOT_SAVED)
    _write_atomically(path, buffer.getvalue())


#: the Lark options of grammars run by :mod:`kop.syntax.lalr`
_TABLE_OPTIONS: dict[str, Any] = {"lexer": "contextual", "maybe_placeholders": False}


def lalr_tables(name: str) -> dict[str, Any]:
    """The LALR tables of ``grammar/<name>.lark`` for :class:`kop.syntax.lalr.Parser`, from the cache when current.

    Lark is imported only when the tables are not in the cache (the first run
    after installing or editing the grammar, or with the cache turned off).
    The grammar must suit :func:`kop.syntax.lalr.tables_from_lark`.
    """
    import json
    import zlib

    from kop.syntax.lalr import FORMAT

    text = (grammar_dir() / f"{name}.lark").read_text(encoding="utf-8")
    folder = cache_dir()
    path = None if folder is None else folder / f"{name}-{FORMAT}-{zlib.crc32(text.encode('utf-8')):08x}.tables.json"
    if path is not None:
        try:
            with open(path, encoding="utf-8") as f:
                saved = json.load(f)
            if isinstance(saved, dict) and saved.get("grammar") == text and saved.get("format") == FORMAT:
                return saved
        except Exception:  # missing or unreadable: made again below
            pass
    from kop.syntax.lalr import tables_from_lark

    tables = tables_from_lark(lalr_parser(name, **_TABLE_OPTIONS))
    tables["grammar"] = text
    if path is not None:
        _write_atomically(path, json.dumps(tables, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
    return tables


def _write_atomically(path: Path, data: bytes) -> None:
    """Write *data* to *path* through a temporary file; give up quietly if the folder is not writable."""
    import tempfile

    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass
