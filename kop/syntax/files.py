"""The one guarded reader for every file kop opens: regular files only, a size cap, opened once.

Every input file -- a formula's model, a game tree (``.json``, ``.efg``), a
theory and the files it names, an experiment's results file -- is read by
:func:`read_bytes` (or :func:`read_text`), which

* opens the path **once**, without blocking (``O_NONBLOCK``: a FIFO with no
  writer does not hang the open), then checks the descriptor it will read
  from with ``fstat`` -- never the path again, so nothing can be swapped in
  between the check and the read;
* refuses anything but a regular file (a folder, a FIFO, a socket, a
  character or block device such as ``/dev/zero``), naming the path and
  what it is;
* reads at most :func:`max_bytes` bytes (default :data:`DEFAULT_MAX_BYTES`,
  64 MiB; the command line's ``--max-bytes N`` raises it; in Python
  ``with kop.config.using(max_bytes=N):``, per thread and asyncio task), and refuses a
  larger file -- also one that, like files under ``/proc``, reports size 0
  and then turns out longer;
* with ``follow=False`` refuses a symbolic link as the last component
  (``O_NOFOLLOW``).

Errors are :class:`~kop.errors.KopError` naming the file; they never
quote the file's content.

>>> import tempfile, os
>>> d = tempfile.mkdtemp()
>>> p = os.path.join(d, "t.txt")
>>> _ = open(p, "w").write("hello")
>>> read_text(p)
'hello'
>>> read_text(d)
Traceback (most recent call last):
...
kop.errors.KopError: cannot read file ...: it is a directory, not a regular file
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from kop import config
from kop.errors import KopError

__all__ = ["read_bytes", "read_text", "open_regular", "file_kind", "max_bytes", "set_max_bytes",
           "DEFAULT_MAX_BYTES", "read_fd", "decode_utf8"]

#: The largest file kop reads unless told otherwise (``--max-bytes``): 64 MiB (:data:`kop.config.DEFAULT_MAX_BYTES`).
DEFAULT_MAX_BYTES = config.DEFAULT_MAX_BYTES


def max_bytes() -> int:
    """The size cap in force here (bytes): ``kop.config.current().max_bytes``.

    >>> max_bytes() >= 1
    True
    """
    return config.current().max_bytes


def set_max_bytes(n: int | None) -> int:
    """Set the size cap to *n* bytes (None: the default); return the previous cap.

    The cap is set for the innermost :func:`kop.config.using` block of this
    thread or task, or outside every block for the process default; new code
    says ``with kop.config.using(max_bytes=n):`` instead.

    >>> from kop import config
    >>> with config.using():
    ...     old = set_max_bytes(10)
    ...     max_bytes()
    10
    >>> max_bytes() == old
    True
    """
    try:
        cap = config.check_max_bytes(n)
    except ValueError:
        raise KopError(f"max_bytes must be a positive whole number of bytes, not {n!r}") from None
    return config.set_innermost(max_bytes=cap).max_bytes


def file_kind(mode: int) -> str:
    """What a file of *mode* is, in words ("a directory", "a FIFO", ...).

    >>> file_kind(stat.S_IFIFO)
    'a FIFO (named pipe)'
    """
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return "not a regular file" if not stat.S_ISREG(mode) else "a regular file"


def _shown(path: str | os.PathLike[str], shown: str | None) -> str:
    return repr(str(path) if shown is None else shown)


def open_regular(path: str | os.PathLike[str], *, what: str = "file", shown: str | None = None,
                 follow: bool = True, limit: int | None = None) -> int:
    """Open *path* once for reading and return the descriptor, checked to be a regular file within the cap.

    The caller closes the descriptor.  See the module docstring.

    >>> fd = open_regular(__file__)
    >>> os.close(fd)
    """
    name = _shown(path, shown)
    if "\x00" in os.fspath(path):
        raise KopError(f"the {what} path contains a NUL character")
    cap = config.current().max_bytes if limit is None else limit
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise KopError(f"cannot read {what} {name}: no such file") from None
    except OSError as exc:
        if not follow and exc.errno == errno.ELOOP:
            raise KopError(f"cannot read {what} {name}: it is a symbolic link") from None
        raise KopError(f"cannot read {what} {name}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise KopError(f"cannot read {what} {name}: it is {file_kind(info.st_mode)}, not a regular file")
        if info.st_size > cap:
            raise KopError(f"cannot read {what} {name}: it has {info.st_size:,} bytes, more than the limit "
                           f"of {cap:,} (raise it with --max-bytes)")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_bytes(path: str | os.PathLike[str], *, what: str = "file", shown: str | None = None,
               follow: bool = True, limit: int | None = None) -> bytes:
    """The bytes of the regular file *path*, at most the size cap (see the module docstring).

    >>> read_bytes("/dev/null")
    Traceback (most recent call last):
    ...
    kop.errors.KopError: cannot read file '/dev/null': it is a character device, not a regular file
    """
    cap = config.current().max_bytes if limit is None else limit
    fd = open_regular(path, what=what, shown=shown, follow=follow, limit=cap)
    return read_fd(fd, what=what, shown=_shown(path, shown), limit=cap)


def read_fd(fd: int, *, what: str, shown: str, limit: int) -> bytes:
    """Read the open descriptor *fd* (closing it) up to *limit* bytes; a longer file is refused."""
    chunks: list[bytes] = []
    size = 0
    try:
        while size <= limit:
            chunk = os.read(fd, min(limit + 1 - size, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise KopError(f"cannot read {what} {shown}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if size > limit:
        raise KopError(f"cannot read {what} {shown}: it is longer than the limit of {limit:,} bytes "
                       "(raise it with --max-bytes)")
    return b"".join(chunks)


def read_text(path: str | os.PathLike[str], *, what: str = "file", shown: str | None = None,
              follow: bool = True, limit: int | None = None) -> str:
    """The UTF-8 text of the regular file *path*; other encodings are refused by line and column, unquoted.

    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "bad.txt"
    >>> _ = p.write_bytes(b"ok\\nsecret \\xff")
    >>> read_text(p, shown="bad.txt")
    Traceback (most recent call last):
    ...
    kop.errors.KopError: cannot read file 'bad.txt': not UTF-8 text (byte 0xff at line 2, column 8)
    """
    data = read_bytes(path, what=what, shown=shown, follow=follow, limit=limit)
    return decode_utf8(data, what=what, shown=_shown(path, shown))


def decode_utf8(data: bytes, *, what: str, shown: str) -> str:
    """*data* as UTF-8, or an error giving the bad byte's line and column (never the text around it)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[:exc.start]
        line = before.count(b"\n") + 1
        col = len(before) - (before.rfind(b"\n") + 1) + 1
        raise KopError(f"cannot read {what} {shown}: not UTF-8 text (byte 0x{data[exc.start]:02x} at line "
                       f"{line}, column {col})") from None
