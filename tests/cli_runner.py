"""Running ``kop`` in this process through its console entry point (:func:`kop.cli.app.main`).

Faster than a subprocess by the interpreter's start-up; the output is captured and ``SystemExit``
caught.  :func:`clean` also asserts what every command promises: exit status 0 (answer), 1 (check
failed), 2 (bad input) or 3 (unknown within the limit), never an internal error or a traceback.
"""

from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass
from typing import Any

from kop.cli.app import main

EXIT_CODES = {0, 1, 2, 3}


@dataclass
class Ran:
    argv: list[str]
    code: int
    out: str
    err: str

    def __str__(self) -> str:
        return f"kop {' '.join(self.argv)} -> exit {self.code}\nstdout: {self.out[-1500:]}\nstderr: {self.err[-1500:]}"


def run_cli(argv: list[str]) -> Ran:
    """Run ``kop ARGV`` through the console entry point, capturing its output and exit status."""
    out, err = io.StringIO(), io.StringIO()
    code: Any = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(argv)
        except SystemExit as exc:
            code = exc.code
    code = 0 if code is None else code
    # sys.exit("text") would print the text and exit 1: flagged as -1, which no command may do
    return Ran(argv, code if isinstance(code, int) else -1, out.getvalue(), err.getvalue())


def clean(argv: list[str]) -> Ran:
    """Run ``kop ARGV`` and assert that it ended cleanly: a known exit status, no internal error."""
    r = run_cli(argv)
    assert r.code in EXIT_CODES, str(r)
    assert "internal error" not in r.err, str(r)
    assert "Traceback" not in r.err and "Traceback" not in r.out, str(r)
    return r
