"""How pytest runs kop's docstring examples (``pytest --doctest-modules``).

pytest finds this file next to the modules it collects, so the same rules hold
in a checkout (``python -m pytest -q``, whose ``testpaths`` include ``kop/``)
and for an installed copy run from anywhere (``pytest --doctest-modules --pyargs kop``):

- every example compares output with ``NORMALIZE_WHITESPACE`` and ``ELLIPSIS``
  (an example's own ``# doctest: -ELLIPSIS`` still wins), whatever the
  ``doctest_optionflags`` of the configuration pytest found;
- a module whose examples need an optional extra names the import packages in
  ``__doctest_requires__`` (e.g. ``("pyspiel",)``); without them, its examples
  are skipped with the missing package as the reason, like ``pytest.importorskip``.
  Every kop module imports without its extras (tests/test_doctests.py checks it),
  so only the examples need the rule.
"""

from __future__ import annotations

import doctest
import importlib.util

import pytest

#: the option flags every example runs with unless it says otherwise
DOCTEST_FLAGS = (doctest.NORMALIZE_WHITESPACE, doctest.ELLIPSIS)


def missing_requirements(requires: object) -> list[str]:
    """The packages of ``__doctest_requires__`` that cannot be imported here.

    Parameters
    ----------
    requires : iterable of str
        Top-level import names (``"pyspiel"``, ``"matplotlib"``).

    Returns
    -------
    list of str
        Those with no import spec, in the given order.

    Examples
    --------
    >>> missing_requirements(("doctest", "no_such_package_kop"))
    ['no_such_package_kop']
    """
    if isinstance(requires, str) or not isinstance(requires, (tuple, list, set, frozenset)):
        raise TypeError(f"__doctest_requires__ must be a tuple of package names, not {requires!r}")
    missing = []
    for name in requires:
        try:
            found = importlib.util.find_spec(name) is not None
        except ImportError:      # a parent package is missing, or an import hook refuses it
            found = False
        if not found:
            missing.append(name)
    return missing


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Give kop's doctests their option flags, and skip those whose extras are missing."""
    for item in items:
        test = getattr(item, "dtest", None)
        if not isinstance(test, doctest.DocTest) or not test.name.startswith("kop"):
            continue
        for example in test.examples:
            for flag in DOCTEST_FLAGS:
                example.options.setdefault(flag, True)
        missing = missing_requirements(test.globs.get("__doctest_requires__", ()))
        if missing:
            item.add_marker(pytest.mark.skip(reason=f"its examples need the optional package {', '.join(missing)}"))
