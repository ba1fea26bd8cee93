"""Formulas as JSON trees (for ``kop parse --json`` and for tools in other languages).

Each node is an object with ``"op"`` and the operator's fields::

    {"op": "K", "agent": "A", "arg": {"op": "atom", "name": "E_A"}}

Operators: ``atom`` (name), ``true``, ``false``, ``not`` (arg), ``and``/``or``
(args), ``implies``/``iff`` (left, right), ``K``/``M``/``Kw`` (agent, arg),
``E``/``C``/``D`` (group, arg), ``RC`` (group, cond, arg), ``announce`` /
``announce_dual`` (ann, arg), ``B`` (agent, arg), ``CB`` (agent, cond, arg:
conditional belief), ``P`` (agent, arg, relation, bound: the bound a string
such as ``"1/3"``).
"""

from __future__ import annotations

from typing import Any

from kop.syntax import formula as F
from kop.errors import KopError

__all__ = ["to_json_ast", "from_json_ast"]

_UNARY_AGENT = {F.Know: "K", F.Possible: "M", F.KnowWhether: "Kw", F.Belief: "B"}
_GROUP = {F.Everyone: "E", F.Common: "C", F.Distributed: "D"}


def to_json_ast(f: F.Formula) -> dict[str, Any]:
    """The formula as nested JSON-ready dictionaries."""
    out: dict[F.Formula, dict[str, Any]] = {}
    g: Any  # dispatched on its exact type below
    for g in f.subformulas():
        t = type(g)
        if t is F.Atom:
            d: dict[str, Any] = {"op": "atom", "name": g.name}
        elif t is F.Top:
            d = {"op": "true"}
        elif t is F.Bottom:
            d = {"op": "false"}
        elif t is F.Not:
            d = {"op": "not", "arg": out[g.arg]}
        elif t in (F.And, F.Or):
            d = {"op": "and" if t is F.And else "or", "args": [out[a] for a in g.args]}
        elif t in (F.Implies, F.Iff):
            d = {"op": "implies" if t is F.Implies else "iff", "left": out[g.left], "right": out[g.right]}
        elif t in _UNARY_AGENT:
            d = {"op": _UNARY_AGENT[t], "agent": g.agent, "arg": out[g.arg]}
        elif t in _GROUP:
            d = {"op": _GROUP[t], "group": list(g.group), "arg": out[g.arg]}
        elif t is F.CondBelief:
            d = {"op": "CB", "agent": g.agent, "cond": out[g.cond], "arg": out[g.arg]}
        elif t is F.Probability:
            d = {"op": "P", "agent": g.agent, "arg": out[g.arg], "relation": g.relation, "bound": str(g.bound)}
        elif t is F.RelCommon:
            d = {"op": "RC", "group": list(g.group), "cond": out[g.cond], "arg": out[g.arg]}
        else:
            d = {"op": "announce" if t is F.Announce else "announce_dual", "ann": out[g.ann], "arg": out[g.arg]}
        out[g] = d
    return out[f]


def from_json_ast(d: Any, path: str = "$") -> F.Formula:
    """Read a formula written by :func:`to_json_ast`; errors name the JSON path."""
    if not isinstance(d, dict) or "op" not in d:
        raise KopError(f"{path}: expected an object with an 'op' field")
    op = d["op"]
    try:
        if op == "atom":
            return F.Atom(d["name"])
        if op == "true":
            return F.TRUE
        if op == "false":
            return F.FALSE
        if op == "not":
            return F.Not(from_json_ast(d["arg"], path + ".arg"))
        if op in ("and", "or"):
            args = [from_json_ast(a, f"{path}.args[{i}]") for i, a in enumerate(d["args"])]
            return F.conj(args) if op == "and" else F.disj(args)
        if op in ("implies", "iff"):
            binary: type[F.Implies | F.Iff] = F.Implies if op == "implies" else F.Iff
            return binary(from_json_ast(d["left"], path + ".left"), from_json_ast(d["right"], path + ".right"))
        for cls, name in _UNARY_AGENT.items():
            if op == name:
                return cls(d["agent"], from_json_ast(d["arg"], path + ".arg"))
        for group_op, name in _GROUP.items():
            if op == name:
                return group_op(d["group"], from_json_ast(d["arg"], path + ".arg"))
        if op == "RC":
            return F.RelCommon(d["group"], from_json_ast(d["cond"], path + ".cond"),
                               from_json_ast(d["arg"], path + ".arg"))
        if op == "CB":
            return F.CondBelief(d["agent"], from_json_ast(d["cond"], path + ".cond"),
                                from_json_ast(d["arg"], path + ".arg"))
        if op == "P":
            return F.Probability(d["agent"], from_json_ast(d["arg"], path + ".arg"), d["relation"], d["bound"])
        if op in ("announce", "announce_dual"):
            announcement: type[F.Announce | F.AnnounceDual] = F.Announce if op == "announce" else F.AnnounceDual
            return announcement(from_json_ast(d["ann"], path + ".ann"), from_json_ast(d["arg"], path + ".arg"))
    except KeyError as exc:
        raise KopError(f"{path}: operator {op!r} needs the field {exc.args[0]!r}") from None
    except (TypeError, ValueError) as exc:
        if isinstance(exc, KopError):
            raise
        raise KopError(f"{path}: {exc}") from None
    raise KopError(f"{path}: unknown operator {op!r}")
