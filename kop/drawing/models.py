"""Pictures of Kripke models: one colour per agent's relation, the designated worlds marked.

Worlds are circles labelled with the atoms true there (and their names when
short); each agent's cells are lines in the agent's colour through the worlds
it cannot tell apart (the reflexive loops of S5 are left out).  Designated
(actual) worlds have a double border.  Worlds are placed by the model's
structure (:func:`model_layout`): hypercube-like models by valuation, others in
a grid of two agents' cells, the rest by networkx's Kamada-Kawai layout; the
same model always gives the same picture.

Drawing uses matplotlib, an optional extra: ``pip install '.[draw]'`` in kop's source folder
(or ``pip install matplotlib``).
This module also holds what every kop picture shares: the colours, the
matplotlib import with a clear error when it is missing, and the conversion of
a figure to SVG text or a file.

Example
-------
>>> import kop
>>> from kop.drawing.models import model_svg
>>> m = kop.KripkeModel.from_observations("m_a m_b m_c", "true",      # three muddy children
...                                       {"a": "m_b m_c", "b": "m_a m_c", "c": "m_a m_b"}, actual="m_a m_b")
>>> svg = model_svg(m)
>>> svg.startswith("<?xml") and "</svg>" in svg
True
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kop.errors import KopError, LimitError, MissingDependency, install_hint

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

    from kop.semantics.model import KripkeModel

__all__ = ["draw_model", "model_layout", "LAYOUTS", "KAMADA_MAX", "model_svg", "save_figure", "figure_svg", "require_matplotlib",
           "repr_svg", "AGENT_COLOURS", "MAX_DRAWN_WORLDS", "FORMATS", "world_marks", "GROUP_ABOVE"]

#: the doctests need this optional package (kop/conftest.py skips them without it)
__doctest_requires__ = ("matplotlib",)

#: one colour per agent, in the model's agent order (matplotlib's colour-blind-safe tab10)
AGENT_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                 "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f")
#: models with more worlds are refused: minimize them or restrict them first
MAX_DRAWN_WORLDS = 300
#: the file formats a picture can be saved in (by the file's suffix)
FORMATS = ("svg", "png", "pdf")


def require_matplotlib() -> Any:
    """matplotlib's pyplot-free Figure class, or a clear error saying how to install it."""
    try:
        from matplotlib.figure import Figure
    except ImportError as exc:
        raise MissingDependency(f"drawing needs matplotlib, an optional extra: {install_hint('draw')}") from exc
    return Figure


