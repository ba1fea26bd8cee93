"""``kop solve`` and ``kop play``: strategies on game trees (.json kop-tree/1 or Gambit .efg)."""

from __future__ import annotations

import json
from enum import Enum
from typing import Optional

import typer

STRATEGY_HELP = "minimax, alphabeta, M<d> (M0 = minimax), Mh or HM0M<d>"


class Tie(str, Enum):
    first = "first"
    last = "last"


def _path_text(steps: list) -> str:
    return " -> ".join(["root", *map(str, steps)])


def register(app: typer.Typer) -> None:
    @app.command("solve")
    def solve_command(
        tree_file: str = typer.Argument(..., metavar="TREE", help="A game tree: .json (kop-tree/1) or .efg (Gambit)."),
        strategy: str = typer.Option("Mh", "--strategy", "-s", help=f"The strategy: {STRATEGY_HELP}."),
        player: Optional[str] = typer.Option(None, "--player", "-p", help="Whose strategy (default: the first player)."),
        tie: Tie = typer.Option(Tie.first, "--tie", help="Which of equally good children is chosen."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON: value (one number per player) and path."),
    ) -> None:
        """Compute a strategy on TREE: the value at the root and the principal path.

        The path names each move by its move label, else the node label, else the
        child index.  A path through a chance node stops there; the value is then
        the expectation.
        """
        from kop.games.formats import load_tree
        from kop.games.names import strategy as by_name
        from kop.games.strategy import path_steps

        t = load_tree(tree_file)
        s = by_name(t, strategy, player, tie=tie.value)
        value = list(s.value())
        steps = path_steps(s.path())
        who = getattr(s, "player", None)
        if as_json:
            out = {"tree": tree_file, "players": list(t.player_names), "strategy": strategy, "player": who,
                   "tie": tie.value, "value": value, "path": steps}
            if hasattr(s, "visited"):
                out["visited"] = s.visited
            print(json.dumps(out))
            return
        goals = ", ".join(map(str, t.players))
        print(f"{strategy}{' for ' + who if who else ''} on {tree_file} (players {goals})")
        print(f"value: ({', '.join(map(str, value))})")
        end = s.path()[-1]
        print(f"path:  {_path_text(steps)}{'  (chance node: expected value)' if end.is_chance else ''}")

    @app.command("play")
    def play_command(
        tree_file: str = typer.Argument(..., metavar="TREE", help="A game tree: .json (kop-tree/1) or .efg (Gambit)."),
        strategies: list[str] = typer.Option(..., "--strategy", "-s",
                                             help=f"PLAYER=NAME, once per player; NAME is {STRATEGY_HELP}."),
        tie: Tie = typer.Option(Tie.first, "--tie", help="Which of equally good children is chosen."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON: outcome (one number per player) and path."),
    ) -> None:
        """Play the players' strategies against each other on TREE (Definition 2): outcome and path."""
        from kop.games.errors import StrategyError
        from kop.games.formats import load_tree
        from kop.games.names import parse_strategy_name
        from kop.games.play import play

        chosen: dict[str, str] = {}
        for spec in strategies:
            who, sep, name = spec.partition("=")
            if not sep or not who.strip() or not name.strip():
                raise StrategyError(f"--strategy {spec!r}: expected PLAYER=NAME, e.g. A=M2")
            who, name = who.strip(), name.strip()
            if who in chosen:
                raise StrategyError(f"--strategy: player {who} is given twice")
            parse_strategy_name(name)
            chosen[who] = name
        t = load_tree(tree_file)
        out = play(t, chosen, tie=tie.value)
        if as_json:
            print(json.dumps({"tree": tree_file, "players": list(t.player_names), "strategies": chosen,
                              "tie": tie.value, "outcome": list(out.value), "path": out.steps}))
            return
        print(" vs ".join(f"{p}={n}" for p, n in chosen.items()) + f" on {tree_file}")
        print(f"outcome: ({', '.join(map(str, out.value))})")
        tail = "  (chance node: expected value)" if out.leaf is None else ""
        print(f"path:    {_path_text(out.steps)}{tail}")
