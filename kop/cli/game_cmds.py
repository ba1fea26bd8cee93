"""``kop solve`` and ``kop play``: strategies on game trees (.json kop-tree/1 or Gambit .efg)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kop.cli.app import Commands, positive_int, print_json

if TYPE_CHECKING:  # pragma: no cover
    from kop.games.trees.tree import GameTree, Node

STRATEGY_HELP = "minimax, alphabeta, M<d> (M0 = minimax), Mh or HM0M<d>"
SEARCH_HELP = ("or a search (kop solve only): maxn, bnb, lower_eval, bimodal, paranoid (N players); expectimax, "
               "star1, star2, cscout (chance); naive, substructure, dominating (simultaneous moves)")
_TREE_HELP = "A game tree: .json (kop-tree/1) or .efg (Gambit)."
_SOLVE_HELP = "A game tree: .json (kop-tree/1) or .efg (Gambit), or openspiel:NAME[(params)]."
_TIE_HELP = "Which of equally good children is chosen: first (default) or last."


def _path_text(path: Sequence[Node]) -> str:
    """``root -> S -> U -> X -> (10, 3)``: moves by label, an unlabelled leaf by its payoffs."""
    from kop.games.strategies.strategy import path_words

    return " -> ".join(["root", *path_words(path)])


def strategy_pairs(specs: list[str], flag: str) -> dict[str, str]:
    """``{"A": "M2", ...}`` from ``["A=M2", ...]`` given with *flag*; each name is checked."""
    from kop.games.errors import StrategyError
    from kop.games.names import StrategyName

    chosen: dict[str, str] = {}
    for spec in specs:
        who, sep, name = spec.partition("=")
        if not sep or not who.strip() or not name.strip():
            raise StrategyError(f"{flag} {spec!r}: expected PLAYER=NAME, e.g. A=M2")
        who, name = who.strip(), name.strip()
        if who in chosen:
            raise StrategyError(f"{flag}: player {who} is given twice")
        StrategyName.parse(name, "kop")
        chosen[who] = name
    return chosen


def register(cli: Commands) -> None:
    p = cli.add("solve", _solve, json_help="Print JSON: value (one number per player) and path.")
    p.add_argument("tree_file", metavar="TREE", help=_SOLVE_HELP)
    p.add_argument("--strategy", "-s", default="Mh", metavar="NAME",
                   help=f"The strategy (default: Mh): {STRATEGY_HELP}; {SEARCH_HELP}.")
    p.add_argument("--player", "-p", metavar="PLAYER", help="Whose strategy (default: the first player).")
    p.add_argument("--tie", choices=("first", "last"), default="first", metavar="first|last", help=_TIE_HELP)
    p.add_argument("--depth", type=int, metavar="D",
                   help="openspiel:NAME games: search D plies (default: to the end).")
    p.add_argument("--eval", choices=("payoff", "zero"), default=None, metavar="payoff|zero",
                   help="openspiel:NAME games: score a non-terminal horizon 0 (zero) or refuse (payoff, "
                        "the default).")
    p.add_argument("--max-nodes", type=positive_int, default=None, metavar="N",
                   help="openspiel:NAME games: stop the search past N states (default 2000000).")
    p.add_argument("--key", choices=("history", "string"), default=None, metavar="history|string",
                   help=("openspiel:NAME games: the transposition key, history (default: exact) or string "
                         "(the printed position: faster, wrong where the printout omits part of the state)."))
    p.add_argument("--bounds", metavar="LOW,HIGH", default=None,
                   help="bnb, lower_eval, bimodal, star1, star2: every payoff lies in [LOW, HIGH] "
                        "(checked on every leaf; default: the tree's own least and greatest).")
    p.add_argument("--sum-bounds", metavar="m,M", default=None,
                   help="bnb, lower_eval, bimodal: the payoffs of a leaf sum to between m and M.")

    p = cli.add("play", _play, json_help="Print JSON: outcome (one number per player) and path.")
    p.add_argument("tree_file", metavar="TREE", help=_TREE_HELP)
    p.add_argument("--strategy", "-s", dest="strategies", action="append", required=True, metavar="PLAYER=NAME",
                   help=f"PLAYER=NAME, once per player; NAME is {STRATEGY_HELP}.")
    p.add_argument("--tie", choices=("first", "last"), default="first", metavar="first|last", help=_TIE_HELP)


def _solve(args: argparse.Namespace) -> None:
    """Compute a strategy on TREE: the value at the root and the principal path.

    The path names each move by its move label, else the node label, else the
    child index.  A path through a chance node stops there; the value is then
    the expectation.  TREE may also be an OpenSpiel game, openspiel:NAME or
    openspiel:NAME(params), searched move by move (--depth D for a horizon).
    """
    if args.tree_file.startswith("openspiel:"):
        from kop.cli.agent_cmds import solve_implicit

        solve_implicit(args)
        return
    given = [flag for flag, value in (("--depth", args.depth), ("--eval", args.eval), ("--max-nodes", args.max_nodes))
             if value is not None]
    if given:
        from kop.errors import KopError

        raise KopError(f"{' and '.join(given)} {'applies' if len(given) == 1 else 'apply'} to openspiel:NAME games; "
                       "a tree file is solved whole")
    if args.key is not None:
        from kop.errors import KopError

        raise KopError("--key applies to openspiel:NAME games")
    from kop.io.trees import load_tree
    from kop.games.names import StrategyName
    from kop.games.registry import strategy as by_name
    from kop.games.strategies.strategy import path_steps

    tree_file: str = args.tree_file
    strategy: str = args.strategy
    t = load_tree(tree_file)
    if StrategyName.parse(strategy).family == "bodkin":
        _search(args, t)
        return
    if args.bounds is not None or args.sum_bounds is not None:
        from kop.errors import KopError

        raise KopError("--bounds and --sum-bounds apply to the searches bnb, lower_eval, bimodal, star1, star2")
    s = by_name(t, strategy, args.player, tie=args.tie)
    value = list(s.value)
    steps = path_steps(s.path)
    who = getattr(s, "player", None)
    if args.json:
        out = {"tree": tree_file, "players": list(t.player_names), "strategy": strategy, "player": who,
               "tie": args.tie, "value": value, "path": steps, "nodes": [n.name for n in s.path]}
        if hasattr(s, "visited"):
            out["visited"] = s.visited
        print_json(out)
        return
    goals = ", ".join(map(str, t.players))
    print(f"{strategy}{' for ' + who if who else ''} on {tree_file} (players {goals})")
    print(f"value: ({', '.join(map(str, value))})")
    end = s.path[-1]
    print(f"path:  {_path_text(s.path)}{'  (chance node: expected value)' if end.is_chance else ''}")


def _play(args: argparse.Namespace) -> None:
    """Play the players' strategies against each other on TREE (Definition 2): outcome and path."""
    from kop.io.trees import load_tree
    from kop.games.strategies.play import play

    tree_file: str = args.tree_file
    chosen = strategy_pairs(args.strategies, "--strategy")
    t = load_tree(tree_file)
    out = play(t, chosen, tie=args.tie)
    if args.json:
        print_json({"tree": tree_file, "players": list(t.player_names), "strategies": chosen,
                    "tie": args.tie, "outcome": list(out.value), "path": out.steps,
                    "nodes": [n.name for n in out.path]})
        return
    print(" vs ".join(f"{p}={n}" for p, n in chosen.items()) + f" on {tree_file}")
    print(f"outcome: ({', '.join(map(str, out.value))})")
    tail = "  (chance node: expected value)" if out.leaf is None else ""
    print(f"path:    {_path_text(out.path)}{tail}")


