"""Importing the ``dd`` BDD package without networkx.

``dd`` (``dd.cudd``, ``dd.autoref``) imports networkx at start-up, only for
``dd.bdd.to_nx``, which kop never calls; networkx costs about three times
the rest of ``dd``'s import.  :func:`import_dd` imports a ``dd`` module with
networkx kept out (``dd`` treats networkx as optional) and then points
``dd``'s own networkx look-up at a lazy import, so ``to_nx`` still works.
When networkx is already imported, or ``dd`` is, nothing changes.

    >>> bdd = import_dd("autoref").BDD()
    >>> bdd.declare("x")
    >>> bdd.var("x") | ~bdd.var("x") == bdd.true
    True
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from types import ModuleType
from typing import cast

__all__ = ["import_dd"]


def _lazy_networkx(original: Callable[[str], ModuleType]) -> Callable[[str], ModuleType]:
    def import_module(module_name: str) -> ModuleType:
        if module_name == "networkx":
            import networkx

            return cast(ModuleType, networkx)
        return original(module_name)

    import_module.__doc__ = original.__doc__
    return import_module


def import_dd(name: str) -> ModuleType:
    """``dd.<name>`` (e.g. ``"cudd"``, ``"autoref"``), imported without networkx; ImportError when absent.

    >>> import_dd("autoref").__name__
    'dd.autoref'
    """
    full = f"dd.{name}"
    done: ModuleType | None = sys.modules.get(full)
    if done is not None:
        return done
    if "networkx" in sys.modules or "dd._utils" in sys.modules:
        return importlib.import_module(full)
    sys.modules["networkx"] = None  # type: ignore[assignment]  # dd's optional import fails quietly
    try:
        mod = importlib.import_module(full)
    finally:
        if "networkx" in sys.modules and sys.modules["networkx"] is None:
            del sys.modules["networkx"]
    utils = sys.modules.get("dd._utils")
    if utils is not None and getattr(utils, "_nx", False) is None:
        utils.import_module = _lazy_networkx(utils.import_module)  # type: ignore[attr-defined]
    return mod
