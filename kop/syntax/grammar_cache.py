"""kop's Lark grammars (``grammar/*.lark``), analysed once and then loaded from Lark's cache.

Building an LALR parser from a grammar takes Lark about 0.1-0.3 s of CPU, more
than the rest of a small ``kop`` command.  :func:`lalr_parser` asks Lark to keep
the analysed parser in a file (Lark's ``cache=`` option) in kop's cache folder,
and later runs load it from there (a few milliseconds).  The file's name carries
a SHA-256 of the grammar text, the options, and the Lark and Python versions, so
each grammar and set of options has a file of its own and an edited grammar or
an upgraded Lark never meets a stale one (Lark checks the same key inside the
file, and builds the parser again when a file is damaged).  When the folder
cannot be made or written, the parser is built in memory, without a cache.

The folder is ``$KOP_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/kop``, else
``~/.cache/kop``; ``KOP_CACHE_DIR=""`` turns the cache off.

    >>> p = lalr_parser("s5n")
    >>> p.parse("K_a p").data == "start"
    True
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from lark import Lark

__all__ = ["grammar_dir", "cache_dir", "lalr_parser"]

#: options given again at each load rather than saved (callbacks): not part of the file's name
_NOT_KEYED = ("transformer", "postlex", "lexer_callbacks", "edit_terminals", "_plugins")


def grammar_dir() -> Path:
    """The folder of kop's ``.lark`` grammars (``kop/grammar`` in the installed package).

    >>> (grammar_dir() / "s5n.lark").is_file()
    True
    """
    return Path(__file__).resolve().parent.parent / "grammar"


def cache_dir() -> Path | None:
    """The folder kop keeps analysed grammars in, or None when caching is turned off.

    >>> from unittest import mock
    >>> with mock.patch.dict("os.environ", {"KOP_CACHE_DIR": "/tmp/kop-example"}):
    ...     print(cache_dir())
    /tmp/kop-example
    >>> with mock.patch.dict("os.environ", {"KOP_CACHE_DIR": ""}):
    ...     print(cache_dir())
    None
    """
    explicit = os.environ.get("KOP_CACHE_DIR")
    if explicit is not None:
        return Path(explicit) if explicit else None
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "kop"


def _key(text: str, options: dict[str, Any]) -> str:
    import hashlib

    import lark

    keyed = sorted((k, repr(v)) for k, v in options.items() if k not in _NOT_KEYED)
    parts = [text, repr(keyed), lark.__version__, "%d.%d" % sys.version_info[:2]]
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:32]


def _writable(folder: Path) -> bool:
    """Whether *folder* exists (made if need be) and kop may write files in it."""
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError:
        return False
    return os.access(folder, os.W_OK | os.X_OK)


def lalr_parser(name: str, **options: Any) -> Lark:
    """The LALR(1) Lark parser of ``grammar/<name>.lark``, from Lark's cache in :func:`cache_dir`.

    Parameters
    ----------
    name : str
        The grammar's file name without ``.lark``: ``"s5n"``, ``"theory"``, ``"arith"``, ...
    **options
        Lark options (``lexer``, ``transformer``, ``propagate_positions``,
        ``maybe_placeholders``, ...); those that are not callbacks are part
        of the cache file's name.

    Returns
    -------
    lark.Lark
        A parser built with ``parser="lalr"``.

    Examples
    --------
    >>> str(lalr_parser("s5n", lexer="contextual").parse("p & q").children[0].data)
    'and_'
    """
    from lark import Lark

    text = (grammar_dir() / f"{name}.lark").read_text(encoding="utf-8")
    options = {"parser": "lalr", **options}
    folder = cache_dir()
    if folder is not None and _writable(folder):
        options["cache"] = str(folder / f"{name}-{_key(text, options)}.lark-cache")
    return Lark(text, **options)
