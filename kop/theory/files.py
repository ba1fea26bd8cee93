"""Reading the files a theory names, confined to the theory's own folder.

A theory file is data: it may name a game tree, a Kripke model or another
theory to include, and kop reads them only

* inside the folder of the theory that names them, after resolving symbolic
  links (unless the caller allows reads outside it);
* when they are regular files (no devices, fifos or folders);
* up to :data:`MAX_BYTES` bytes;
* as UTF-8 text.

Errors never quote the content of a file that is not in the expected format.

>>> from pathlib import Path
>>> import tempfile
>>> d = Path(tempfile.mkdtemp())
>>> _ = (d / "t.kop").write_text("agents A, B\\n")
>>> read_confined(d / "t.kop", d, what="theory")
'agents A, B\\n'
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from kop.syntax.errors import KopError

__all__ = ["read_confined", "resolve_confined", "read_regular", "read_bytes", "MAX_BYTES"]

#: The largest file a theory reads (bytes).
MAX_BYTES = 64 * 1024 * 1024


def resolve_confined(name: str | Path, base: Path, *, allow_outside: bool = False, what: str = "file") -> Path:
    """The real path of *name* (relative to *base*), checked to lie inside *base* unless allowed."""
    text = str(name)
    if "\x00" in text:
        raise KopError(f"the {what} path contains a NUL character")
    root = Path(base).resolve()
    try:
        path = (root / text).resolve(strict=True)
    except FileNotFoundError:
        raise KopError(f"{what} {text!r} does not exist (looked in {root})") from None
    except (OSError, RuntimeError) as exc:
        raise KopError(f"cannot open {what} {text!r}: {getattr(exc, 'strerror', None) or exc}") from None
    if not allow_outside and path != root and root not in path.parents:
        raise KopError(f"{what} {text!r} is outside the theory's folder {root}; "
                       "pass --allow-outside (allow_outside=True) to read it")
    return path


def read_confined(name: str | Path, base: Path, *, allow_outside: bool = False, what: str = "file",
                  max_bytes: int = MAX_BYTES) -> str:
    """The UTF-8 text of a regular file inside *base* (see the module docstring)."""
    path = resolve_confined(name, base, allow_outside=allow_outside, what=what)
    return read_regular(path, what=what, max_bytes=max_bytes, shown=str(name))


def read_regular(path: Path, *, what: str = "file", max_bytes: int = MAX_BYTES, shown: str | None = None) -> str:
    """The UTF-8 text of *path*, refusing non-regular files, files over *max_bytes* and other encodings."""
    shown = str(path) if shown is None else shown
    data = read_bytes(path, what=what, max_bytes=max_bytes, shown=shown)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise KopError(f"{what} {shown!r} is not UTF-8 text (byte {exc.start})") from None


def read_bytes(path: Path, *, what: str = "file", max_bytes: int = MAX_BYTES, shown: str | None = None) -> bytes:
    """The bytes of the regular file *path* (at most *max_bytes*; devices, fifos and folders refused)."""
    shown = str(path) if shown is None else shown
    if "\x00" in str(path):
        raise KopError(f"the {what} path contains a NUL character")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise KopError(f"cannot read {what} {shown!r}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise KopError(f"{what} {shown!r} is not a regular file")
        if info.st_size > max_bytes:
            raise KopError(f"{what} {shown!r} is larger than {max_bytes} bytes")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(max_bytes + 1)
    except OSError as exc:
        raise KopError(f"cannot read {what} {shown!r}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        raise KopError(f"{what} {shown!r} is larger than {max_bytes} bytes")
    return data
