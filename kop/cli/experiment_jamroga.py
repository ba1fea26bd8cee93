"""``kop experiment jamroga``: Jamroga's competitions (Figs. 4, 5 and 8) beside the paper's tables."""

from __future__ import annotations

import argparse

from kop.cli.app import Commands, print_json
from kop.cli.experiment_options import add_runner_options, inherit_json, runner_kwargs


def register(group: Commands) -> None:
    p = group.add("jamroga", _jamroga, json_help='Print JSON: {"figure", "settings", "rows": [{"a", "b", '
                  '"triumph", "payoff", "paper": {"triumph", "payoff"}}]}.')
    p.add_argument("--fig", type=int, required=True, choices=(4, 5, 8), metavar="4|5|8",
                   help="Which figure: 4 (MC, vm, prm, opt-bd), 5 (random belief sets) or 8 (gvm, card game).")
    p.add_argument("--games", type=int, default=None, metavar="G",
                   help="Games per table (default: the paper's, 2000 / 20000 / 1000; --small: 400 / 400 / 200).")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="The experiment's seed (default 0).")
    p.add_argument("--small", action="store_true",
                   help="Smaller games (D = 6 instead of 8, N = 300; the card game as in the paper), "
                        "fewer of them: well under a minute.")
    add_runner_options(p)
    inherit_json(p)


def _jamroga(args: argparse.Namespace) -> None:
    """Jamroga's competitions between MC, vm, prm, opt-bd and gvm, beside the paper's tables.

    Each game is played twice per pair with the roles swapped; 'triumph' is the
    first algorithm's triumph supremacy (rounds won minus rounds lost, in percent
    of the rounds), 'payoff' its payoff supremacy per 1000 rounds.  The paper:
    W. Jamroga, A Defense Model for Games with Incomplete Information, KI 2001.
    docs/reproduction.md discusses where the numbers differ.
    """
    from kop.experiments.jamroga import run_figure

    if args.games is not None and args.games < 1:
        from kop.experiments.runner import ExperimentError

        raise ExperimentError(f"--games must be a positive integer, got {args.games}")
    doc = run_figure(args.fig, args.games, args.seed, args.small, **runner_kwargs(args))
    if args.json:
        print_json(doc)
        return
    print(f"Jamroga (KI 2001), Fig. {args.fig}: kop beside the paper (seed {args.seed}"
          f"{', small' if args.small else ''})")
    for t in doc["settings"]["tables"]:
        game = (f"card game n={t['n']}, c={t['c']}" if t["game"] == "card game" else "random binary trees")
        print(f"  {t['table']}: {game}, D={t['depth']}, N={t['worlds']}, {t['games']} games, "
              f"beliefs: {t['setting']}")
    head = f"{'a vs b':<16}{'triumph':>9}{'payoff':>9}   {'paper':>7}{'paper':>9}   direction"
    print(head)
    print(f"{'':<16}{'(%)':>9}{'(/1000)':>9}   {'(%)':>7}{'(/1000)':>9}")
    for r in doc["rows"]:
        same = (r["triumph"] > 0) == (r["paper"]["triumph"] > 0)
        print(f"{r['a'] + ' vs ' + r['b']:<16}{r['triumph']:>9.1f}{r['payoff']:>9.1f}   "
              f"{r['paper']['triumph']:>7.1f}{r['paper']['payoff']:>9.1f}   {'same' if same else 'DIFFERENT'}")
