"""Every exception class of kop is defined in ``kop/errors.py`` and exported as ``kop.<Name>`` (issue 24);
the modules that defined them before keep the names importable."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import kop
import kop.errors

#: exceptions kop raises for its own control flow and catches itself: private, never seen by users
PRIVATE_PREFIX = "_"


def _kop_modules() -> list[str]:
    return [m.name for m in pkgutil.walk_packages(kop.__path__, "kop.") if not m.name.endswith("__main__")]


def _defined_exceptions() -> dict[str, type[BaseException]]:
    """Every public exception class defined (not just imported) in a module of kop: 'module.Name' -> class."""
    found: dict[str, type[BaseException]] = {}
    for name in _kop_modules():
        try:
            module = importlib.import_module(name)
        except ImportError:  # an optional extra that is not installed: its modules raise nothing here
            continue
        for attr, value in vars(module).items():
            if inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == name \
                    and not attr.startswith(PRIVATE_PREFIX):
                found[f"{name}.{attr}"] = value
    return found


def test_every_public_exception_is_defined_in_kop_errors_and_exported() -> None:
    defined = _defined_exceptions()
    elsewhere = sorted(k for k in defined if not k.startswith("kop.errors."))
    assert elsewhere == [], f"exception classes outside kop/errors.py: {elsewhere}"
    not_exported = sorted(cls.__name__ for cls in defined.values() if getattr(kop, cls.__name__, None) is not cls)
    assert not_exported == [], f"not exported as kop.<Name>: {not_exported}"
    assert len(defined) >= 29


def test_every_exception_of_kop_errors_is_in_the_export_table() -> None:
    names = {n for n, v in vars(kop.errors).items() if inspect.isclass(v) and issubclass(v, BaseException)}
    assert names <= {n for n, m in kop._EXPORTS.items() if m == "kop.errors"}


def test_user_errors_are_kop_errors_and_value_errors() -> None:
    for name, cls in vars(kop.errors).items():
        if not (inspect.isclass(cls) and issubclass(cls, BaseException)):
            continue
        if name in ("ProverBug", "DeadlineInterrupt", "Stopped"):  # kop's bug, an interrupt, a stop: not bad input
            assert not issubclass(cls, kop.KopError), name
        else:
            assert issubclass(cls, kop.KopError) and issubclass(cls, ValueError), name


@pytest.mark.parametrize("module,names", [
    ("kop.games.errors", ["TreeError", "EfgError", "StrategyError", "GameError", "LimitError"]),
    ("kop.reasoning.errors", ["ProverTimeout", "ProverBug", "AgentError"]),
    ("kop.stories.errors", ["StoryError"]),
    ("kop.worlds.errors", ["WorldsError", "LimitError"]),
    ("kop.semantics.errors", ["ModelError"]),
    ("kop.syntax.budget", ["TimeoutArgumentError", "OutOfTime", "DeadlineInterrupt"]),
    ("kop.experiments.runner", ["ExperimentError", "ClusterLost", "Stopped"]),
    ("kop.theory.source", ["TheoryError"]),
    ("kop.io.jsontext", ["JsonError"]),
    ("kop.io.smcdel", ["SmcdelError"]),
    ("kop.io.epddl_sexpr", ["EpddlError"]),
    ("kop.games.nplayer.bounds", ["BoundsError"]),
    ("kop.games.simultaneous.matrix", ["MatrixError"]),
    ("kop.selection.evaluations", ["EvaluationError"]),
])
def test_the_old_module_names_still_import(module: str, names: list[str]) -> None:
    mod = importlib.import_module(module)
    for name in names:
        assert getattr(mod, name) is getattr(kop.errors, name) is getattr(kop, name)
        assert getattr(kop, name).__module__ == "kop.errors"


def test_a_limit_reached_is_a_limit_error() -> None:
    assert issubclass(kop.ProverTimeout, kop.OutOfTime) and issubclass(kop.OutOfTime, kop.LimitError)
    assert issubclass(kop.TimeoutArgumentError, kop.LimitError)
    with pytest.raises(kop.LimitError):
        kop.valid("p", timeout=0)
