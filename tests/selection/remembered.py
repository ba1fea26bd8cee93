"""Random trees ask the prover the same questions over and over: a context that remembers the answers."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest


@contextmanager
def remembered_prover_answers() -> Iterator[None]:
    """``kop.reasoning.prover.entails`` answers each (premises, formula, options) once while inside."""
    import kop.reasoning.prover as prover_mod

    entails = prover_mod.entails
    seen: dict[Any, Any] = {}

    def remembered(premises: Any, phi: Any, **kw: Any) -> Any:
        key = (tuple(premises), phi, tuple(sorted(kw.items())))
        if key not in seen:
            seen[key] = entails(premises, phi, **kw)
        return seen[key]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(prover_mod, "entails", remembered)
        yield
