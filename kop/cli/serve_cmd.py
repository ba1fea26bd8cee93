"""``kop serve``: the playground in the browser, served locally (docs/playground.md).

    kop serve                       # http://127.0.0.1:8765/, the files of the current folder
    kop serve --root theories --port 0 --open
"""

from __future__ import annotations

import argparse

from kop.cli.app import Commands, print_json


def register(cli: Commands) -> None:
    p = cli.add("serve", _serve, json_help="Print JSON: the address, once it listens.")
    p.add_argument("--port", type=int, default=8765, metavar="N",
                   help="The port (default 8765; 0 picks a free one).")
    p.add_argument("--root", default=".", metavar="FOLDER",
                   help="The only folder whose files the page lists and reads (default: the current folder).")
    p.add_argument("--host", default="127.0.0.1", metavar="HOST",
                   help="The address to listen on (default 127.0.0.1). Another host makes the page reachable "
                        "from the network, without a login: unsafe.")
    p.add_argument("--open", dest="open_browser", action="store_true", help="Open the page in a web browser.")
    p.add_argument("--timeout", type=float, default=20.0, metavar="SECONDS",
                   help="Seconds of work per request (default 20).")


def _serve(args: argparse.Namespace) -> int | None:
    """Serve the playground: theories, models, stories, matches and experiments in the browser.

    A local web page (Starlette and uvicorn, the serve extra) on 127.0.0.1:
    Theory (an editor with errors underlined as you type, the dominance
    report and the game's picture), Model (click a world, highlight a
    formula, step through announcements and upgrades), Story, Match and
    Experiment.  Only files under --root are listed or read; each request
    has a time limit (--timeout); nothing is written to disk.  Ctrl-C stops it.
    """
    from kop.errors import KopError
    from kop.serve import serve
    from kop.syntax.budget import check_timeout

    if not 0 <= args.port <= 65535:
        raise KopError(f"--port {args.port}: expected 0 to 65535")
    timeout = check_timeout(args.timeout, "--timeout")
    unsafe = args.host not in ("127.0.0.1", "localhost", "::1")

    def ready(url: str) -> None:
        if args.json:
            print_json({"url": url, "root": args.root, "host": args.host})
        else:
            print(f"kop playground: {url}  (files under {args.root}; Ctrl-C stops it)")
            if unsafe:
                print(f"warning: listening on {args.host}: anyone who can reach it can use the page (no login)")
        import sys

        sys.stdout.flush()

    serve(args.root, host=args.host, port=args.port, timeout=timeout or 20.0, open_browser=args.open_browser,
          ready=ready)
    return None
