"""Grounding EPDDL: formulas, effects and observability conditions under a binding of variables to objects.

A :class:`GroundAction` is an action of the domain with its arguments filled in: the grounded
events in its action type's slots, and each agent's observability conditions, resolved on the
state the action is applied to (:meth:`GroundAction.event_model`).

>>> from kop.io.epddl import load_task, DOMAIN_EXAMPLE, PROBLEM_EXAMPLE
>>> peek = load_task(DOMAIN_EXAMPLE, PROBLEM_EXAMPLE).action("peek", ["a"])
>>> peek.label, peek.events, [str(p) for p in peek.pre]
('(peek a)', ('(see-heads a)', '(see-tails a)'), ['heads', '~heads'])
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kop.errors import ModelError
from kop.io.epddl.actiontypes import ActionType
from kop.io.epddl.domain import ActionSchema
from kop.io.epddl.syntax import Node, _File, _typed
from kop.semantics.relational import EventModel, RelationalModel
from kop.syntax.formula import (FALSE, TRUE, And, Atom, Common, Distributed, Everyone, Formula, Implies, Know,
                                KnowWhether, Not, Or, Possible, conj, disj)

if TYPE_CHECKING:  # pragma: no cover
    from kop.io.epddl.task import EpddlTask

__all__ = ["GroundAction", "atom_name"]

#: an agent's observability: (condition, type) in order; the first condition that holds gives the type
Chain = tuple[tuple[Formula, str], ...]


@dataclass(frozen=True)
class GroundAction:
    """A ground action: its name and arguments and the grounded events in the action type's slots.

    Build it with :meth:`EpddlTask.action <kop.io.epddl.EpddlTask.action>`.

    Example
    -------
    >>> from kop.io.epddl import load_task, DOMAIN_EXAMPLE, PROBLEM_EXAMPLE
    >>> task = load_task(DOMAIN_EXAMPLE, PROBLEM_EXAMPLE)
    >>> task.action("peek", ["a"]).observers(task.initial)
    {'a': 'Fully', 'b': 'Partially'}
    """

    name: str
    args: tuple[str, ...]
    action_type: ActionType
    events: tuple[str, ...]
    pre: tuple[Formula, ...]
    post: tuple[dict[str, Formula], ...]
    observability: dict[str, Chain]
    default: Chain | None

    @property
    def label(self) -> str:
        """The action as a plan writes it: ``(name arg ...)``."""
        return "(" + " ".join((self.name, *self.args)) + ")"

    def observers(self, model: RelationalModel) -> dict[str, str]:
        """Each agent's observability type on *model*: the first condition that holds at every designated world."""
        out: dict[str, str] = {}
        for a in model.agents:
            chain = self.observability.get(a, self.default)
            if chain is None:
                raise ModelError(f"action {self.label}: agent {a} has no observability type (add (default TYPE))")
            for cond, t in chain:
                if model.holds(cond):
                    out[a] = t
                    break
            else:  # pragma: no cover - every chain ends in a true condition
                raise ModelError(f"action {self.label}: no observability condition of agent {a} holds")
        return out

    def event_model(self, model: RelationalModel) -> tuple[EventModel, dict[str, str]]:
        """The event model of this action on *model* (observability resolved there) and each agent's type."""
        obs = self.observers(model)
        rel = {a: [(self.events[i], self.events[j]) for i, j in sorted(self.action_type.relations[t])]
               for a, t in obs.items()}
        em = EventModel(self.events, dict(zip(self.events, self.pre)), dict(zip(self.events, self.post)), rel,
                        [self.events[i] for i in sorted(self.action_type.designated)])
        return em, obs


def atom_name(pred: str, args: Sequence[str]) -> str:
    """The kop atom of a ground EPDDL atom: ``predicate_arg_arg``, hyphens as ``_``.

    >>> atom_name("has-key", ["A"])
    'has_key_A'
    """
    return "_".join((pred, *args)).replace("-", "_")


