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


@st.composite
def uncertain_models(draw, max_worlds: int = 8, agents=AGENTS, atoms=ATOMS):
    """A random model in which some agents have a plausibility order and some have probabilities.

    Ranks are small integers (ties are common) and some worlds are left out of an
    order; weights are small fractions, some 0 (left out), with every cell of
    positive total.
    """
    m = draw(models(max_worlds=max_worlds, agents=agents, atoms=atoms))
    names = list(m.worlds)
    plaus, prob = {}, {}
    for a in m.agents:
        if draw(st.booleans()):
            ranks = draw(st.lists(st.one_of(st.none(), st.integers(-2, 3)), min_size=len(names), max_size=len(names)))
            plaus[a] = {w: r for w, r in zip(names, ranks) if r is not None}
        if draw(st.booleans()):
            weights = {}
            for block in m.partition(a):
                ws = draw(st.lists(st.sampled_from([0, 0, 1, 2, "1/3", "0.5", 3]), min_size=len(block),
                                   max_size=len(block)))
                if all(w in (0, "0") for w in ws):
                    ws[draw(st.integers(0, len(block) - 1))] = "2/7"
                weights.update({w: x for w, x in zip(block, ws) if x != 0 or draw(st.booleans())})
            prob[a] = weights
    doc = m.to_json()
    return KripkeModel(doc["worlds"], doc["relations"], actual=doc["actual"], agents=doc["agents"],
                       plausibility=plaus or None, probability=prob or None)


_UNCERTAIN: dict = {}


def uncertain_formulas_for(agents, max_leaves: int = 10):
    key = (tuple(agents), max_leaves)
    if key not in _UNCERTAIN:
        _UNCERTAIN[key] = formulas(agents=list(agents), atoms=ATOMS, max_leaves=max_leaves, uncertain=True)
    return _UNCERTAIN[key]


@st.composite
def uncertain_models_and_formulas(draw, max_worlds: int = 8, max_leaves: int = 10):
    m = draw(uncertain_models(max_worlds=max_worlds))
    phi = draw(uncertain_formulas_for(m.agents, max_leaves))
    return m, phi


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
