"""Marks for tests that need one of kop's optional extras (they skip where the extra is not installed).

CI runs the core suite in a second environment installed without extras (``.ci/run``), so every test
that needs matplotlib, OpenSpiel, pygambit, Dask or pyarrow says so.
"""

from __future__ import annotations

import importlib.util

import pytest


def installed(module: str) -> bool:
    """Whether *module* can be imported here."""
    return importlib.util.find_spec(module) is not None


HAS_MATPLOTLIB = installed("matplotlib")

#: a test that draws (the ``draw`` extra)
needs_draw = pytest.mark.skipif(not HAS_MATPLOTLIB, reason="needs matplotlib (the draw extra)")
