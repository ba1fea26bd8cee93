"""``kop match``: agents with knowledge play a game move by move, and say why.

GAME is a tree file (``.json`` kop-tree/1 or ``.efg``), a theory file (``.kop``,
its game and, with ``--scenario``, its knowledge) or ``openspiel:NAME[(params)]``.
Each ``--agent`` is ``NAME`` or ``NAME=ITEM;ITEM;...`` with items

* ``level:D``       the agent knows f(NAME, OPPONENT, D) (``level:inf``: common knowledge of E_A, E_B);
* ``knowledge:F``   the agent's knowledge includes formula F (repeatable; ``k:F`` for short);
* ``strategy:S``    force strategy S (minimax, alphabeta, M<d>, Mh, HM0M<d>) instead of the selector's;
* ``depth:D``       search horizon in plies;
* ``eval:payoff``   score states by the game's payoff (the default) or ``eval:zero`` (0 at a non-terminal horizon).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kop.cli.app import Commands, positive_int, print_json

if TYPE_CHECKING:  # pragma: no cover
    from kop.agents.agent import Agent
    from kop.syntax.formula import Formula

__all__ = ["register", "load_game", "parse_agent_spec", "AgentSpec"]

#: the CLI's default budget of states per search (a game searched to the end may be huge)
DEFAULT_MAX_NODES = 2_000_000

KEY_HELP = ("openspiel:NAME games: the transposition key, history (default: exact) or string (the printed "
            "position: faster, wrong where the printout omits part of the state, e.g. pig's turn counter).")
_GAME_HELP = "A tree file (.json, .efg), a theory file (.kop) or openspiel:NAME[(params)]."


def register(cli: Commands) -> None:
    p = cli.add("match", _match, json_help="Print JSON: players, agents, outcome, moves and the per-move log.")
    p.add_argument("game", metavar="GAME", help=_GAME_HELP)
    p.add_argument("--agent", "-a", dest="agents", action="append", default=[], metavar="NAME=ITEMS",
                   help="An agent, once per player, in seat order (or named after the players): NAME or "
                        "NAME=ITEM;ITEM with items level:D, knowledge:FORMULA, strategy:S, depth:D, "
                        "eval:payoff|zero.")
    p.add_argument("--communication", action="store_true",
                   help="Carry out communication scheme I when an agent's knowledge allows it.")
    p.add_argument("--scenario", metavar="NAME", help="Theory files: give each agent its knowledge in this scenario.")
    p.add_argument("--seed", type=int, default=0, metavar="N", help="Seed of the chance moves (default 0).")
    p.add_argument("--timeout", type=float, default=30.0, metavar="SECONDS", help="Seconds per prover question.")
    p.add_argument("--max-nodes", type=positive_int, default=DEFAULT_MAX_NODES, metavar="N",
                   help=f"Stop a search past N states (default {DEFAULT_MAX_NODES}).")
    p.add_argument("--key", choices=("history", "string"), default=None, metavar="history|string",
                   help=KEY_HELP)
    p.add_argument("--cells", choices=("auto", "exact", "sampled"), default="auto", metavar="auto|exact|sampled",
                   help="Imperfect-information openspiel:NAME games: each agent's knowledge cell enumerated "
                        "(exact), sampled by OpenSpiel's resample_from_infostate, or exact when the game is "
                        "small enough (auto, the default).")


@dataclass
class AgentSpec:
    """An ``--agent`` value, parsed."""

    name: str
    levels: list[str] = field(default_factory=list)
    formulas: list[str] = field(default_factory=list)
    strategy: str | None = None
    depth: int | None = None
    evaluation: str = "payoff"


def parse_agent_spec(text: str) -> AgentSpec:
    """Parse ``NAME`` or ``NAME=ITEM;ITEM;...`` (see the module docstring).

    >>> parse_agent_spec("A=level:2;strategy:M2;depth:4")
    AgentSpec(name='A', levels=['2'], formulas=[], strategy='M2', depth=4, evaluation='payoff')
    """
    from kop.errors import KopError

    name, sep, rest = text.partition("=")
    name = name.strip()
    if not name:
        raise KopError(f"--agent {text!r}: expected NAME or NAME=ITEM;ITEM, e.g. A=level:2")
    spec = AgentSpec(name)
    if not sep:
        return spec
    for raw in rest.split(";"):
        item = raw.strip()
        if not item:
            continue
        key, colon, value = item.partition(":")
        key, value = key.strip().lower(), value.strip()
        if not colon or not value:
            raise KopError(f"--agent {text!r}: item {item!r} is not KEY:VALUE "
                           "(keys: level, knowledge, strategy, depth, eval)")
        if key == "level":
            if value != "inf" and not value.isdigit():
                raise KopError(f"--agent {text!r}: level:{value} must be a number >= 0 or inf")
            spec.levels.append(value)
        elif key in ("knowledge", "k"):
            spec.formulas.append(value)
        elif key == "strategy":
            spec.strategy = value
        elif key == "depth":
            if not value.isdigit():
                raise KopError(f"--agent {text!r}: depth:{value} must be an integer >= 0")
            spec.depth = int(value)
        elif key == "eval":
            if value not in ("payoff", "zero"):
                raise KopError(f"--agent {text!r}: eval:{value} must be payoff or zero")
            spec.evaluation = value
        else:
            raise KopError(f"--agent {text!r}: unknown item {key!r} (keys: level, knowledge, strategy, depth, eval)")
    return spec


def load_game(spec: str, scenario: str | None = None, timeout: float | None = None,
              key: str | None = None) -> tuple[Any, dict[str, tuple[Formula, ...]]]:
    """(the game, knowledge per agent name from a theory scenario) for a GAME argument.

    *key* is the transposition key of an ``openspiel:`` game (``history``, the default, or
    ``string``); it is refused for other games.
    """
    from kop.games.search.treegame import TreeGame
    from kop.errors import KopError

    if spec.startswith("openspiel:"):
        from kop.games.search.openspiel import from_openspiel

        if scenario is not None:
            raise KopError("--scenario applies to theory files")
        game = from_openspiel(spec[len("openspiel:"):], key=key or "history")
        if not game.key_exact:
            print(f"warning: --key {game.key_name} keys a state by its printed position, which is exact only "
                  "where the printout is the whole state; it merges states the printout does not tell apart "
                  "(pig prints the scores, not the turn its horizon counts) and can give wrong values; "
                  "--key history (the default) is exact", file=sys.stderr)
        return game, {}
    if key is not None:
        raise KopError("--key applies to openspiel:NAME games")
    if spec.endswith(".kop"):
        from kop.theory import TheoryRun, load_theory

        run = TheoryRun(load_theory(spec), timeout=timeout, scenario=scenario, questions=False)
        ctxs = run.scenarios()
        if run.tree is None:
            raise KopError(f"{spec}: the theory states no game ('game ...' or tree \"FILE\")")
        knowledge: dict[str, tuple[Formula, ...]] = {}
        if scenario is not None:
            name = next((c.name for c in ctxs if c.name == scenario), ctxs[0].name)
            for player in run.tree.player_names:
                knowledge[player] = run.knowledge(name, player)
        return TreeGame(run.tree), knowledge
    if scenario is not None:
        raise KopError("--scenario applies to theory files")
    from kop.io.trees import load_tree

    return TreeGame(load_tree(spec)), {}


def _evaluation(kind: str, game: Any, seat: int) -> Callable[[Any], float] | None:
    if kind == "payoff":
        return None
    from kop.games.search.implicit import GameView

    view = GameView(game)

    def zero(state: Any) -> float:
        return view.payoff_vector(state)[seat] if view.is_terminal(state) else 0.0
    return zero


def build_agents(game: Any, specs: list[AgentSpec], scenario_knowledge: dict[str, tuple[Formula, ...]],
                 timeout: float | None, max_nodes: int | None = None) -> list[Agent]:
    """The agents of *specs*, seated by player name when they are named after the players, else in order."""
    from kop.agents.agent import Agent
    from kop.games.search.implicit import GameView
    from kop.errors import KopError
    from kop.syntax.formula import And, Common
    from kop.syntax.levels import evaluation, f_level

    names = list(GameView(game).names)
    if len(specs) != len(names):
        raise KopError(f"{len(specs)} --agent for the {len(names)} players of the game ({', '.join(names)})")
    if sorted(s.name for s in specs) == sorted(names):
        specs = sorted(specs, key=lambda s: names.index(s.name))
    agent_names = [s.name for s in specs]
    agents = []
    for i, s in enumerate(specs):
        others = [n for n in agent_names if n != s.name]
        knowledge: list[Formula | str] = list(scenario_knowledge.get(s.name, ()))
        for lv in s.levels:
            if len(others) != 1:
                raise KopError(f"--agent {s.name}: level:{lv} needs exactly two agents")
            if lv == "inf":
                knowledge.append(Common(tuple(agent_names), And(evaluation(s.name), evaluation(others[0]))))
                knowledge.extend(f_level(s.name, others[0], 0))
            else:
                knowledge.extend(f_level(s.name, others[0], int(lv)))
        knowledge.extend(s.formulas)
        agents.append(Agent(s.name, _evaluation(s.evaluation, game, i), knowledge, strategy=s.strategy,
                            depth=s.depth, timeout=timeout, max_nodes=max_nodes))
    return agents


def _match(args: argparse.Namespace) -> None:
    """Agents with knowledge play GAME move by move: each move with its strategy and reasons, and the outcome.

    At each of its states an agent asks the strategy selector what its knowledge
    justifies in the subtree below (to its horizon), and plays that strategy.
    With --communication, an agent whose level is at least 1 announces E_A and
    E_B (scheme I); afterwards both play M^h.  Examples:

      kop match theories/figure2.json --agent A=level:2 --agent B=level:1
      kop match theories/figure2.json -a A=level:2 -a B=level:1 --communication
      kop match theories/figure2.kop --scenario s4 -a A -a B
      kop match openspiel:tic_tac_toe -a X=level:1 -a O
      kop match openspiel:kuhn_poker -a A=strategy:gvm -a B=strategy:vm

    On an OpenSpiel game with imperfect information (Kuhn or Leduc poker, Liar's dice, ...) each
    agent plays strategy:mc, vm or gvm (default gvm) from its knowledge cell, never the true state;
    --cells chooses exact or sampled cells.
    """
    from kop.agents.match import Match

    specs = [parse_agent_spec(a) for a in args.agents]
    if args.game.startswith("openspiel:") and _imperfect(args.game[len("openspiel:"):]):
        _match_imperfect(args, specs)
        return
    game, knowledge = load_game(args.game, args.scenario, args.timeout, args.key)
    agents = build_agents(game, specs, knowledge, args.timeout, args.max_nodes)
    from kop.games.search.implicit import GameView

    seats = dict(zip(GameView(game).names, agents))   # seated by build_agents: by name, else in order
    result = Match(game, seats, args.communication, seed=args.seed).play()
    if args.json:
        print_json({"game": args.game, "communication": args.communication, **result.to_json()})
        return
    print(f"match on {args.game}{' with communication' if args.communication else ''}")
    print(result.explain())


def _imperfect(name: str) -> bool:
    from kop.agents.imperfect import is_imperfect
    from kop.errors import KopError

    try:
        return is_imperfect(name)
    except KopError:
        return False    # load_game reports the error as for any openspiel:NAME


def _match_imperfect(args: argparse.Namespace, specs: list[AgentSpec]) -> None:
    """``kop match openspiel:NAME`` on an imperfect-information game: each agent plays mc, vm or gvm (item
    ``strategy:``, default gvm) from its knowledge cell (docs/imperfect-information-play.md)."""
    from kop.agents.imperfect import play_openspiel
    from kop.errors import KopError
    from kop.worlds.infostates import ALGORITHMS

    if args.scenario is not None or args.key is not None or args.communication:
        raise KopError(f"{args.game} has imperfect information: --scenario, --key and --communication apply to "
                       "perfect-information games")
    if len(specs) != 2:
        raise KopError(f"{len(specs)} --agent for the 2 players of the game (P0, P1)")
    if sorted(s.name for s in specs) == ["P0", "P1"]:
        specs = sorted(specs, key=lambda s: s.name)
    algorithms = []
    for s in specs:
        if s.levels or s.formulas or s.depth is not None or s.evaluation != "payoff":
            raise KopError(f"--agent {s.name}: on a game with imperfect information an agent plays "
                           f"strategy:{'|'.join(ALGORITHMS)} from its knowledge cell; level, knowledge, depth "
                           "and eval apply to perfect-information games")
        strategy = s.strategy or "gvm"
        if strategy not in ALGORITHMS:
            raise KopError(f"--agent {s.name}: strategy:{strategy} is not a possible-worlds algorithm; on a game "
                           f"with imperfect information choose one of {', '.join(ALGORITHMS)}")
        algorithms.append(strategy)
    result = play_openspiel(args.game[len("openspiel:"):], algorithms, names=[s.name for s in specs],
                            seed=args.seed, cells=args.cells)
    sampled = any(e.kind == "move" and "sampled" in e.text for e in result.log)
    cells = "sampled" if sampled else "exact"
    if args.json:
        print_json({"game": args.game, "communication": False, "cells": cells, **result.to_json()})
        return
    print(f"match on {args.game} (imperfect information: each agent moves from its {cells} knowledge cell)")
    print(result.explain())


def solve_implicit(args: argparse.Namespace) -> None:
    """``kop solve openspiel:NAME``: search the game (depth-limited with --depth)."""
    from kop.games.registry import search

    game, _ = load_game(args.tree_file, key=args.key)
    evs = None
    if getattr(args, "eval", "payoff") == "zero":
        evs = {p.name: _evaluation("zero", game, i) for i, p in enumerate(game.players)}
    r = search(game, args.strategy, depth=args.depth, player=args.player, evaluations=evs, tie=args.tie,
               max_nodes=args.max_nodes if args.max_nodes is not None else DEFAULT_MAX_NODES)
    if args.json:
        print_json({"game": args.tree_file, "players": [p.name for p in game.players], **r.to_json(),
                    "tie": args.tie, "key": game.key_name, "key_exact": game.key_exact})
        return
    who = f" for {r.player}" if r.player else ""
    depth = "to the end" if r.depth is None else f"to depth {r.depth}"
    print(f"{args.strategy}{who} on {args.tree_file} (players {', '.join(p.name for p in game.players)}), {depth}")
    print(f"value: ({', '.join(map(str, r.to_json()['value']))})")
    print(f"move:  {r.move_name}")
    print(f"pv:    {' '.join(r.pv_names) or '-'}")
    print(f"nodes: {r.nodes}")
    print(f"key:   {game.key_name} ({'exact: the action history' if game.key_exact else 'INEXACT: the printed position'})")
