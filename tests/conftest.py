"""Shared pytest configuration.

Makes ``tests/`` importable (for ``formula_strategies`` and ``profiles``) and
loads the Hypothesis profile named by ``KOP_HYPOTHESIS_PROFILE`` (``quick``,
the default, or ``thorough``; see ``tests/profiles.py``).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

import profiles  # noqa: E402

profiles.register()


def pytest_report_header(config):
    return f"hypothesis profile: {profiles.PROFILE} (KOP_HYPOTHESIS_PROFILE; quick or thorough)"