def figure_svg(fig: Figure) -> str:
    """The figure as SVG text (no metadata dates, so equal figures give equal text)."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    return buf.getvalue()


def save_figure(fig: Figure, path: str | Path) -> Path:
    """Save *fig* to *path* in the format its suffix names (``.svg``, ``.png`` or ``.pdf``)."""
    p = Path(path)
    fmt = p.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise MissingDependency(f"{p.name}: cannot save a picture as {p.suffix or 'a file without suffix'!r}; "
                                f"use one of {', '.join('.' + f for f in FORMATS)}")
    meta = {"Date": None} if fmt == "svg" else {}
    try:
        fig.savefig(p, format=fmt, bbox_inches="tight", metadata=meta, dpi=150)
    except OSError as exc:  # a missing folder, a folder of that name, no permission, a full disk
        raise KopError(f"{p}: cannot save the picture ({exc.strerror or exc})") from None
    return p


def _layout(g: Any, layout: str) -> dict[str, Any]:
    """networkx's *layout* of *g*: each node's position (a pair of numbers)."""
    import networkx as nx

    pos: dict[str, Any]
    if len(g) == 1:
        return {next(iter(g)): (0.0, 0.0)}
    if layout == "circular":
        pos = nx.circular_layout(g)
        return pos
    if layout == "kamada_kawai":
        try:
            pos = nx.kamada_kawai_layout(g)
            return pos
        except ImportError:  # scipy missing
            layout = "spring"
    if layout == "spring":
        pos = nx.spring_layout(g, seed=7)
        return pos
    raise LimitError(f"unknown layout {layout!r} (use {', '.join(LAYOUTS)})")


#: directions of the atoms in the valuation layout (a square, a cube, two cubes side by side)
_AXES = ((1.0, 0.0), (0.0, 1.0), (0.5, 0.42), (2.0, 0.0))
#: the layouts :func:`model_layout` knows
LAYOUTS = ("auto", "valuation", "cells", "grouped", "kamada_kawai", "spring", "circular")
#: past this many worlds, ``auto`` places the worlds by one agent's cells (``grouped``) rather than by
#: Kamada-Kawai, whose time grows fast (about 13 s for 140 worlds)
KAMADA_MAX = 48


def _distinct_valuations(model: KripkeModel) -> bool:
    return len({model.valuation(w) for w in model.worlds}) == len(model)


def _valuation_layout(model: KripkeModel) -> dict[str, tuple[float, float]] | None:
    """Hypercube-like models (at most four atoms, most valuations present): each atom a direction."""
    atoms = sorted(model.atoms)
    if not 1 <= len(atoms) <= len(_AXES) or not _distinct_valuations(model) or len(model) * 2 < 2 ** len(atoms):
        return None
    pos = {}
    for w in model.worlds:
        v = model.valuation(w)
        x = sum(_AXES[i][0] for i, a in enumerate(atoms) if a in v)
        y = sum(_AXES[i][1] for i, a in enumerate(atoms) if a in v)
        pos[w] = (3.0 * x, 3.0 * y)
    return pos


def _cells_layout(model: KripkeModel) -> dict[str, tuple[float, float]] | None:
    """A grid whose rows are one agent's cells and whose columns are another's (Cheryl's table)."""
    agents = sorted(model.agents, key=lambda a: -len(model.partition(a)))
    if len(agents) < 2:
        if len(agents) == 1:
            cells = model.partition(agents[0])
            return {w: (2.0 * i, -1.3 * j) for i, c in enumerate(cells) for j, w in enumerate(c)}
        return None
    best = None
    for rows_agent in sorted(agents[:3], key=lambda a: len(model.partition(a))):   # fewer rows: a wide table
        for cols_agent in agents[:3]:
            if rows_agent == cols_agent:
                continue
            rows, cols = model.partition(rows_agent), model.partition(cols_agent)
            if len(rows) > 30 or len(cols) > 30 or len(rows) == 1 or len(cols) == 1:
                continue
            r = {w: i for i, c in enumerate(rows) for w in c}
            k = {w: i for i, c in enumerate(cols) for w in c}
            slots: dict[tuple[int, int], int] = {}
            for w in model.worlds:
                slots[r[w], k[w]] = slots.get((r[w], k[w]), 0) + 1
            crowd = max(slots.values())
            score = (crowd, len(rows) * len(cols))
            if crowd <= 2 and (best is None or score < best[0]):
                best = (score, r, k)
    if best is None:
        return None
    _, r, k = best
    # order rows and columns by the valuations they hold, so neighbours differ in few atoms
    order_r = _order(r, model)
    order_k = _order(k, model)
    crowd = best[0][0]
    longest = max(len(",".join(sorted(model.valuation(w)))) for w in model.worlds)
    dx = max(2.6, 0.12 * longest + 1.4)          # room for the label to the right of each world
    pos: dict[str, tuple[float, float]] = {}
    seen: dict[tuple[int, int], int] = {}
    for w in model.worlds:
        slot = (order_r[r[w]], order_k[k[w]])
        n = seen.get(slot, 0)
        seen[slot] = n + 1
        pos[w] = (dx * (crowd * slot[1] + n), -2.0 * slot[0])
    return pos


def _grouped_layout(model: KripkeModel) -> dict[str, tuple[float, float]]:
    """One agent's cells as columns of worlds (by valuation), the columns in a square block.

    The agent is the one whose cells are closest in number to the square root
    of the model's size (a block about as wide as it is tall); a model without
    agents is one cell.

    >>> import kop
    >>> m = kop.KripkeModel(["u", "v", "x"], {"a": [["u", "v"], ["x"]]})
    >>> _grouped_layout(m)
    {'u': (0.0, -0.0), 'v': (0.0, -1.3), 'x': (2.6, -0.0)}
    """
    n = len(model)
    cells: tuple[tuple[str, ...], ...] = (tuple(model.worlds),)
    if model.agents:
        agent = min(model.agents, key=lambda a: (abs(len(model.partition(a)) - n ** 0.5), model.agents.index(a)))
        cells = model.partition(agent)
    tallest = max(len(c) for c in cells)
    longest = max(len(",".join(sorted(model.valuation(w)))) for w in model.worlds)
    dx = max(2.6, 0.12 * longest + 1.4)
    # columns per block row so that the block is about square: width per_row * dx, height rows * (tallest + 1) * 1.3
    per_row = max(1, min(len(cells), round((len(cells) * (tallest + 1) * 1.3 / dx) ** 0.5)))
    pos: dict[str, tuple[float, float]] = {}
    for k, cell in enumerate(sorted(cells, key=lambda c: min(tuple(sorted(model.valuation(w))) for w in c))):
        col, row = k % per_row, k // per_row
        for j, w in enumerate(sorted(cell, key=lambda w: (tuple(sorted(model.valuation(w))), w))):
            pos[w] = (dx * col, -1.3 * (row * (tallest + 1) + j))
    return {w: pos[w] for w in model.worlds}


def _order(cell_of: dict[str, int], model: KripkeModel) -> dict[int, int]:
    key: dict[int, tuple[str, ...]] = {}
    for w, c in cell_of.items():
        v = tuple(sorted(model.valuation(w)))
        key[c] = min(key.get(c, v), v)
    return {c: i for i, c in enumerate(sorted(key, key=lambda c: (key[c], c)))}


def model_layout(model: KripkeModel, layout: str = "auto") -> tuple[dict[str, tuple[float, float]], str]:
    """Where each world of *model* goes in its picture, and the layout used.

    Parameters
    ----------
    model : KripkeModel
    layout : str
        ``"auto"`` (default): ``"valuation"`` for hypercube-like models (at most
        four atoms, distinct valuations, at least half of them present: each
        atom is a direction, so an agent's edges are parallel), else
        ``"cells"`` (rows are one agent's cells, columns another's: each agent's
        edges run along rows or columns), else ``"kamada_kawai"`` up to
        :data:`KAMADA_MAX` worlds and ``"grouped"`` past it (one agent's cells
        as columns of worlds, the columns in a square block). Also
        ``"spring"`` and ``"circular"``.

    Returns
    -------
    (dict, str)
        World -> (x, y), and the name of the layout used.

    Example
    -------
    >>> import kop
    >>> m = kop.KripkeModel.from_observations(["p", "q"], "p | q", {"a": ["p"], "b": ["q"]})
    >>> pos, used = model_layout(m)
    >>> used, sorted(pos.items())
    ('valuation', [('w01', (0.0, 3.0)), ('w10', (3.0, 0.0)), ('w11', (3.0, 3.0))])
    """
    if layout not in LAYOUTS:
        raise LimitError(f"unknown layout {layout!r} (use {', '.join(LAYOUTS)})")
    if layout in ("auto", "valuation"):
        pos = _valuation_layout(model)
        if pos is not None:
            return pos, "valuation"
        if layout == "valuation":
            raise LimitError("the valuation layout needs at most four atoms, distinct valuations and most of them "
                             "present; use auto, cells or kamada_kawai")
    if layout in ("auto", "cells"):
        pos = _cells_layout(model)
        if pos is not None:
            return pos, "cells"
        if layout == "cells":
            raise LimitError("the cells layout needs agents whose cells make a grid with at most two worlds in a "
                             "place; use auto, grouped or kamada_kawai")
        layout = "kamada_kawai" if len(model) <= KAMADA_MAX else "grouped"
    if layout == "grouped":
        return _grouped_layout(model), "grouped"
    raw = _layout(model.to_networkx(), layout)
    scale = 1.6 * max(2.0, len(model) ** 0.5)
    return {w: (float(raw[w][0]) * scale, float(raw[w][1]) * scale) for w in model.worlds}, layout


def _label(model: KripkeModel, w: str, names: str, distinct: bool) -> tuple[str, str]:
    """(text inside the circle, text under it); past :data:`GROUP_ABOVE` worlds, names only where needed."""
    atoms = ",".join(sorted(model.valuation(w))) or "∅"
    short = len(w) <= 4 and len(model) <= GROUP_ABOVE
    if names == "on" or (names == "auto" and (short or not distinct)):
        return (w if len(w) <= 4 else "", atoms if len(w) <= 4 else f"{w}: {atoms}")
    return "", atoms


def _cell_paths(model: KripkeModel, agent: str, pos: dict[str, tuple[float, float]],
                by_valuation: bool = False) -> list[tuple[str, str]]:
    """The pairs to join for *agent*: each cell as a path through its worlds in reading order.

    In the valuation layout a cell is joined along the hypercube's edges (worlds
    that differ in one atom), which keeps every line parallel to an atom's axis;
    parts of a cell that those edges leave apart are joined by a path.
    """
    out = []
    for cell in model.partition(agent):
        if len(cell) < 2:
            continue
        if by_valuation:
            vals = {w: model.valuation(w) for w in cell}
            edges = [(u, v) for i, u in enumerate(cell) for v in cell[i + 1:] if len(vals[u] ^ vals[v]) == 1]
            parts = _components(cell, edges)
            out.extend(edges)
            heads = [p[0] for p in parts]
            out.extend(zip(heads, heads[1:]))
            continue
        xs = [pos[w][0] for w in cell]
        ys = [pos[w][1] for w in cell]
        horizontal = (max(xs) - min(xs)) >= (max(ys) - min(ys))
        ordered = sorted(cell, key=lambda w: (pos[w][0], -pos[w][1]) if horizontal else (-pos[w][1], pos[w][0]))
        out.extend(zip(ordered, ordered[1:]))
    return out


def _components(cell: tuple[str, ...] | list[str], edges: list[tuple[str, str]]) -> list[list[str]]:
    root = {w: w for w in cell}

    def find(w: str) -> str:
        while root[w] != w:
            root[w] = root[root[w]]
            w = root[w]
        return w

    for u, v in edges:
        root[find(u)] = find(v)
    groups: dict[str, list[str]] = {}
    for w in cell:
        groups.setdefault(find(w), []).append(w)
    return list(groups.values())


def draw_model(model: KripkeModel, *, layout: str = "auto", title: str | None = None,
               show_atoms: bool = True, names: str = "auto", file: str | Path | None = None,
               highlight: Iterable[str] | None = None, highlight_label: str = "holds",
               uncertainty: bool = True) -> Figure:
    """Draw *model*: one colour per agent, its cells as lines through their worlds, designated worlds circled twice.

    Parameters
    ----------
    model : KripkeModel
        At most :data:`MAX_DRAWN_WORLDS` worlds (minimize a larger model first).
    layout : str
        See :func:`model_layout`: ``"auto"`` (default), ``"valuation"``,
        ``"cells"``, ``"kamada_kawai"``, ``"spring"`` or ``"circular"``.
    title : str, optional
        A title above the picture.
    show_atoms : bool
        Write the atoms true at each world under it (on a white ground, clear of the lines).
    names : str
        ``"auto"`` (default): world names inside the circles when they are short
        (at most four characters) or when two worlds share a valuation, else only
        the valuation; ``"on"`` or ``"off"``.
    file : str or Path, optional
        Also save the picture there (the format from the suffix: ``.svg``,
        ``.png`` or ``.pdf``; see :func:`save_figure`).
    highlight : iterable of str, optional
        Worlds to fill in yellow (e.g. the truth set of a formula), named
        *highlight_label* in the legend.
    highlight_label : str
        The legend's words for the highlighted worlds (default ``"holds"``).
    uncertainty : bool
        Draw each agent's plausibility order and probabilities when the model
        has them (default): a dashed arrow in the agent's colour from each world
        to a world of the next more plausible rank of the same cell, and beside
        each world the agent's rank (``r1``) and probability in its cell
        (``3/4``).

    Returns
    -------
    matplotlib.figure.Figure
        Each world's circle has the SVG id ``kop-world-I`` (I its position in
        ``model.worlds``), so a page can find and click it.

    Notes
    -----
    An agent's relation is drawn as its cells: the worlds of a cell are joined,
    in reading order, by a line in the agent's colour, so the worlds joined by
    one colour are those the agent cannot tell apart (S5: the line stands for
    all the pairs of the cell, and the reflexive loops are left out). Where two
    agents join the same two worlds, their lines bend apart. Lines that would
    run through another world bend around it.

    Models of more than :data:`GROUP_ABOVE` worlds are grouped by cell: the
    first agent whose cells' boxes do not overlap has each cell drawn as a
    shaded box in its colour (instead of lines), and worlds are labelled by
    their valuation.

    Example
    -------
    >>> import kop
    >>> fig = draw_model(kop.KripkeModel({"h": ["heads"], "t": []}, {"a": [["h", "t"]]}, "h"))
    >>> len(fig.axes)
    1
    >>> coin = kop.KripkeModel({"h": ["heads"], "t": []}, {"a": [["h", "t"]]}, "h",
    ...                        plausibility={"a": {"h": 0, "t": 1}}, probability={"a": {"h": "3/4", "t": "1/4"}})
    >>> svg = figure_svg(draw_model(coin, highlight=["h"]))
    >>> 'id="kop-world-0"' in svg and 'id="kop-plausibility-a-1-0"' in svg
    True
    >>> world_marks(coin)
    {'h': [('a', 'r0, 3/4')], 't': [('a', 'r1, 1/4')]}
    """
    figure_class = require_matplotlib()
    if len(model) > MAX_DRAWN_WORLDS:
        raise LimitError(f"the model has {len(model)} worlds; kop draws at most {MAX_DRAWN_WORLDS} "
                         "(minimize it, or restrict it to the worlds of interest, first)")
    if names not in ("auto", "on", "off"):
        raise LimitError(f"names must be 'auto', 'on' or 'off', not {names!r}")
    pos, used = model_layout(model, layout)
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    width, height = (max(xs) - min(xs)) or 1.0, (max(ys) - min(ys)) or 1.0
    unit = 0.62                                    # inches per layout unit
    fig: Figure = figure_class(figsize=(max(4.0, min(22.0, width * unit + 3.2)),
                                       max(3.0, min(22.0, height * unit + 1.6))))
    ax = fig.add_subplot()
    ax.set_axis_off()
    radius = 0.42
    grouped = _grouping_agent(model, pos, radius) if len(model) > GROUP_ABOVE else None
    if grouped is not None:
        _draw_cell_boxes(ax, model, grouped, pos, radius)
    reach_x, reach_y = list(xs), list(ys)           # where the bent lines go, for the picture's limits
    _draw_cell_lines(ax, model, pos, radius, grouped, used == "valuation", reach_x, reach_y)
    lit = set() if highlight is None else set(highlight)
    marks = world_marks(model) if uncertainty and model.has_uncertainty else {}
    if marks:
        _draw_plausibility(ax, model, pos)
    _draw_worlds(ax, model, pos, radius, lit, marks, names, show_atoms)
    ax.legend(handles=_legend(model, grouped, bool(marks), bool(lit), highlight_label), loc="upper left",
              bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize=9)
    ax.set_xlim(min(reach_x) - 1.0, max(reach_x) + 2.2)
    ax.set_ylim(min(reach_y) - 1.4, max(reach_y) + 1.0)
    ax.set_aspect("equal", adjustable="box")
    if title:
        ax.set_title(title)
    if file is not None:
        save_figure(fig, file)
    return fig


def _draw_cell_lines(ax: Any, model: KripkeModel, pos: dict[str, tuple[float, float]], radius: float,
                     grouped: str | None, by_valuation: bool, reach_x: list[float], reach_y: list[float]) -> None:
    """Each agent's cells (but the *grouped* agent's) as lines between their worlds, bent apart where agents
    share a pair and around worlds in the way; the bends' apexes go into *reach_x*, *reach_y*."""
    from matplotlib.patches import FancyArrowPatch

    agents = model.agents
    pairs: dict[frozenset[str], list[str]] = {}
    for a in agents:
        if a == grouped:
            continue
        for u, v in _cell_paths(model, a, pos, by_valuation=by_valuation):
            pairs.setdefault(frozenset((u, v)), []).append(a)
    for pair, labels in pairs.items():
        u, v = sorted(pair)
        blocked = _blocked(pos, u, v, radius)
        for k, a in enumerate(sorted(labels, key=agents.index)):
            spread = 0.0 if len(labels) == 1 else 0.22 * (k - (len(labels) - 1) / 2)
            rad = spread + (0.35 if blocked else 0.0)
            (x1, y1), (x2, y2) = pos[u], pos[v]
            for side in (1, -1):     # the apex of the bend (either side: matplotlib's sign convention aside)
                reach_x.append((x1 + x2) / 2 + side * rad * (y2 - y1) / 2)
                reach_y.append((y1 + y2) / 2 - side * rad * (x2 - x1) / 2)
            ax.add_artist(FancyArrowPatch(pos[u], pos[v], arrowstyle="-", connectionstyle=f"arc3,rad={rad}",
                                         color=AGENT_COLOURS[agents.index(a) % len(AGENT_COLOURS)],
                                         linewidth=2.2, shrinkA=15, shrinkB=15, zorder=1))


def _draw_worlds(ax: Any, model: KripkeModel, pos: dict[str, tuple[float, float]], radius: float, lit: set[str],
                 marks: dict[str, list[tuple[str, str]]], names: str, show_atoms: bool) -> None:
    """Each world: its circle (filled if *lit*, circled twice if designated), its marks, name and atoms."""
    from matplotlib.patches import Circle

    agents = model.agents
    actual = set(model.actual)
    small = len(model) > 24
    distinct = _distinct_valuations(model)
    for i, w in enumerate(model.worlds):
        x, y = pos[w]
        ax.add_artist(Circle((x, y), radius, facecolor=_LIT if w in lit else "white", edgecolor="black",
                            linewidth=1.5, zorder=2, gid=f"kop-world-{i}"))
        for k, (a, text) in enumerate(marks.get(w, ())):
            ax.text(x - radius * 0.9, y + radius * (1.05 + 0.62 * k), text, ha="right", va="bottom",
                    fontsize=6 if small else 7, zorder=4, color=AGENT_COLOURS[agents.index(a) % len(AGENT_COLOURS)])
        if w in actual:
            ax.add_artist(Circle((x, y), radius * 1.22, facecolor="none", edgecolor="black", linewidth=1.5, zorder=2))
        inside, under = _label(model, w, names, distinct)
        if inside:
            ax.text(x, y, inside, ha="center", va="center", fontsize=7 if small else 9, zorder=3,
                    fontweight="bold" if w in actual else "normal")
        if show_atoms or not inside:
            # below and to the right: the one direction no line of the valuation or cells layouts takes
            ax.text(x + radius * 0.55, y - radius * 1.0, under, ha="left", va="top", fontsize=6 if small else 8,
                    color="#333333",
                    zorder=4, bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none",
                                    "alpha": 0.9})


