"""Answering a theory's questions."""

from __future__ import annotations

import math

from kop.syntax.errors import KopError
from kop.syntax.formula import Formula
from kop.syntax.levels import f_level
from kop.theory.model import Answer, Statement, Theory

__all__ = ["run_theory"]


def _level(x: float) -> int | str:
    return "inf" if x == math.inf else int(x)


def run_theory(theory: Theory, *, timeout: float | None = 60.0) -> list[Answer]:
    """Answer the theory's questions in order.

    ``know`` and ``core`` add to the knowledge (formulas true at the actual
    world); questions see the knowledge stated above them.  ``announce``
    updates the declared model.
    """
    from kop.reasoning.knowledge import level
    from kop.reasoning.prover import entails, satisfiable, valid
    from kop.syntax.printer import to_ascii

    knowledge: list[Formula] = []
    agents: tuple[str, ...] | None = None
    tree = None
    model = None
    answers: list[Answer] = []

    def where(st: Statement) -> str:
        return f"line {st.line}"

    def other(p: str) -> str:
        names = agents or (tree.player_names if tree is not None else ())
        rest = [a for a in names if a != p]
        if len(rest) != 1:
            raise KopError(f"cannot tell who {p}'s opponent is: declare 'agents P, Q' or a two-player tree")
        return rest[0]

    for st in theory.statements:
        k, a = st.kind, st.args
        if k == "tree":
            from kop.games.formats import load_tree

            tree = load_tree(theory.base / a[0])
        elif k == "model":
            from kop.semantics.model import KripkeModel

            model = KripkeModel.load(theory.base / a[0])
        elif k == "agents":
            agents = a
        elif k == "know":
            knowledge.append(a[0])
        elif k == "core":
            knowledge.extend(f_level(a[0], other(a[0]), a[1]))
        elif k == "announce":
            if model is None:
                raise KopError(f"{where(st)}: 'announce' needs a model (model \"FILE\")")
            model = model.announce(a[0])
            answers.append(Answer(st.line, f"announce {to_ascii(a[0])}", {"worlds": len(model.worlds)},
                                  f"announced {to_ascii(a[0])}: {len(model.worlds)} worlds remain"))
        elif k == "ask_formula":
            verb, f = a
            q = f"{verb} {to_ascii(f)}"
            if verb == "check":
                if model is None:
                    raise KopError(f"{where(st)}: 'ask check' needs a model (model \"FILE\")")
                holds = model.satisfies(f)
                worlds = sorted(model.truth_set(f))
                answers.append(Answer(st.line, q, {"holds": holds, "worlds": worlds},
                                      f"{q}: {'yes' if holds else 'no'} (true at {len(worlds)} worlds)"))
                continue
            if verb == "valid":
                v = valid(f, agents=agents, timeout=timeout)
            elif verb == "satisfiable":
                v = satisfiable(f, agents=agents, timeout=timeout)
            else:
                v = entails(knowledge, f, agents=agents, timeout=timeout)
            witness = v.model if (v.holds and verb == "satisfiable") or (not v.holds and verb != "satisfiable") else None
            text = f"{q}: {'yes' if v.holds else 'no'}"
            if witness is not None:
                text += f" ({'model' if verb == 'satisfiable' else 'countermodel'} with {len(witness.worlds)} worlds)"
            answers.append(Answer(st.line, q, {"holds": v.holds,
                                               "model": None if witness is None else witness.to_json()}, text))
        elif k == "ask_level":
            p = a[0]
            lv = level(knowledge, p, other(p), timeout=timeout, agents=agents)
            answers.append(Answer(st.line, f"level {p}", {"level": _level(lv)}, f"level {p}: {_level(lv)}"))
        elif k in ("ask_select", "ask_decided"):
            if tree is None:
                raise KopError(f"{where(st)}: '{k.replace('_', ' ')}' needs a game tree (tree \"FILE\")")
            if k == "ask_decided":
                from kop.selection.decide import decide

                names = [n.name for n in decide(tree, knowledge, timeout=timeout).decided_nodes()]
                answers.append(Answer(st.line, "decided", {"decided": names},
                                      f"decided nodes: {', '.join(names) or 'none'}"))
            else:
                from kop.selection.selector import select

                s = select(tree, knowledge, a[0] if a else None, timeout=timeout)
                answers.append(Answer(st.line, f"select {s.player}", s.to_json(), s.explain()))
    return answers
