"""Pictures of Kripke models: one colour per agent's relation, the designated worlds marked.

Worlds are circles labelled with their name and the atoms true there; two
worlds an agent cannot tell apart are joined by an edge in that agent's colour
(the reflexive loops of S5 are left out).  Designated (actual) worlds have a
double border.  The layout is networkx's (Kamada-Kawai when scipy is present,
else a seeded spring layout), so the same model always gives the same picture.

Drawing uses matplotlib, an optional extra: ``pip install 'kop-epistemic[draw]'``.
This module also holds what every kop picture shares: the colours, the
matplotlib import with a clear error when it is missing, and the conversion of
a figure to SVG text or a file.

Example
-------
>>> import kop
>>> from kop.semantics.draw import model_svg
>>> m = kop.KripkeModel.load("theories/muddy3.model.json")
>>> svg = model_svg(m)
>>> svg.startswith("<?xml") and "</svg>" in svg
True
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kop.syntax.errors import LimitError, MissingDependency, install_hint

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

    from kop.semantics.model import KripkeModel

__all__ = ["draw_model", "model_svg", "save_figure", "figure_svg", "require_matplotlib",
           "repr_svg", "AGENT_COLOURS", "MAX_DRAWN_WORLDS", "FORMATS"]

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
    fig.savefig(p, format=fmt, bbox_inches="tight", metadata=meta, dpi=150)
    return p


def _layout(g: Any, layout: str) -> dict:
    import networkx as nx

    if len(g) == 1:
        return {next(iter(g)): (0.0, 0.0)}
    if layout == "circular":
        return nx.circular_layout(g)
    if layout == "kamada_kawai":
        try:
            return nx.kamada_kawai_layout(g)
        except ImportError:  # scipy missing
            layout = "spring"
    if layout == "spring":
        return nx.spring_layout(g, seed=7)
    raise LimitError(f"unknown layout {layout!r} (use kamada_kawai, spring or circular)")


def draw_model(model: KripkeModel, *, layout: str = "kamada_kawai", title: str | None = None,
               show_atoms: bool = True) -> Figure:
    """Draw *model*: one colour per agent's relation, designated worlds with a double border.

    Parameters
    ----------
    model : KripkeModel
        At most :data:`MAX_DRAWN_WORLDS` worlds (minimize a larger model first).
    layout : str
        ``"kamada_kawai"`` (default), ``"spring"`` or ``"circular"``.
    title : str, optional
        A title above the picture.
    show_atoms : bool
        Write the atoms true at each world under its name.

    Returns
    -------
    matplotlib.figure.Figure

    Example
    -------
    >>> import kop
    >>> fig = draw_model(kop.KripkeModel.load("theories/coin.model.json"))
    >>> len(fig.axes)
    1
    """
    Figure = require_matplotlib()
    if len(model) > MAX_DRAWN_WORLDS:
        raise LimitError(f"the model has {len(model)} worlds; kop draws at most {MAX_DRAWN_WORLDS} "
                         "(minimize it, or restrict it to the worlds of interest, first)")
    g = model.to_networkx()
    pos = _layout(g, layout)
    agents = model.agents
    side = max(4.0, min(16.0, 1.3 * len(model) ** 0.5 + 3))
    fig = Figure(figsize=(side, side * 0.8))
    ax = fig.add_subplot()
    ax.set_axis_off()
    # one arc per agent and pair, bent by the agent's rank so parallel relations stay visible
    pairs: dict[tuple[str, str], list[str]] = {}
    for u, v, a in g.edges(keys=True):
        pairs.setdefault((u, v), []).append(a)
    from matplotlib.patches import FancyArrowPatch

    for (u, v), labels in pairs.items():
        for k, a in enumerate(sorted(labels, key=agents.index)):
            rad = 0.0 if len(labels) == 1 else 0.25 * (k - (len(labels) - 1) / 2)
            ax.add_patch(FancyArrowPatch(pos[u], pos[v], arrowstyle="-", connectionstyle=f"arc3,rad={rad}",
                                         color=AGENT_COLOURS[agents.index(a) % len(AGENT_COLOURS)],
                                         linewidth=2.0, shrinkA=14, shrinkB=14, zorder=1))
    actual = set(model.actual)
    xs = [pos[w][0] for w in model.worlds]
    ys = [pos[w][1] for w in model.worlds]
    ax.scatter(xs, ys, s=700, c="white", edgecolors="black", linewidths=1.5, zorder=2)
    des = [w for w in model.worlds if w in actual]
    if des:
        ax.scatter([pos[w][0] for w in des], [pos[w][1] for w in des], s=1100, facecolors="none",
                   edgecolors="black", linewidths=1.5, zorder=2)
    small = len(model) > 40
    for w in model.worlds:
        x, y = pos[w]
        ax.text(x, y, w, ha="center", va="center", fontsize=7 if small else 9, zorder=3,
                fontweight="bold" if w in actual else "normal")
        if show_atoms:
            atoms = ",".join(sorted(model.valuation(w))) or "∅"
            ax.annotate(atoms, (x, y), xytext=(0, -17), textcoords="offset points", ha="center", va="top",
                        fontsize=6 if small else 8, color="#444444", zorder=3)
    from matplotlib.lines import Line2D

    handles = [Line2D([0], [0], color=AGENT_COLOURS[i % len(AGENT_COLOURS)], lw=2, label=a)
               for i, a in enumerate(agents)]
    if des:
        handles.append(Line2D([0], [0], marker="o", color="black", markerfacecolor="white", lw=0,
                              markersize=12, markeredgewidth=1.5, label="designated"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize=9)
    ax.margins(0.15)
    ax.set_aspect("equal", adjustable="datalim")
    if title:
        ax.set_title(title)
    return fig


def model_svg(model: KripkeModel, **options: Any) -> str:
    """SVG text of :func:`draw_model` (same options)."""
    return figure_svg(draw_model(model, **options))


def repr_svg(draw: Any, *args: Any, **kwargs: Any) -> str | None:
    """SVG for Jupyter's ``_repr_svg_``, or None (Jupyter then shows the text repr) when the
    picture cannot be drawn: matplotlib missing, or the object too large to draw."""
    from kop.syntax.errors import KopError

    try:
        return figure_svg(draw(*args, **kwargs))
    except KopError:
        return None
