"""Pictures: game trees, Kripke models and the selector's report render to real, non-blank images."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

import kop
from kop.drawing.trees import draw_tree, tree_layout, tree_svg
from kop.drawing.models import draw_model, model_svg, save_figure
from kop.errors import LimitError, MissingDependency

THEORIES = Path(__file__).resolve().parents[2] / "theories"   # wherever pytest runs from

resvg = pytest.importorskip("resvg_py")
mpimg = pytest.importorskip("matplotlib.image")


def rasterize(svg: str) -> np.ndarray:
    """SVG text -> RGB array, rendered by resvg (an independent renderer, not matplotlib).

    resvg-py rejects the root's sizes in points (matplotlib writes ``width="667pt"``), so the
    root's two sizes are restated in pixels; the viewBox, and so the drawing, is unchanged.
    """
    head, rest = svg.split("<svg ", 1)
    tag, body = rest.split(">", 1)
    tag = re.sub(r'(width|height)="([0-9.]+)pt"', r'\1="\2px"', tag)
    png = bytes(resvg.svg_to_bytes(svg_string=f"{head}<svg {tag}>{body}", background="#ffffff"))
    return mpimg.imread(io.BytesIO(png), format="png")[:, :, :3]


def share(img: np.ndarray, rgb: str, tol: float = 0.05) -> float:
    """The fraction of pixels within *tol* of the colour *rgb* ('#rrggbb')."""
    want = np.array([int(rgb[i:i + 2], 16) / 255 for i in (1, 3, 5)])
    return float(np.mean(np.all(np.abs(img - want) < tol, axis=2)))


def test_tree_picture_shows_decided_nodes_and_the_play():
    t = kop.figure2()
    d = kop.decide(t, kop.f_level("A", "B", 2) + kop.f_level("B", "A", 1))
    img = rasterize(tree_svg(t, decided=d, play=kop.play(t, {"A": "M2", "B": "M1"})))
    assert img.shape[0] > 100 and img.shape[1] > 200
    assert share(img, "#ffffff") < 0.99          # not blank
    assert share(img, "#c0392b") > 0.001         # the highlighted play
    assert share(img, "#b7e4b0") > 0.001         # decided nodes
    plain = rasterize(tree_svg(t))
    assert share(plain, "#c0392b") < share(img, "#c0392b") / 5
    assert share(plain, "#b7e4b0") < share(img, "#b7e4b0") / 5


def test_model_picture_has_one_colour_per_agent():
    m = kop.KripkeModel.load(str(THEORIES / "muddy3.model.json"))
    img = rasterize(model_svg(m))
    assert share(img, "#ffffff") < 0.99
    for colour in ("#1f77b4", "#d62728", "#2ca02c"):   # agents a, b, c
        assert share(img, colour) > 0.0005


def test_jupyter_display_hooks():
    t = kop.figure2()
    m = kop.KripkeModel.load(str(THEORIES / "coin.model.json"))
    from kop.selection.examples import SCENARIOS

    s = kop.select(t, SCENARIOS[3].knowledge, "A")
    for obj in (t, m, s):
        svg = obj._repr_svg_()
        assert svg is not None and svg.lstrip().startswith("<?xml") and svg.rstrip().endswith("</svg>")
    assert share(rasterize(s._repr_svg_()), "#c0392b") > 0.001


def test_save_by_suffix(tmp_path):
    t = kop.figure2()
    for suffix in ("svg", "png", "pdf"):
        p = t.draw(tmp_path / f"f.{suffix}")
        assert p is not None and (tmp_path / f"f.{suffix}").stat().st_size > 1000
    with pytest.raises(kop.KopError, match="use one of .svg, .png, .pdf"):
        save_figure(draw_tree(t), tmp_path / "f.jpg")


def test_limits_and_bad_paths():
    big = kop.random_tree(depth=12, branching=2, seed=1)
    with pytest.raises(LimitError, match="kop draws at most"):
        draw_tree(big)
    t = kop.figure2()
    with pytest.raises(LimitError, match="not a path of the tree"):
        draw_tree(t, play=["R", "S"])
    assert big._repr_svg_() is None                # Jupyter falls back to the text repr


def test_missing_matplotlib_says_which_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    # the hint names the draw extra: from PyPI when kop is installed, from the checkout when run from it
    with pytest.raises(MissingDependency, match=r"(kop-epistemic|\.)\[draw\]"):
        draw_tree(kop.figure2())
    with pytest.raises(MissingDependency, match=r"(kop-epistemic|\.)\[draw\]"):
        draw_model(kop.KripkeModel.load(str(THEORIES / "coin.model.json")))
    assert kop.figure2()._repr_svg_() is None


@st.composite
def shapes(draw, depth=4):
    """A nested tree shape: a leaf payoff, or a list of 1-3 sub-shapes."""
    if depth == 0 or draw(st.booleans()):
        return (draw(st.integers(-9, 9)), draw(st.integers(-9, 9)))
    return [draw(shapes(depth=depth - 1)) for _ in range(draw(st.integers(1, 3)))]


def _build(shape, k=0):
    if isinstance(shape, tuple):
        return shape
    return ("AB"[k % 2], [_build(c, k + 1) for c in shape])


@settings(max_examples=examples(300), deadline=None)
@given(shapes())
def test_layout_is_layered_ordered_and_centred(shape):
    t = kop.GameTree.build(["A", "B"], _build(shape))
    xy = tree_layout(t)
    leaves = [n.index for n in t.nodes() if n.is_leaf]
    # leaves in depth-first order get x = 0, 1, 2, ...: distinct, no overlaps
    order = []
    stack = [t.root]
    while stack:
        n = stack.pop()
        if n.is_leaf:
            order.append(n.index)
        stack.extend(reversed(n.children))
    assert [xy[i, 0] for i in order] == list(range(len(leaves)))
    for n in t.nodes():
        assert xy[n.index, 1] == -n.depth
        if not n.is_leaf:
            kids = [c.index for c in n.children]
            assert xy[n.index, 0] == pytest.approx((xy[kids[0], 0] + xy[kids[-1], 0]) / 2)
            assert all(xy[a, 0] < xy[b, 0] for a, b in zip(kids, kids[1:]))


def test_chance_nodes_and_move_labels_are_drawn():
    t = kop.loads_tree('{"format": "kop-tree/1", "players": ["A", "B"], "root": {"player": "A", "children": ['
                       '{"move": "bet", "chance": [0.25, 0.75], "children": [{"payoff": [1, 2]}, {"payoff": [3, 4]}]},'
                       '{"move": "pass", "payoff": [0, 0]}]}}')
    svg = tree_svg(t, play=[0, 1, 3])
    img = rasterize(svg)
    assert share(img, "#d0d0d0") > 0.0005            # the chance diamond
    assert share(img, "#c0392b") > 0.001


def test_docs_examples_run(tmp_path, monkeypatch):
    """Every Python block of docs/pictures.md runs, and writes the files it names."""
    from doc_examples import ROOT, page, python_blocks

    (tmp_path / "theories").symlink_to(ROOT / "theories")
    monkeypatch.chdir(tmp_path)
    blocks = python_blocks(page("pictures.md"))
    assert len(blocks) >= 2
    scope: dict = {}
    for block in blocks:
        exec(compile(block, "docs/pictures.md", "exec"), scope)
    for name in ("figure2.svg", "recommendation.png", "muddy.svg"):
        assert (tmp_path / name).stat().st_size > 1000
