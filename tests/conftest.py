"""Shared pytest configuration: makes ``tests/`` importable (for ``formula_strategies``)."""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
