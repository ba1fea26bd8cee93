"""``kop check``, ``kop announce``, ``kop minimize``: questions and updates on Kripke models.

Models are ``kop-model/1`` JSON files (see ``docs/formats.md``).  Bad input
(a malformed model, a formula that does not parse, an unknown agent or world)
is reported in one line, with exit status 2.

    kop check theories/two_generals.model.json "K_a p" --json
    kop announce theories/muddy3.model.json "~K_a m_a" -o after.json
    kop minimize after.json -o small.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

_MODEL_HELP = "A Kripke model in the kop-model/1 JSON format."


def _load(path: Path):
    from kop.semantics.model import KripkeModel

    return KripkeModel.load(path)


def _write(model, out: Path | None) -> None:
    from kop.semantics.model_json import dumps

    text = dumps(model.to_json())
    if out is None:
        print(text)
    else:
        try:
            out.write_text(text + "\n", encoding="utf-8")
        except OSError as exc:
            from kop.semantics.errors import ModelError

            raise ModelError(f"{out}: cannot write the model ({exc.strerror or exc})") from None


def _names(worlds, limit: int = 20) -> str:
    shown = ", ".join(worlds[:limit])
    return shown + (f", ... ({len(worlds) - limit} more)" if len(worlds) > limit else "")


def register(app: typer.Typer) -> None:
    @app.command("check")
    def check_command(
        model_path: Path = typer.Argument(..., metavar="MODEL", help=_MODEL_HELP),
        formula: str = typer.Argument(..., help="The formula, e.g. 'K_a p' or 'C{a,b}(p, q)'."),
        world: str | None = typer.Option(None, "--world", "-w", help="Ask about this world instead of the designated ones."),
        as_json: bool = typer.Option(False, "--json", help='Print {"holds": ..., "worlds": [...], ...} as JSON.'),
    ) -> None:
        """Check FORMULA at the designated worlds of MODEL (or at --world) and list where it holds."""
        from kop.syntax.parser import parse
        from kop.syntax.printer import to_ascii

        phi = parse(formula)
        m = _load(model_path)
        holds = m.satisfies(phi, world)
        mask = m.truth_mask(phi)
        where = [w for w, t in zip(m.worlds, mask.tolist()) if t]
        asked = [world] if world is not None else list(m.actual)
        failing = [w for w in asked if not mask[m.index(w)]]
        if as_json:
            print(json.dumps({
                "holds": holds,
                "worlds": where,
                "formula": to_ascii(phi),
                "checked_at": asked,
                "failing": failing,
                "world_count": len(m),
            }))
            return
        target = f"world {world}" if world is not None else (
            "the designated world " + asked[0] if len(asked) == 1 else f"all {len(asked)} designated worlds")
        if holds:
            print(f"holds at {target}")
        else:
            print(f"does not hold at {target}" + ("" if world is not None or len(asked) == 1
                                                  else f" (fails at {_names(failing)})"))
        print(f"true at {len(where)} of {len(m)} worlds" + (f": {_names(where)}" if where else ""))

    @app.command("announce")
    def announce_command(
        model_path: Path = typer.Argument(..., metavar="MODEL", help=_MODEL_HELP),
        formula: str = typer.Argument(..., help="The announced formula."),
        out: Path | None = typer.Option(None, "--output", "-o", help="Write the updated model here (default: stdout)."),
    ) -> None:
        """Publicly announce FORMULA in MODEL: keep the worlds where it holds."""
        from kop.syntax.parser import parse

        m = _load(model_path)
        after = m.announce(parse(formula))
        _write(after, out)
        if after.note:
            print(f"warning: {after.note}", file=sys.stderr)
        if out is not None:
            print(f"kept {len(after)} of {len(m)} worlds; wrote {out}", file=sys.stderr)

    @app.command("minimize")
    def minimize_command(
        model_path: Path = typer.Argument(..., metavar="MODEL", help=_MODEL_HELP),
        out: Path | None = typer.Option(None, "--output", "-o", help="Write the contracted model here (default: stdout)."),
        generated: bool = typer.Option(False, "--generated", "-g",
                                       help="First drop the worlds not reachable from the designated ones."),
    ) -> None:
        """Contract MODEL by bisimulation: one world per class of bisimilar worlds."""
        m = _load(model_path)
        small = (m.generated_submodel() if generated else m).minimize()
        _write(small, out)
        if out is not None:
            print(f"{len(m)} worlds -> {len(small)}; wrote {out}", file=sys.stderr)
