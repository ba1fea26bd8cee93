"""Reading the files a theory names, confined to the theory's own folder.

A theory file is data: it may name a game tree, a Kripke model or another
theory to include, and kop reads them only

* inside the folder of the theory that names them, after resolving symbolic
  links (unless the caller allows reads outside it);
* when they are regular files (no devices, fifos or folders);
* up to the size cap of :mod:`kop.syntax.files` (``--max-bytes``);
* opened once, through the guarded reader of :mod:`kop.syntax.files`; the
  confinement is checked again on the file actually opened (its descriptor),
  so a symbolic link swapped in after the check cannot lead outside;
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
from pathlib import Path

from kop.syntax import files as _files
from kop.errors import KopError

__all__ = ["read_confined", "read_confined_bytes", "resolve_confined", "read_regular", "read_bytes", "MAX_BYTES"]

#: The default size cap (bytes); the cap in force is :func:`kop.syntax.files.max_bytes`.
MAX_BYTES = _files.DEFAULT_MAX_BYTES


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
    _check_inside(path, root, text, what, allow_outside)
    return path


def _check_inside(path: Path, root: Path, text: str, what: str, allow_outside: bool) -> None:
    if not allow_outside and path != root and root not in path.parents:
        raise KopError(f"{what} {text!r} is outside the theory's folder {root}; "
                       "pass --allow-outside (allow_outside=True) to read it")


def _opened_path(fd: int, expected: Path) -> Path:
    """The real path of the file open on *fd* (Linux: /proc/self/fd; elsewhere *expected*, checked by inode)."""
    link = f"/proc/self/fd/{fd}"
    try:
        return Path(os.readlink(link))
    except OSError:
        info, now = os.fstat(fd), os.stat(expected)
        if (info.st_dev, info.st_ino) != (now.st_dev, now.st_ino):
            raise KopError(f"{expected} changed while it was being opened") from None
        return expected


def read_confined_bytes(name: str | Path, base: Path, *, allow_outside: bool = False,
                        what: str = "file") -> tuple[Path, bytes]:
    """The real path and the bytes of a regular file inside *base*, opened once (see the module docstring)."""
    path = resolve_confined(name, base, allow_outside=allow_outside, what=what)
    fd = _files.open_regular(path, what=what, shown=str(name), follow=False)
    try:
        real = _opened_path(fd, path)
        _check_inside(real, Path(base).resolve(), str(name), what, allow_outside)
    except BaseException:
        os.close(fd)
        raise
    return real, _files.read_fd(fd, what=what, shown=repr(str(name)), limit=_files.max_bytes())


def read_confined(name: str | Path, base: Path, *, allow_outside: bool = False, what: str = "file",
                  max_bytes: int | None = None) -> str:
    """The UTF-8 text of a regular file inside *base* (see the module docstring)."""
    _, data = read_confined_bytes(name, base, allow_outside=allow_outside, what=what)
    return _files.decode_utf8(data, what=what, shown=repr(str(name)))


def read_regular(path: Path, *, what: str = "file", max_bytes: int | None = None, shown: str | None = None) -> str:
    """The UTF-8 text of *path*, refusing non-regular files, files over the cap and other encodings."""
    return _files.read_text(path, what=what, shown=shown, limit=max_bytes)


def read_bytes(path: Path, *, what: str = "file", max_bytes: int | None = None, shown: str | None = None) -> bytes:
    """The bytes of the regular file *path* (at most the cap; devices, fifos and folders refused)."""
    return _files.read_bytes(path, what=what, shown=shown, limit=max_bytes)
