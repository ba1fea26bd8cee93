"""``kop check``, ``kop announce``, ``kop minimize``: questions and updates on Kripke models.

Models are ``kop-model/1`` JSON files (see ``docs/formats.md``).  Bad input
(a malformed model, a formula that does not parse, an unknown agent or world)
is reported in one line, with exit status 2.

    kop check theories/two_generals.model.json "K_a p" --json
    kop announce theories/muddy3.model.json "~K_a m_a" -o after.json
    kop minimize after.json -o small.json
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kop.cli.app import Commands, plural, print_json

if TYPE_CHECKING:
    from kop.semantics.model import KripkeModel

_MODEL_HELP = "A Kripke model in the kop-model/1 JSON format."


def _load(path: Path) -> KripkeModel:
    from kop.semantics.model import KripkeModel

    return KripkeModel.load(path)


def _write(model: KripkeModel, out: Path | None, as_json: bool) -> None:
    """Write *model* to *out*, or print it on stdout (unless --json, which prints a summary)."""
    from kop.io.model_json import dumps

    text = dumps(model.to_json())
    if out is None:
        if not as_json:
            print(text)
        return
    try:
        out.write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        from kop.semantics.errors import ModelError

        raise ModelError(f"{out}: cannot write the model ({exc.strerror or exc})") from None


def _summary(before: KripkeModel, after: KripkeModel, out: Path | None) -> dict[str, Any]:
    return {"worlds_before": len(before), "worlds_after": len(after), "output": None if out is None else str(out),
            "note": after.note or None, "model": after.to_json() if out is None else None}


def _names(worlds: list[str], limit: int = 20) -> str:
    shown = ", ".join(worlds[:limit])
    return shown + (f", ... ({len(worlds) - limit} more)" if len(worlds) > limit else "")


def register(cli: Commands) -> None:
    p = cli.add("check", _check, json_help='Print {"holds": ..., "worlds": [...], ...} as JSON.')
    p.add_argument("model_path", type=Path, metavar="MODEL", help=_MODEL_HELP)
    p.add_argument("formula", metavar="FORMULA", help="The formula, e.g. 'K_a p' or 'C{a,b}(p, q)'.")
    p.add_argument("--world", "-w", metavar="WORLD", help="Ask about this world instead of the designated ones.")

    p = cli.add("announce", _announce,
                json_help='Print {"worlds_before", "worlds_after", "output", "note", "model"} as JSON '
                          '("model" is the updated model when there is no --output).')
    p.add_argument("model_path", type=Path, metavar="MODEL", help=_MODEL_HELP)
    p.add_argument("formula", metavar="FORMULA", help="The announced formula.")
    p.add_argument("--output", "-o", dest="out", type=Path, metavar="FILE",
                   help="Write the updated model here (default: stdout).")
    p.add_argument("--upgrade", choices=("radical", "conservative"), metavar="KIND",
                   help="Soft information instead: keep every world and upgrade every agent's plausibility "
                        "with FORMULA, 'radical' or 'conservative' (docs/uncertainty.md).")

    p = cli.add("minimize", _minimize,
                json_help='Print {"worlds_before", "worlds_after", "output", "note", "model"} as JSON '
                          '("model" is the contracted model when there is no --output).')
    p.add_argument("model_path", type=Path, metavar="MODEL", help=_MODEL_HELP)
    p.add_argument("--output", "-o", dest="out", type=Path, metavar="FILE",
                   help="Write the contracted model here (default: stdout).")
    p.add_argument("--generated", "-g", action="store_true",
                   help="First drop the worlds not reachable from the designated ones.")

    p = cli.add("export", _export, json_help='Print {"format", "output", "text"} as JSON.')
    p.add_argument("model_path", type=Path, metavar="MODEL", help=_MODEL_HELP)
    p.add_argument("--to", required=True, choices=["smcdel"], metavar="FORMAT",
                   help="The format to write: smcdel (SMCDEL's *.smcdel.txt input language).")
    p.add_argument("--output", "-o", dest="out", type=Path, metavar="FILE",
                   help="Write the file here (default: stdout).")


def _export(args: argparse.Namespace) -> None:
    """Write MODEL in another tool's format: --to smcdel writes SMCDEL's input language.

    The model must be given by observation: worlds with distinct valuations,
    each agent telling apart exactly the worlds that differ on atoms it
    observes (as models from `model { observes ... }` and the puzzles are).
    Atoms are numbered 1, 2, ... (SMCDEL's atoms are numbers); a comment at
    the top maps them back to names, and the actual worlds become `TRUE?`
    questions.  `kop run FILE.smcdel.txt` reads the file back.
    """
    from kop.io.smcdel import to_smcdel

    m = _load(args.model_path)
    text = to_smcdel(m, name=args.model_path.name) + "\n"
    if args.out is not None:
        try:
            args.out.write_text(text, encoding="utf-8")
        except OSError as exc:
            from kop.errors import KopError

            raise KopError(f"{args.out}: cannot write the file ({exc.strerror or exc})") from None
    if args.json:
        print_json({"format": args.to, "output": None if args.out is None else str(args.out), "text": text})
    elif args.out is None:
        print(text, end="")


def _check(args: argparse.Namespace) -> None:
    """Check FORMULA at the designated worlds of MODEL (or at --world) and list where it holds."""
    from kop.syntax.parser import parse
    from kop.syntax.printer import to_ascii

    world: str | None = args.world
    phi = parse(args.formula)
    m = _load(args.model_path)
    holds = m.satisfies(phi, world)
    true_at = m.truth_set(phi)
    where = [w for w in m.worlds if w in true_at]
    asked = [world] if world is not None else list(m.actual)
    failing = [w for w in asked if w not in true_at]
    if args.json:
        print_json({
            "holds": holds,
            "worlds": where,
            "formula": to_ascii(phi),
            "checked_at": asked,
            "failing": failing,
            "world_count": len(m),
        })
        return
    target = f"world {world}" if world is not None else (
        "the designated world " + asked[0] if len(asked) == 1 else f"all {len(asked)} designated worlds")
    if holds:
        print(f"holds at {target}")
    else:
        print(f"does not hold at {target}" + ("" if world is not None or len(asked) == 1
                                              else f" (fails at {_names(failing)})"))
    print(f"true at {len(where)} of {plural(len(m), 'world')}" + (f": {_names(where)}" if where else ""))


def _announce(args: argparse.Namespace) -> None:
    """Publicly announce FORMULA in MODEL: keep the worlds where it holds."""
    from kop.syntax.parser import parse

    m = _load(args.model_path)
    upgrade = getattr(args, "upgrade", None)
    after = m.upgrade(parse(args.formula), upgrade) if upgrade else m.announce(parse(args.formula))
    _write(after, args.out, args.json)
    if args.json:
        print_json(_summary(m, after, args.out))
        return
    if after.note:
        print(f"warning: {after.note}", file=sys.stderr)
    if args.out is not None:
        print(f"kept {len(after)} of {plural(len(m), 'world')}; wrote {args.out}", file=sys.stderr)


def _minimize(args: argparse.Namespace) -> None:
    """Contract MODEL by bisimulation: one world per class of bisimilar worlds."""
    m = _load(args.model_path)
    small = (m.generated_submodel() if args.generated else m).minimize()
    _write(small, args.out, args.json)
    if args.json:
        print_json(_summary(m, small, args.out))
        return
    if args.out is not None:
        print(f"{plural(len(m), 'world')} -> {len(small)}; wrote {args.out}", file=sys.stderr)
