"""The examples in the docstrings of the reasoning modules run as shown."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["announcements", "bdd", "bddengine", "core", "countermodel", "generators", "knowledge",
           "limits", "prover", "reference", "satengine", "verdict"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"kop.reasoning.{name}")
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    assert result.attempted > 0
