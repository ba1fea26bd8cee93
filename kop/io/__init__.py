"""Every reader and writer of kop, one module per format (networkx's ``readwrite``).

Formulas: :mod:`~kop.io.formula_json` (the JSON form of a formula).  Models: :mod:`~kop.io.model_json`
(kop-model/1), :mod:`~kop.io.smcdel` (SMCDEL's input language),
:mod:`~kop.io.epddl` (EPDDL planning tasks, a package).  Game trees:
:mod:`~kop.io.trees` (by suffix), :mod:`~kop.io.treejson` (kop-tree/1), :mod:`~kop.io.efg` and
:mod:`~kop.io.efgscan` (Gambit ``.efg``: the located token reader and the fast path for large files),
:mod:`~kop.io.infogame` (``.efg`` with information sets), :mod:`~kop.io.gambit` (pygambit games),
:mod:`~kop.io.openspiel` (OpenSpiel games, information sets kept).  :mod:`~kop.io.jsontext` is the
located JSON reader they share.

The values keep their short ways in: ``KripkeModel.load``, ``GameTree.load``, ``InfoGame.load`` import
the reader inside the method, so that this package sits above the values it reads.

>>> import kop.io
>>> from kop.io.trees import loads_tree
>>> loads_tree('{"format": "kop-tree/1", "players": ["A"], "root": {"player": "A", '
...            '"children": [{"payoff": [1]}, {"payoff": [2]}]}}').player_names
('A',)
"""
