"""Public belief upgrades: every agent's plausibility order changes, no world goes.

The body of :meth:`KripkeModel.upgrade <kop.semantics.model.KripkeModel.upgrade>`.

* ``"radical"`` (van Benthem's ⇑φ, the lexicographic upgrade): in every cell,
  every φ-world becomes more plausible than every ¬φ-world; within the two
  zones the old order stays.
* ``"conservative"`` (↑φ): in every cell, the most plausible φ-worlds become
  the most plausible worlds; the rest of the order stays.

Knowledge and probabilities do not change.  See ``docs/uncertainty.md``.

References
----------
van Benthem, "Dynamic logic for belief revision", JANCL 17 (2007);
Baltag & Smets, "A qualitative theory of dynamic interactive belief
revision" (2008).
"""

from __future__ import annotations

from typing import TypeVar

from kop.semantics.bitset_checker import ModelBits
from kop.semantics.errors import ModelError
from kop.semantics.evaluate import truth_set
from kop.semantics.model_value import ModelValue
from kop.semantics.uncertainty import Uncertainty
from kop.syntax.formula import Formula

__all__ = ["upgrade", "UPGRADES"]

#: The kinds of upgrade.
UPGRADES = ("radical", "conservative")

M = TypeVar("M", bound=ModelValue)


def upgrade(model: M, phi: Formula | str, kind: str = "radical") -> M:
    """The model after a public belief upgrade with *phi*.

    Parameters
    ----------
    model : KripkeModel
    phi : Formula or str
    kind : {"radical", "conservative"}
        See the module's documentation.

    Returns
    -------
    KripkeModel
        The same worlds, partitions and designated worlds; new plausibility ranks.

    Raises
    ------
    ModelError
        An unknown *kind*, or *phi* naming an agent the model lacks.

    Examples
    --------
    >>> from kop import KripkeModel
    >>> m = KripkeModel({"u": ["p"], "v": []}, {"a": [["u", "v"]]}, "u", plausibility={"a": {"u": 1, "v": 0}})
    >>> m.satisfies("B_a ~p"), upgrade(m, "p").satisfies("B_a p")
    (True, True)

    References
    ----------
    van Benthem, "Dynamic logic for belief revision", JANCL 17 (2007).
    """
    if kind not in UPGRADES:
        raise ModelError(f"unknown upgrade {kind!r}: use 'radical' or 'conservative'")
    true_at = truth_set(model, phi)
    good = [w in true_at for w in model.worlds]
    unc = model._unc or Uncertainty({}, {})
    for a in model.agents:
        old = unc.ranks.get(a) or (0,) * len(model)
        if kind == "radical":
            shift = (max(old) - min(old) + 1) if old else 0
            new = tuple(r if g else r + shift for r, g in zip(old, good))
        else:
            ids = model._ids_list(a)
            best: dict[int, int] = {}
            low: dict[int, int] = {}
            for b, r, g in zip(ids, old, good):
                low[b] = min(low.get(b, r), r)
                if g:
                    best[b] = min(best.get(b, r), r)
            new = tuple(low[b] - 1 if g and r == best[b] else r for b, r, g in zip(ids, old, good))
        unc = unc.with_ranks(a, new)
    out = model.with_actual(model.actual)
    if out._bits is not None:  # a model of its own: memoized truth sets depend on the ranks
        old_bits = out._bits
        out._bits = ModelBits(old_bits.n, old_bits.ids, old_bits.nblocks, old_bits.atoms, old_bits.actual)
    out._unc = unc
    if out._bits is not None:
        out._bits.unc = unc
    return out