def _legend(model: KripkeModel, grouped: str | None, marks: bool, lit: bool, highlight_label: str) -> list[Any]:
    """The legend's entries: each agent's colour, then the plausibility arrows, the highlight, the designated."""
    from matplotlib.lines import Line2D

    handles = [Line2D([0], [0], color=AGENT_COLOURS[i % len(AGENT_COLOURS)], lw=2,
                      label=f"{a} cannot tell apart" + (" (boxes)" if a == grouped else ""))
               for i, a in enumerate(model.agents)]
    if marks:
        handles.append(Line2D([0], [0], color="#555555", lw=1.2, ls="--",
                              label="→ more plausible; r: rank, P: in the cell"))
    if lit:
        handles.append(Line2D([0], [0], marker="o", color="black", markerfacecolor=_LIT, lw=0, markersize=12,
                              label=highlight_label))
    if model.actual:
        handles.append(Line2D([0], [0], marker="o", color="black", markerfacecolor="white", lw=0,
                              markersize=12, markeredgewidth=1.5, label="designated"))
    return handles


#: models with more worlds are grouped by cell (see :func:`draw_model`)
GROUP_ABOVE = 16
#: the fill of highlighted worlds
_LIT = "#ffe680"


def _fraction(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def world_marks(model: KripkeModel) -> dict[str, list[tuple[str, str]]]:
    """Per world, the (agent, text) of each agent's plausibility rank and probability in its cell.

    Only agents with an order (``r0`` is most plausible) or with probabilities
    (the world's weight over its cell's weight, an exact fraction) appear.

    Example
    -------
    >>> import kop
    >>> m = kop.KripkeModel(["u", "v", "x"], {"a": [["u", "v"], ["x"]]}, probability={"a": {"u": 1, "v": 3, "x": 2}})
    >>> world_marks(m)
    {'u': [('a', '1/4')], 'v': [('a', '3/4')], 'x': [('a', '1')]}
    """
    unc = model._unc
    out: dict[str, list[tuple[str, str]]] = {w: [] for w in model.worlds}
    if not unc:
        return out
    ranks, weights = unc.ranks, unc.weights
    for a in model.agents:
        if a not in ranks and a not in weights:
            continue
        probs: dict[str, str] = {}
        if a in weights:
            ws = weights[a]
            for cell in model.partition(a):
                total = sum((ws[model.index(w)] for w in cell), Fraction(0))
                for w in cell:
                    probs[w] = _fraction(ws[model.index(w)] / total) if total else "0"
        for i, w in enumerate(model.worlds):
            parts = ([f"r{ranks[a][i]}"] if a in ranks else []) + ([probs[w]] if w in probs else [])
            out[w].append((a, ", ".join(parts)))
    return out


def _draw_plausibility(ax: Any, model: KripkeModel, pos: dict[str, tuple[float, float]]) -> None:
    """Dashed arrows, per agent with an order, from each world to the nearest world of the next better rank."""
    from matplotlib.patches import FancyArrowPatch

    unc = model._unc
    ranks = unc.ranks if unc else {}
    for ai, a in enumerate(model.agents):
        if a not in ranks:
            continue
        colour = AGENT_COLOURS[ai % len(AGENT_COLOURS)]
        for cell in model.partition(a):
            levels = sorted({ranks[a][model.index(w)] for w in cell})
            for w in cell:
                r = ranks[a][model.index(w)]
                k = levels.index(r)
                if k == 0:
                    continue
                better = [v for v in cell if ranks[a][model.index(v)] == levels[k - 1]]
                (x, y) = pos[w]
                v = min(better, key=lambda u: ((pos[u][0] - x) ** 2 + (pos[u][1] - y) ** 2, u))
                ax.add_artist(FancyArrowPatch(pos[w], pos[v], arrowstyle="-|>", mutation_scale=11,
                                             connectionstyle="arc3,rad=0.25", color=colour, linewidth=1.2,
                                             linestyle="--", shrinkA=14, shrinkB=14, zorder=1,
                                             gid=f"kop-plausibility-{a}-{model.index(w)}-{model.index(v)}"))


def _boxes(model: KripkeModel, agent: str, pos: dict[str, tuple[float, float]],
           pad: float) -> list[tuple[float, float, float, float]]:
    out = []
    for cell in model.partition(agent):
        xs = [pos[w][0] for w in cell]
        ys = [pos[w][1] for w in cell]
        out.append((min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad))
    return out


def _grouping_agent(model: KripkeModel, pos: dict[str, tuple[float, float]], radius: float) -> str | None:
    """The first agent with a cell of two worlds or more whose cells' boxes hold only their own worlds."""
    for a in model.agents:
        cells = model.partition(a)
        if all(len(c) < 2 for c in cells):
            continue
        boxes = _boxes(model, a, pos, radius * 1.4)
        ok = True
        for cell, (x0, y0, x1, y1) in zip(cells, boxes):
            inside = set(cell)
            if any(x0 <= x <= x1 and y0 <= y <= y1 and w not in inside for w, (x, y) in pos.items()):
                ok = False
                break
        if ok:
            return a
    return None


def _draw_cell_boxes(ax: Any, model: KripkeModel, agent: str, pos: dict[str, tuple[float, float]],
                     radius: float) -> None:
    from matplotlib.patches import FancyBboxPatch

    colour = AGENT_COLOURS[model.agents.index(agent) % len(AGENT_COLOURS)]
    for k, (x0, y0, x1, y1) in enumerate(_boxes(model, agent, pos, radius * 1.3)):
        ax.add_artist(FancyBboxPatch((x0, y0), x1 - x0, y1 - y0, boxstyle="round,pad=0.05,rounding_size=0.4",
                                    facecolor=colour, alpha=0.10, edgecolor=colour, linewidth=1.2, zorder=0,
                                    gid=f"kop-cell-{agent}-{k}"))


def _blocked(pos: dict[str, tuple[float, float]], u: str, v: str, radius: float) -> bool:
    """Whether the straight segment u-v passes within a circle's reach of another world."""
    (x1, y1), (x2, y2) = pos[u], pos[v]
    dx, dy = x2 - x1, y2 - y1
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return False
    for w, (x, y) in pos.items():
        if w in (u, v):
            continue
        t = ((x - x1) * dx + (y - y1) * dy) / length2
        if 0 < t < 1:
            px, py = x1 + t * dx, y1 + t * dy
            if (x - px) ** 2 + (y - py) ** 2 < (1.6 * radius) ** 2:
                return True
    return False


def model_svg(model: KripkeModel, **options: Any) -> str:
    """SVG text of :func:`draw_model` (same options)."""
    return figure_svg(draw_model(model, **options))


def repr_svg(draw: Any, *args: Any, **kwargs: Any) -> str | None:
    """SVG for Jupyter's ``_repr_svg_``, or None (Jupyter then shows the text repr) when the
    picture cannot be drawn: matplotlib missing, or the object too large to draw."""
    try:
        return figure_svg(draw(*args, **kwargs))
    except KopError:
        return None
