"""Pseudo-models: the surviving types of a decision procedure, with chosen witnesses.

Both decision procedures (:mod:`kop.reasoning.satengine` and
:mod:`kop.reasoning.bddengine`) end, on a satisfiable input, with a finite set
of *types* (truth assignments to the atoms and modal subformulas of the
closure) in which every demand is met:

* a type with ``~K_a x`` has a witness type with the same ``K_a``-profile and
  ``~x``;
* a type with ``~D_G x`` has a witness with the same G-profile (its ``K_a``,
  a in G, and ``D_H``, H a subset of G) and ``~x``;
* a type with ``~C_G(c, x)`` reaches a ``c & ~x`` type by witnesses of its
  unfolding demands, through ``c``-types.

:class:`PseudoModel` records them; :mod:`kop.reasoning.countermodel` turns it
into a genuine :class:`~kop.semantics.model.KripkeModel`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["TypeInfo", "PseudoModel", "Who"]

#: an agent (its ``K_a`` class) or a group of two or more (its ``D_G`` class)
Who = str | tuple[str, ...]


@dataclass
class TypeInfo:
    """One type: the atoms it makes true, its profile key per agent or D-group, its demands.

    ``demands[who]`` lists the modal nodes (``K_a`` for an agent, ``D_G`` for a
    group) that are false in the type; ``witness[(who, node)]`` is the index
    of the type chosen to meet that demand.
    """

    atoms: frozenset[str]
    keys: Mapping[Who, Any]              # an opaque class key, compared for equality only
    demands: Mapping[Who, list[int]]
    witness: dict[tuple[Who, int], int] = field(default_factory=dict)


@dataclass
class PseudoModel:
    """Types (``types[root]`` satisfies the input) and the agents and D-groups of the closure."""

    types: list[TypeInfo]
    root: int
    agents: tuple[str, ...]
    dgroups: tuple[tuple[str, ...], ...]
    atoms: tuple[str, ...]
