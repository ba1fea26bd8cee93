"""Hypothesis strategies for random Kripke models (shared by the semantics tests)."""

from __future__ import annotations

from hypothesis import strategies as st

from formula_strategies import formulas
from kop.semantics.model import KripkeModel

AGENTS = ["a", "b", "c"]
ATOMS = ["p", "q", "r"]


@st.composite
def models(draw, max_worlds: int = 8, agents=AGENTS, atoms=ATOMS, min_agents: int = 1):
    """A random S5_n model: 1..max_worlds worlds, some of *agents*, random partitions and valuation."""
    n = draw(st.integers(1, max_worlds))
    names = [f"w{i}" for i in range(n)]
    k = draw(st.integers(min_agents, len(agents)))
    ags = agents[:k]
    parts = {}
    for a in ags:
        labels = draw(st.lists(st.integers(0, n - 1), min_size=n, max_size=n))
        parts[a] = dict(zip(names, labels))
    worlds = {w: [p for p in atoms if draw(st.booleans())] for w in names}
    actual = draw(st.lists(st.sampled_from(names), min_size=1, max_size=n, unique=True))
    return KripkeModel(worlds, parts, actual=actual)


_FORMULAS: dict = {}


def formulas_for(agents, max_leaves: int = 10):
    """Random formulas over *agents* and ATOMS (strategies built once, which keeps hypothesis fast)."""
    key = (tuple(agents), max_leaves)
    if key not in _FORMULAS:
        _FORMULAS[key] = formulas(agents=list(agents), atoms=ATOMS, max_leaves=max_leaves)
    return _FORMULAS[key]


@st.composite
def models_and_formulas(draw, max_worlds: int = 8, max_leaves: int = 10):
    m = draw(models(max_worlds=max_worlds))
    phi = draw(formulas_for(m.agents, max_leaves))
    return m, phi