class _Grounder:
    """Formulas, effects and observability conditions under a binding of variables to objects.

    The grammar has checked their form; this checks names, types and arities against the task.
    """

    def __init__(self, task: EpddlTask, f: _File):
        self.task, self.f = task, f

    def term(self, node: Node, env: Mapping[str, str]) -> str:
        if node.text.startswith("?"):
            if node.text not in env:
                raise self.f.fail(node, f"a bound variable ({node.text} is not a parameter or quantified here)")
            return env[node.text]
        if node.text not in self.task.objects:
            raise self.f.fail(node, "an object or agent of the problem")
        return node.text

    def atom_parts(self, node: Node, env: Mapping[str, str]) -> tuple[str, tuple[str, ...]]:
        pred = node.items[0].text
        p = self.task.domain.predicates.get(pred)
        if p is None:
            raise self.f.fail(node.items[0], "a predicate of the domain, or a formula operator")
        args = tuple(self.term(a, env) for a in node.items[1:])
        if len(args) != len(p.types):
            raise self.f.fail(node, f"{len(p.types)} argument(s) for predicate {pred}")
        for a, t, n in zip(args, p.types, node.items[1:]):
            if not self.task.subtype(self.task.objects[a], t):
                raise self.f.fail(n, f"an argument of type {t} for predicate {pred} ({a} is a {self.task.objects[a]})")
        return pred, args

    def bindings(self, node: Node, env: Mapping[str, str]) -> Iterator[dict[str, str]]:
        """Every binding of a quantifier's typed variables ``(?x - t ... | cond)``."""
        entries, cond = _typed(self.f, node.items, "variable list")
        for _, t, n in entries:
            if t not in self.task.domain.types:
                raise self.f.fail(n, f"a declared type (not {t})")
        for combo in itertools.product(*(self.task.objects_of(t) for _, t, _ in entries)):
            e = dict(env)
            e.update({v: o for (v, _, _), o in zip(entries, combo)})
            if cond is None or self.static(cond, e):
                yield e

    def static(self, node: Node, env: Mapping[str, str]) -> bool:
        """The value of a condition over equalities and facts only."""
        f = self.formula(node, env)
        if f.atoms():
            raise self.f.fail(node, "a condition over =, /= and facts only (it uses " + sorted(f.atoms())[0] + ")")
        return RelationalModel(["w"], {}, {}).holds(f)

    def formula(self, node: Node, env: Mapping[str, str]) -> Formula:
        if node.is_sym:
            return TRUE if node.text == "true" else FALSE
        first = node.items[0]
        if first.kind in "[<":
            return self.modal(first, self.formula(node.items[1], env), env)
        head = first.text
        rest = node.items[1:]
        if head in ("and", "or"):
            parts = [self.formula(k, env) for k in rest]
            return conj(parts) if head == "and" else disj(parts)
        if head == "not":
            return Not(self.formula(rest[0], env))
        if head == "imply":
            return Implies(self.formula(rest[0], env), self.formula(rest[1], env))
        if head in ("forall", "exists"):
            parts = [self.formula(rest[1], e) for e in self.bindings(rest[0], env)]
            return conj(parts) if head == "forall" else disj(parts)
        if head in ("=", "/="):
            same = self.term(rest[0], env) == self.term(rest[1], env)
            return TRUE if same == (head == "=") else FALSE
        if head in ("true", "false") and not rest:
            return TRUE if head == "true" else FALSE
        pred, args = self.atom_parts(node, env)
        if self.task.domain.predicates[pred].fact:
            return TRUE if (pred, *args) in self.task.facts else FALSE
        return Atom(atom_name(pred, args))

    def agents(self, node: Node, env: Mapping[str, str]) -> tuple[str, ...]:
        if node.is_sym and node.text == "All":
            return self.task.agents
        out = []
        for it in node.items if node.kind == "(" else (node,):
            a = self.term(it, env)
            if a not in self.task.agents:
                raise self.f.fail(it, f"an agent ({a} is not one)")
            out.append(a)
        return tuple(dict.fromkeys(out))

    def modal(self, op: Node, arg: Formula, env: Mapping[str, str]) -> Formula:
        """``[a] F``, ``[(a b)] F``, ``[All] F``, ``[C. G] F``, ``[D. G] F``, ``[Kw. G] F`` and their ``<...>`` duals."""
        items = op.items
        box = op.kind == "["
        if len(items) == 2:
            kind = items[0].text
            group = self.agents(items[1], env)
            if kind == "Kw.":
                f: Formula = conj([KnowWhether(a, arg) for a in group])
                return f if box else Not(f)
            cls = Common if kind == "C." else Distributed
            return cls(group, arg) if box else Not(cls(group, Not(arg)))
        group = self.agents(items[0], env)
        if len(group) == 1 and (items[0].is_sym and items[0].text != "All"):
            return Know(group[0], arg) if box else Possible(group[0], arg)
        return Everyone(group, arg) if box else Not(Everyone(group, Not(arg)))

    def effects(self, node: Node, env: Mapping[str, str]) -> dict[str, Formula]:
        """Postconditions: p becomes (some add condition) or (p and no delete condition); adds win, as in PDDL."""
        adds: dict[str, list[Formula]] = {}
        dels: dict[str, list[Formula]] = {}
        self._effects(node, env, TRUE, adds, dels)
        out: dict[str, Formula] = {}
        for p in list(adds) + [q for q in dels if q not in adds]:
            add, delete = disj(adds.get(p, [])), disj(dels.get(p, []))
            if add == TRUE:
                out[p] = TRUE
            elif delete == TRUE:
                out[p] = add
            elif delete == FALSE:
                out[p] = Or(add, Atom(p))
            else:
                keep = And(Atom(p), Not(delete))
                out[p] = keep if add == FALSE else Or(add, keep)
        return out

    def _effects(self, node: Node, env: Mapping[str, str], cond: Formula, adds: dict[str, list[Formula]],
                 dels: dict[str, list[Formula]]) -> None:
        head = node.head()
        rest = node.items[1:]
        if head in (":and", "and"):
            for k in rest:
                self._effects(k, env, cond, adds, dels)
        elif head == "when":
            c = self.formula(rest[0], env)
            self._effects(rest[1], env, c if cond == TRUE else And(cond, c), adds, dels)
        elif head in (":forall", "forall"):
            for e in self.bindings(rest[0], env):
                self._effects(rest[1], e, cond, adds, dels)
        elif head == "not":
            dels.setdefault(self.literal(rest[0], env), []).append(cond)
        else:
            adds.setdefault(self.literal(node, env), []).append(cond)

    def literal(self, node: Node, env: Mapping[str, str]) -> str:
        """The atom of ``(PREDICATE args)``, a fluent."""
        pred, args = self.atom_parts(node, env)
        if self.task.domain.predicates[pred].fact:
            raise self.f.fail(node, f"an effect on a fluent ({pred} is a :fact)")
        return atom_name(pred, args)

    def observability(self, schema: ActionSchema, atype: ActionType, env: Mapping[str, str]
                      ) -> tuple[dict[str, Chain], Chain | None]:
        per: dict[str, Chain] = {}
        default: list[Chain] = []
        types = sorted(atype.relations)
        if schema.observability is None:
            if len(types) != 1:
                raise self.f.fail(schema.node, f"observability conditions ({atype.name} has types {', '.join(types)})")
            return {}, ((TRUE, types[0]),)
        self._obs(schema.observability, env, per, default, types)
        return per, (default[0] if default else None)

    def _obs(self, node: Node, env: Mapping[str, str], per: dict[str, Chain], default: list[Chain],
             types: list[str]) -> None:
        head = node.head()
        if head == ":and":
            for k in node.items[1:]:
                self._obs(k, env, per, default, types)
            return
        if head == ":forall":
            for e in self.bindings(node.items[1], env):
                self._obs(node.items[2], e, per, default, types)
            return
        chain = self._chain(node.items[1], env, types)
        if head == "default":
            if default:
                raise self.f.fail(node, "one default observability type")
            default.append(chain)
            return
        a = self.term(node.items[0], env)
        if a not in self.task.agents:
            raise self.f.fail(node.items[0], f"an agent ({a} is not one)")
        if a in per:
            raise self.f.fail(node, f"one observability condition for agent {a}")
        per[a] = chain

    def _chain(self, node: Node, env: Mapping[str, str], types: list[str]) -> Chain:
        if node.is_sym:
            if node.text not in types:
                raise self.f.fail(node, "an observability type of this action type: " + ", ".join(types))
            return ((TRUE, node.text),)
        items = node.items
        cond = self.formula(items[1], env)
        first = self._chain(items[2], env, types)
        return tuple((And(cond, c) if c != TRUE else cond, t) for c, t in first) + self._chain(items[4], env, types)