def _pair(text: str, flag: str) -> tuple[float, float]:
    from kop.errors import KopError

    parts = text.split(",")
    try:
        a, b = (float(x) for x in parts)
    except ValueError:
        raise KopError(f"{flag} {text!r}: expected two numbers a,b") from None
    if not (a <= b):
        raise KopError(f"{flag} {text!r}: the first number must be <= the second")
    return a, b


def _search(args: argparse.Namespace, t: GameTree) -> None:
    """``kop solve --strategy <search>``: value, leaves examined, the root move."""
    from kop.games.names import StrategyName
    from kop.games.registry import search

    name = str(StrategyName.parse(args.strategy))
    bounds: dict[str, float] | None = None
    if args.bounds is not None or args.sum_bounds is not None:
        n = len(t.players)
        lo, hi = _pair(args.bounds, "--bounds") if args.bounds is not None else (
            float(t.payoffs.min()), float(t.payoffs.max()))
        m, M = _pair(args.sum_bounds, "--sum-bounds") if args.sum_bounds is not None else (n * lo, n * hi)
        bounds = {"low": lo, "high": hi, "m": m, "M": M}
    r = search(t, name, player=args.player, bounds=bounds)
    d = r.to_dict()
    value = d["value"]
    move = d.get("move")
    step = None
    if move is not None:
        step = t.root.children[move].step
    if args.json:
        print_json({"tree": args.tree_file, "players": list(t.player_names), "strategy": name, "player": args.player,
                    **{k: v for k, v in d.items() if k not in ("algorithm", "nodes")}, "path": [] if step is None else [step]})
        return
    print(f"{name}{' for ' + args.player if args.player else ''} on {args.tree_file} "
          f"(players {', '.join(map(str, t.players))})")
    print(f"value: {tuple(value) if isinstance(value, list) else value}")
    extra = f", {d['lps']} LPs" if "lps" in d else ""
    print(f"leaves examined: {d['leaves']} of {t.n_leaves}{extra}")
    if step is not None:
        print(f"move:  root -> {step}")
    if d.get("row") is not None and 0 in t.simultaneous:  # the root stage's equilibrium (mixed) strategies
        me = t.player_index(args.player)
        who = t.simultaneous[0][0]
        other = who[1] if who[0] == me else who[0]
        mix = ", ".join(f"{t.players[k].name} plays ({', '.join(f'{x:.4g}' for x in d[side])})"
                        for k, side in ((me, "row"), (other, "col")))
        print(f"equilibrium at the root: {mix}")
