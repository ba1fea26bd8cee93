"""Binary decision diagrams, below semantics and the prover: one manager interface
(:mod:`~kop.bdd.manager`) over CUDD (through ``dd``), ``dd``'s pure-Python BDDs and kop's own
:mod:`~kop.bdd.robdd`; :mod:`~kop.bdd.ddimport` imports ``dd`` lazily.

>>> from kop.bdd.manager import manager
>>> m = manager("python", ["p", "q"])
>>> m.OR(m.var("p"), m.NOT(m.var("p"))) == m.OR(m.var("q"), m.NOT(m.var("q")))
True
"""
