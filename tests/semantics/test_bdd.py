"""kop's BDD facade (:mod:`kop.bdd.manager`) on both back ends against truth tables.

Random boolean expressions over four variables (drawn as trees, so failures
shrink) are built as BDDs on each available back end, then every operation
of the facade is checked against the expression's truth table, computed by
plain evaluation: the operators, quantifiers (plain and fused), cofactors,
counting, the cubes, picking (with preferences), evaluation, support, and a
variable inserted in the middle of the order (:meth:`Manager.fresh`).
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import examples

from kop.errors import KopError
from kop.bdd import manager as B

VARS = ("a", "b", "c", "d")
POINTS = [dict(zip(VARS, bits)) for bits in itertools.product((False, True), repeat=len(VARS))]

leaves = st.sampled_from(VARS) | st.sampled_from([True, False])
exprs = st.recursive(leaves, lambda sub: st.tuples(st.sampled_from(["and", "or", "xor", "iff"]), sub, sub)
                     | st.tuples(st.just("not"), sub), max_leaves=10)


def value(e, point):
    if isinstance(e, bool):
        return e
    if isinstance(e, str):
        return point[e]
    op, *args = e
    v = [value(a, point) for a in args]
    return {"not": lambda: not v[0], "and": lambda: v[0] and v[1], "or": lambda: v[0] or v[1],
            "xor": lambda: v[0] != v[1], "iff": lambda: v[0] == v[1]}[op]()


def build(m, e):
    if isinstance(e, bool):
        return m.true if e else m.false
    if isinstance(e, str):
        return m.var(e)
    op, *args = e
    u = [build(m, a) for a in args]
    if op == "not":
        return ~u[0]
    return {"and": lambda: u[0] & u[1], "or": lambda: u[0] | u[1], "xor": lambda: m.xor(u[0], u[1]),
            "iff": lambda: m.equiv(u[0], u[1])}[op]()


def table(m, u):
    return [m.evaluate(u, {v for v in VARS if p[v]}) for p in POINTS]


@settings(max_examples=examples(300), deadline=None)
@given(exprs, exprs, st.sets(st.sampled_from(VARS)), st.sampled_from(VARS), st.booleans(),
       st.sampled_from(B.available_backends()))
def test_operations_agree_with_truth_tables(e1, e2, qs, x, val, backend):
    m = B.new_manager(0, backend)
    m.declare(VARS)
    u, w = build(m, e1), build(m, e2)
    t1 = [value(e1, p) for p in POINTS]
    t2 = [value(e2, p) for p in POINTS]
    assert table(m, u) == t1 and [m.evaluate(u, p) for p in POINTS] == t1
    assert table(m, m.ite(u, w, ~w)) == [b if a else not b for a, b in zip(t1, t2)]
    assert (u == m.true) == all(t1) and (u == m.false) == (not any(t1))
    # support: the variables the function depends on
    dep = {v for v in VARS if any(value(e1, p) != value(e1, {**p, v: not p[v]}) for p in POINTS)}
    assert m.support(u) == dep
    assert m.count(u, VARS) == sum(t1)
    assert m.deepest(u) == (max(dep, key=VARS.index) if dep else None)

    def exists(t, names):
        return [any(t[POINTS.index({**p, **dict(zip(names, bits))})]
                    for bits in itertools.product((False, True), repeat=len(names))) for p in POINTS]

    names = sorted(qs)
    both = [a and b for a, b in zip(t1, t2)]
    assert table(m, m.exists_and(u, w, m.quantifier(names))) == exists(both, names)
    assert table(m, m.possible(u, w, names)) == exists(both, names)
    assert table(m, m.exist(names, u)) == exists(t1, names)
    assert table(m, m.forall(names, u)) == [not b for b in exists([not a for a in t1], names)]
    assert table(m, m.quantify_by(names)(u)) == exists(t1, names)
    assert table(m, m.quantify_by(names, forall=True)(u)) == [not b for b in exists([not a for a in t1], names)]
    shared = B.manager(backend, VARS)               # (the symbolic engine's kind of manager)
    assert table(shared, shared.quantify_by(names, forall=True)(build(shared, e1))) == table(m, m.forall(names, u))
    assert table(m, m.know(u, w, names)) == [not b for b in exists([a and not b for a, b in zip(t1, t2)], names)]
    assert table(m, m.cofactor(u, x, val)) == [t1[POINTS.index({**p, x: val})] for p in POINTS]
    # the cubes are disjoint and cover u
    covered = [sum(all(p[v] == b for v, b in c.items()) for c in m.cubes(u)) for p in POINTS]
    assert covered == [int(b) for b in t1]
    # pick: a satisfying assignment following the preferences where it can
    prefer = {v: val for v in VARS}
    got = m.pick(u, prefer)
    if not any(t1):
        assert got is None
    else:
        assert got is not None and m.evaluate(u, got) and m.evaluate(m.cube(got), got)
        if any(t1[i] for i, p in enumerate(POINTS) if all(b == val for b in p.values())):
            assert all(b == val for b in got.values())


@settings(max_examples=examples(200), deadline=None)
@given(exprs, st.sampled_from(B.available_backends()))
def test_fresh_variable_inserted_below_the_support(e, backend):
    m = B.new_manager(0, backend)
    m.declare(VARS)
    u = build(m, e)
    t = table(m, u)
    k = m.fresh("k", u)
    dep = m.support(u)
    if dep:
        assert m.level(k) == max(m.level(m.var(v)) for v in dep) + 1
    assert table(m, u) == t                                    # u unchanged
    r = m.equiv(k, u)                                          # k <-> u, over the five variables
    assert m.count(r, [*VARS, "k"]) == 16
    assert table(m, m.cofactor(r, "k", True)) == t
    assert m.count(u, [*VARS, "k"]) == 2 * sum(t)


def test_backends_and_switch():
    assert B.backend_name("python") == B.backend_name("autoref") == "python"
    with pytest.raises(KopError, match="unknown BDD back end"):
        B.backend_name("nope")
    env = {**os.environ, B.ENV: "python"}
    code = "from kop.bdd import manager as bdd; print(bdd.manager(vocabulary=['p']).backend)"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "python"
    with pytest.raises(KopError, match="cannot count"):
        m = B.manager("python", ["p"])
        m.count(m.var("q"), ["p"])


def test_counts_past_floating_point():
    for backend in B.available_backends():
        names = [f"x{i}" for i in range(1100)]
        m = B.manager(backend, names)
        assert m.count(~m.var("x5"), names) == 1 << 1099
