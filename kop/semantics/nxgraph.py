"""A Kripke model as a networkx graph.

The body of :meth:`KripkeModel.to_networkx
<kop.semantics.model.KripkeModel.to_networkx>` and
:attr:`~kop.semantics.model.KripkeModel.graph`.  networkx is imported with
this module, so only when a graph is asked for.

Example
-------
>>> from kop import KripkeModel
>>> g = to_networkx(KripkeModel({"u": ["p"], "v": []}, {"a": [["u", "v"]]}, "u"))
>>> sorted(g.edges(keys=True)), g.nodes["u"]
([('u', 'v', 'a')], {'atoms': frozenset({'p'}), 'actual': True})
"""

from __future__ import annotations

import networkx as nx

from kop.semantics.model_value import ModelValue

__all__ = ["to_networkx"]


def to_networkx(model: ModelValue, loops: bool = False) -> nx.MultiGraph:
    """The model as a networkx MultiGraph.

    Parameters
    ----------
    model : KripkeModel
    loops : bool
        Add each world's reflexive edges (left out by default: S5 has them all).

    Returns
    -------
    networkx.MultiGraph
        Nodes are worlds (attributes ``atoms``, ``actual``); one edge per agent
        and pair of worlds it cannot tell apart (key and attribute ``agent``).

    Examples
    --------
    >>> from kop import KripkeModel
    >>> m = KripkeModel(["u", "v"], {"a": [["u", "v"]], "b": [["u"], ["v"]]})
    >>> to_networkx(m).number_of_edges(), to_networkx(m, loops=True).number_of_edges()
    (1, 5)
    """
    g = nx.MultiGraph()
    actual = set(model.actual)
    for w in model.worlds:
        g.add_node(w, atoms=model.valuation(w), actual=w in actual)
    for a in model.agents:
        for block in model.partition(a):
            for i, u in enumerate(block):
                if loops:
                    g.add_edge(u, u, key=a, agent=a)
                for v in block[i + 1:]:
                    g.add_edge(u, v, key=a, agent=a)
    return g
