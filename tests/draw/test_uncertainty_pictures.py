"""Pictures of plausibility and probability, checked against the definitions on random models.

For every agent with an order, each world that is not among the most plausible of its cell has
exactly one dashed arrow, to a world of the same cell at the next more plausible rank; the most
plausible worlds have none.  Each agent's probability written beside a world is the world's
weight over the weight of its cell (Kooi), compared with the checker's ``P_a``; the rank written
is ``model.rank``.  Highlighted worlds, and only they, are filled.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import kop
from kop.drawing.models import draw_model, figure_svg, world_marks

pytest.importorskip("matplotlib")


@st.composite
def uncertain_models(draw):
    n = draw(st.integers(1, 6))
    worlds = {f"w{i}": [f"at{i}"] for i in range(n)}          # the atom at{i} holds at w{i} alone
    names = list(worlds)
    agents = ["a", "b"]
    relations, plaus, prob = {}, {}, {}
    for a in agents:
        block = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
        cells: dict[int, list[str]] = {}
        for w, k in zip(names, block):
            cells.setdefault(k, []).append(w)
        relations[a] = list(cells.values())
        if draw(st.booleans()):
            plaus[a] = {w: draw(st.integers(0, 3)) for w in names}
        if draw(st.booleans()):
            weights = [draw(st.integers(0, 4)) for _ in names]
            for cell in cells.values():           # no cell of weight 0
                if sum(weights[names.index(w)] for w in cell) == 0:
                    weights[names.index(cell[0])] = 1
            prob[a] = {w: weights[i] for i, w in enumerate(names)}
    return kop.KripkeModel(worlds, relations, actual=names[0], plausibility=plaus or None,
                           probability=prob or None)


def _cell(m, a, w):
    return next(c for c in m.partition(a) if w in c)


@given(uncertain_models())
def test_marks_are_the_ranks_and_probabilities(m):
    marks = world_marks(m)
    for w in m.worlds:
        shown = dict(marks[w])
        for a in m.agents:
            unc = m._unc
            has_rank = bool(unc) and a in unc.ranks
            has_prob = bool(unc) and a in unc.weights
            if not (has_rank or has_prob):
                assert a not in shown
                continue
            parts = shown[a].split(", ")
            if has_rank:
                assert parts.pop(0) == f"r{m.rank(a, w)}"
            if has_prob:
                assert Fraction(parts.pop(0)) == m.probability(a, f"at{m.worlds.index(w)}", w)
            assert parts == []


@given(uncertain_models())
def test_one_arrow_to_the_next_better_rank(m):
    svg = figure_svg(draw_model(m))
    arrows = [(a, int(i), int(j)) for a, i, j in re.findall(r'id="kop-plausibility-(\w+)-(\d+)-(\d+)"', svg)]
    unc = m._unc
    for a in m.agents:
        mine = [(m.worlds[i], m.worlds[j]) for b, i, j in arrows if b == a]
        if not unc or a not in unc.ranks:
            assert mine == []
            continue
        for w in m.worlds:
            cell = _cell(m, a, w)
            better = sorted({m.rank(a, v) for v in cell if m.rank(a, v) < m.rank(a, w)})
            out = [v for u, v in mine if u == w]
            if not better:
                assert out == []
            else:
                assert len(out) == 1 and out[0] in cell and m.rank(a, out[0]) == better[-1]


@given(uncertain_models(), st.data())
def test_highlighted_worlds_are_filled(m, data):
    lit = set(data.draw(st.lists(st.sampled_from(m.worlds), unique=True)))
    svg = figure_svg(draw_model(m, highlight=lit))
    for i, w in enumerate(m.worlds):
        group = re.search(rf'<g id="kop-world-{i}">(.*?)</g>', svg, re.S).group(1)
        assert ("fill: #ffe680" in group) == (w in lit)


def test_kop_draw_jupyter_and_the_page_draw_the_same_picture(tmp_path):
    """One drawing code: ``kop draw``, ``_repr_svg_`` and the playground's model view give the same SVG."""
    from cli_runner import run_cli

    pytest.importorskip("starlette")
    from kop.serve.views import model_view

    root = Path(__file__).resolve().parents[2]
    path = (root / "theories" / "coin_belief.model.json").relative_to(root).as_posix()   # relative to the page's folder
    out = tmp_path / "coin.svg"
    r = run_cli(["draw", str(root / path), "-o", str(out)])
    assert r.code == 0, r
    cli = out.read_text()
    m = kop.KripkeModel.load(root / path)
    page = model_view({"path": path}, root)["svg"]
    def same(svg: str) -> str:   # matplotlib names clip paths and markers by object ids: the only difference allowed
        return re.sub(r"\b[pm][0-9a-f]{10}\b", "ID", svg)

    assert same(cli) == same(m._repr_svg_()) == same(page)
    assert 'id="kop-plausibility-ann-1-0"' in cli and "r0, 3/4" in cli       # ann: heads is rank 0, P 3/4
