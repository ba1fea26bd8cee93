"""A grounded EPDDL task: a domain and a problem read together, with the ground actions on demand.

>>> from kop.io.epddl import DOMAIN_EXAMPLE, PROBLEM_EXAMPLE
>>> task = load_task(DOMAIN_EXAMPLE, PROBLEM_EXAMPLE)
>>> task.agents, sorted(task.atoms), str(task.goal)
(('a', 'b'), ['heads'], 'K_a heads')
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

from kop.io.epddl.actiontypes import ActionType, parse_library
from kop.io.epddl.domain import EpddlDomain, parse_domain
from kop.io.epddl.grounding import GroundAction, _Grounder, atom_name
from kop.io.epddl.initial import initial_state
from kop.io.epddl.problem import EpddlProblem, parse_problem
from kop.io.epddl.syntax import Node, _File
from kop.syntax.formula import ATOM_RE, TRUE, AGENT_RE, Formula, is_reserved_atom

__all__ = ["EpddlTask", "load_task"]


def load_task(domain: str, problem: str, domain_source: str = "", problem_source: str = "",
              libraries: Sequence[tuple[str, str]] = ()) -> EpddlTask:
    """Read and ground a domain and a problem (their texts), with action-type libraries ``(text, source)``.

    Raises
    ------
    EpddlError
        Located in the file at fault.

    Example
    -------
    >>> from kop.io.epddl import DOMAIN_EXAMPLE, PROBLEM_EXAMPLE
    >>> len(load_task(DOMAIN_EXAMPLE, PROBLEM_EXAMPLE).initial)
    2
    """
    libs: dict[str, dict[str, ActionType]] = {}
    for text, source in libraries:
        name, types = parse_library(text, source)
        libs[name] = types
    return EpddlTask(parse_domain(domain, domain_source, libs), parse_problem(problem, problem_source))


class EpddlTask:
    """A grounded planning task: the initial state, the goal, and the ground actions on demand.

    Build it with :func:`load_task`.
    """

    def __init__(self, domain: EpddlDomain, problem: EpddlProblem):
        if problem.domain != domain.name:
            pf = _File(problem.text, problem.source)
            raise pf.fail(problem.where.get(":domain", problem.init),
                          f"a problem for domain {domain.name} (the domain file defines {domain.name})")
        self.domain, self.problem = domain, problem
        self.objects: dict[str, str] = {}
        self._dfile = _File(domain.text, domain.source)
        self._pfile = _File(problem.text, problem.source)
        for o, t in list(domain.constants.items()) + list(problem.objects.items()):
            self.objects[o] = t
        for a in problem.agents:
            if a in self.objects:
                raise self._pfile.fail(problem.where.get(a, problem.init), f"agent {a} not also declared as an object")
            self.objects[a] = "agent"
        #: the agents: the problem's (:agents ...) and the constants and objects of type agent
        self.agents: tuple[str, ...] = tuple(o for o, t in self.objects.items() if t == "agent")
        if not self.agents:
            raise self._pfile.fail(problem.init, "an (:agents ...) section (the problem has no agent)", "")
        for a in self.agents:
            if AGENT_RE.fullmatch(a) is None:
                raise self._pfile.fail(problem.where.get(a, problem.init), f"agent names of letters, digits and _ "
                                       f"({a} is not one)")
        for o, t in self.objects.items():
            if t not in domain.types:
                raise self._pfile.fail(problem.where.get(o, problem.init), f"a type of the domain for object {o} (not {t})")
        self.facts: set[tuple[str, ...]] = set()
        g = _Grounder(self, self._pfile)
        for fact in problem.facts:
            pred, args = g.atom_parts(fact, {})
            if not domain.predicates[pred].fact:
                raise self._pfile.fail(fact, f"a :fact predicate in :facts-init ({pred} is not one)")
            self.facts.add((pred, *args))
        self.atoms: dict[str, tuple[str, ...]] = self._atoms()
        self.initial = initial_state(self, g)
        self.goal = g.formula(problem.goal, {})
        self._actions: dict[tuple[str, tuple[str, ...]], GroundAction] = {}
        self._check_schemas()

    def _check_schemas(self) -> None:
        """Ground every event and action once (their first binding), so that a misspelt name is reported now."""
        g = _Grounder(self, self._dfile)
        for ev in self.domain.events.values():
            for combo in itertools.islice(itertools.product(*(self.objects_of(t) for _, t in ev.params)), 1):
                env = {v: o for (v, _), o in zip(ev.params, combo)}
                if ev.precondition is not None:
                    g.formula(ev.precondition, env)
                if ev.effects is not None:
                    g.effects(ev.effects, env)
        for name, args in self.ground_names().values():
            schema = self.domain.actions[name]
            env = dict(zip((v for v, _ in schema.params), args))
            if schema.condition is None or g.static(schema.condition, env):
                self.action(name, args)
                break

    def objects_of(self, t: str) -> list[str]:
        """The objects (and agents) of type *t* or a subtype, in declaration order."""
        return [o for o, ot in self.objects.items() if self.subtype(ot, t)]

    def subtype(self, t: str, of: str) -> bool:
        """Whether type *t* is *of* or one of its subtypes.

        >>> from kop.io.epddl import DOMAIN_EXAMPLE, PROBLEM_EXAMPLE
        >>> load_task(DOMAIN_EXAMPLE, PROBLEM_EXAMPLE).subtype("agent", "object")
        True
        """
        while t:
            if t == of:
                return True
            t = self.domain.types.get(t, "")
        return False

    def action(self, name: str, args: Sequence[str], where: tuple[_File, Node] | None = None) -> GroundAction:
        """The ground action ``(name args...)``.

        Raises
        ------
        EpddlError
            Located at *where* (a plan line) or at the action: an unknown action or object,
            a wrong number or type of arguments, arguments that fail the parameters' condition.
        """
        key = (name, tuple(args))
        if key in self._actions:
            return self._actions[key]
        f, node = where if where is not None else (self._dfile, Node("sym", name, (), 1, 1))
        schema = self.domain.actions.get(name)
        if schema is None:
            raise f.fail(node, "an action of the domain: " + ", ".join(sorted(self.domain.actions)))
        if len(args) != len(schema.params):
            raise f.fail(node, f"{len(schema.params)} argument(s) for {name} "
                         f"({' '.join(v + ' - ' + t for v, t in schema.params)})")
        env: dict[str, str] = {}
        for (var, t), arg in zip(schema.params, args):
            if arg not in self.objects:
                raise f.fail(node, f"objects and agents of the problem as arguments ({arg} is neither)")
            if not self.subtype(self.objects[arg], t):
                raise f.fail(node, f"an argument of type {t} for {var} ({arg} is a {self.objects[arg]})")
            env[var] = arg
        g = _Grounder(self, self._dfile)
        if schema.condition is not None and not g.static(schema.condition, env):
            raise f.fail(node, f"arguments that satisfy the parameters' condition {schema.condition.show()}")
        atype = self.domain.action_types[schema.action_type]
        names, pres, posts = self._events(g, atype, schema.events, env)
        obs, default = g.observability(schema, atype, env)
        ga = GroundAction(name, tuple(args), atype, tuple(names), tuple(pres), tuple(posts), obs, default)
        self._actions[key] = ga
        return ga

    def ground_names(self) -> dict[str, tuple[str, tuple[str, ...]]]:
        """``name_arg_arg`` (as planners print plans) -> (name, args), for every well-typed argument list."""
        out: dict[str, tuple[str, tuple[str, ...]]] = {}
        for schema in self.domain.actions.values():
            for combo in itertools.product(*(self.objects_of(t) for _, t in schema.params)):
                out["_".join((schema.name, *combo))] = (schema.name, tuple(combo))
        return out

    def _events(self, g: _Grounder, atype: ActionType, refs: Sequence[Node], env: Mapping[str, str]
                ) -> tuple[list[str], list[Formula], list[dict[str, Formula]]]:
        """The ground events an action puts in its action type's slots: names, preconditions, postconditions."""
        names: list[str] = []
        pres: list[Formula] = []
        posts: list[dict[str, Formula]] = []
        for slot, ref in zip(atype.slots, refs):
            ev = self.domain.events.get(ref.items[0].text)
            if ev is None:
                raise self._dfile.fail(ref.items[0], "an event of the domain: " + ", ".join(sorted(self.domain.events)))
            if len(ref.items) - 1 != len(ev.params):
                raise self._dfile.fail(ref, f"{len(ev.params)} argument(s) for event {ev.name}")
            eenv = {}
            for (var, t), a in zip(ev.params, ref.items[1:]):
                val = g.term(a, env)
                if not self.subtype(self.objects[val], t):
                    raise self._dfile.fail(a, f"an argument of type {t} for {var} of event {ev.name}")
                eenv[var] = val
            pre = g.formula(ev.precondition, eenv) if ev.precondition is not None else TRUE
            post = g.effects(ev.effects, eenv) if ev.effects is not None else {}
            k = len(names)
            if k in atype.trivial and (pre != TRUE or post):
                raise self._dfile.fail(ref, f"the trivial event (no precondition, no effect) in {atype.name}'s "
                                       f"slot {slot} ({ev.name} is not trivial)")
            if k in atype.static and post:
                raise self._dfile.fail(ref, f"an event without effects in {atype.name}'s slot {slot} "
                                       f"({ev.name} has effects)")
            label = "(" + " ".join([ev.name, *eenv.values()]) + ")"
            if label in names:
                label = f"{label}#{slot}"
            names.append(label)
            pres.append(pre)
            posts.append(post)
        return names, pres, posts

    def _atoms(self) -> dict[str, tuple[str, ...]]:
        """The ground atoms of the fluents: kop atom -> (predicate, args)."""
        out: dict[str, tuple[str, ...]] = {}
        for p in self.domain.predicates.values():
            if p.fact:
                continue
            for combo in itertools.product(*(self.objects_of(t) for t in p.types)):
                name = atom_name(p.name, combo)
                if ATOM_RE.fullmatch(name) is None or is_reserved_atom(name):
                    raise self._dfile.fail(p.node, f"a predicate whose ground atoms are kop atoms ({name} is not)")
                if name in out:
                    raise self._dfile.fail(p.node, f"predicates whose ground atoms differ (two give {name})")
                out[name] = (p.name, *combo)
        return out
