"""The examples in the docstrings of the selection modules run as shown."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["decide", "selector", "evaluations", "evaluation_model", "behaviours", "examples", "reference_decide", "missing"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"kop.selection.{name}")
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    if name != "behaviours":
        assert result.attempted > 0
