"""Shared pytest configuration.

Makes ``tests/`` importable (for ``formula_strategies`` and ``profiles``),
loads the Hypothesis profile named by ``KOP_HYPOTHESIS_PROFILE`` (``quick``,
the default, ``thorough`` or ``ci``; see ``tests/profiles.py``), and lets the
``python -m kop`` child processes of the CLI tests keep their bytecode: when
``PYTHONDONTWRITEBYTECODE`` is set, each child would otherwise compile kop from
source again (a third of a small command's time), so the children get a
bytecode cache of their own under the temporary directory instead.
"""

import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))

import profiles  # noqa: E402

if os.environ.get("PYTHONDONTWRITEBYTECODE") and not os.environ.get("PYTHONPYCACHEPREFIX"):
    os.environ.pop("PYTHONDONTWRITEBYTECODE")
    os.environ["PYTHONPYCACHEPREFIX"] = os.path.join(tempfile.gettempdir(), f"kop-tests-pycache-{os.getuid()}")


def pytest_configure(config):
    marks = (config.getoption("markexpr", "") or "").replace(" ", "")
    profiles.register(thorough="slow" in marks.replace("notslow", ""))   # -m slow: the slow tests at full strength


def pytest_report_header(config):
    return f"hypothesis profile: {profiles.PROFILE} (KOP_HYPOTHESIS_PROFILE: quick, thorough or ci)"
