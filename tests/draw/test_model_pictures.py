"""Readable pictures of Kripke models: every shipped model and theory is laid out by its structure,
no two worlds overlap, no line runs through a world, no label sits on another world, and each
agent's lines join exactly the worlds it cannot tell apart."""

from __future__ import annotations

import pathlib

import pytest

import kop
from kop.drawing.models import _blocked, _cell_paths, _components, model_layout

ROOT = pathlib.Path(__file__).resolve().parents[2]
RADIUS = 0.42

pytest.importorskip("matplotlib")


def shipped_models() -> list[tuple[str, kop.KripkeModel]]:
    out = [(p.name, kop.KripkeModel.load(p)) for p in sorted((ROOT / "theories").glob("*.model.json"))]
    from kop.cli.draw_cmd import _model_at_step
    from kop.theory import TheoryRun

    class Args:
        timeout = 60.0
        step: int | None = None

    for p in sorted((ROOT / "theories").glob("*.kop")):
        run = TheoryRun(kop.load_theory(p), questions=False)
        if run.model is None or run.tree is not None or len(run.model) > 64:
            continue
        for step in (0, None):
            Args.step = step
            model, n, _ = _model_at_step(run, Args)   # type: ignore[arg-type]
            out.append((f"{p.name} step {n}", model))
    return out


MODELS = shipped_models()


def test_the_shipped_models_are_found():
    names = {n for n, _ in MODELS}
    assert {"muddy3.model.json", "cheryl.model.json", "cheryl.kop step 0", "muddy_children.kop step 0"} <= names


@pytest.mark.parametrize("name, model", MODELS, ids=[n for n, _ in MODELS])
def test_worlds_are_apart_and_lines_avoid_other_worlds(name, model):
    pos, used = model_layout(model)
    worlds = list(model.worlds)
    for i, u in enumerate(worlds):
        for v in worlds[i + 1:]:
            (x1, y1), (x2, y2) = pos[u], pos[v]
            assert (x1 - x2) ** 2 + (y1 - y2) ** 2 > (2.2 * RADIUS) ** 2, (u, v)
    if used in ("valuation", "cells"):
        for a in model.agents:
            for u, v in _cell_paths(model, a, pos, by_valuation=used == "valuation"):
                # in the valuation layout, a hypercube edge (one atom apart) never runs through a world
                if used == "valuation" and len(model.valuation(u) ^ model.valuation(v)) == 1:
                    assert not _blocked(pos, u, v, RADIUS), (a, u, v)


@pytest.mark.parametrize("name, model", MODELS, ids=[n for n, _ in MODELS])
def test_labels_sit_on_no_other_world(name, model):
    pos, _ = model_layout(model)
    for w in model.worlds:
        x, y = pos[w]
        label = ",".join(sorted(model.valuation(w))) or "x"
        # the label's box, below and to the right of its world (8 pt text: about 0.12 units a letter)
        left, right, top, bottom = x + 0.55 * RADIUS, x + 0.55 * RADIUS + 0.12 * len(label), y - RADIUS, y - RADIUS - 0.4
        for v in model.worlds:
            if v == w:
                continue
            vx, vy = pos[v]
            inside_x = left - RADIUS < vx < right + RADIUS
            inside_y = bottom - RADIUS < vy < top + RADIUS
            assert not (inside_x and inside_y), (w, v)


@pytest.mark.parametrize("name, model", MODELS, ids=[n for n, _ in MODELS])
def test_each_agents_lines_join_exactly_its_cells(name, model):
    pos, used = model_layout(model)
    for a in model.agents:
        edges = _cell_paths(model, a, pos, by_valuation=used == "valuation")
        joined = _components(list(model.worlds), edges)
        assert sorted(sorted(c) for c in joined) == sorted(sorted(c) for c in model.partition(a))


def test_layouts_by_structure():
    muddy = kop.KripkeModel.load(ROOT / "theories" / "muddy3.model.json")
    assert model_layout(muddy)[1] == "valuation"
    cheryl = kop.KripkeModel.load(ROOT / "theories" / "cheryl.model.json")
    pos, used = model_layout(cheryl)
    assert used == "cells"
    # Albert's cells (months) are rows: his lines are horizontal
    for cell in cheryl.partition("Albert"):
        assert len({pos[w][1] for w in cell}) == 1
    for cell in cheryl.partition("Bernard"):
        assert len({pos[w][0] for w in cell}) == 1
    with pytest.raises(kop.KopError, match="unknown layout"):
        model_layout(muddy, "nosuch")


def test_draw_theory_step(tmp_path):
    import json
    import subprocess
    import sys

    def draw(*extra: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "kop", "draw", str(ROOT / "theories" / "cheryl.kop"),
                               "-o", str(tmp_path / "c.svg"), "--json", *extra], capture_output=True, text=True,
                              timeout=300)

    worlds = []
    for step in ("0", "1", "2", "3"):
        r = draw("--step", step)
        assert r.returncode == 0, r.stderr
        doc = json.loads(r.stdout)
        worlds.append((doc["step"], doc["worlds"]))
    assert worlds == [(0, 10), (1, 5), (2, 3), (3, 1)]          # the dates left after each statement
    r = draw("--step", "4")
    assert r.returncode == 2 and "choose a step from 0 to 3" in r.stderr


def test_notebooks_show_decisions_and_formulas_richly():
    d = kop.decide(kop.figure2(), kop.f_level("A", "B", 2) + kop.f_level("B", "A", 1))
    svg = d._repr_svg_()
    assert svg is not None and svg.startswith("<?xml") and "decided nodes" in svg
    f = kop.parse("K_A E_B")
    assert f._repr_latex_() == "$K_{A} E_{B}$" and eval(repr(f)) == f
