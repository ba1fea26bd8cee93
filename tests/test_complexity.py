"""No function in kop above cyclomatic complexity 25 (radon's measure), issue 24.

The naive reference checkers are written from the definitions, one case per operator, and stay
long on purpose: they are allowed. The other entries of ``ALLOWED`` are functions being rewritten
on other branches at the time of writing; shrink the list as they land.
"""

from __future__ import annotations

from pathlib import Path

import pytest

radon_complexity = pytest.importorskip("radon.complexity")

LIMIT = 25
KOP = Path(__file__).resolve().parent.parent / "kop"

# "module path:qualified name" (a module path ending in ":*" allows every function of the module)
REFERENCE = {
    "kop/semantics/reference.py:NaiveModel.holds",
}
TEMPORARY = {
    "kop/io/epddl.py:*",
}
ALLOWED = REFERENCE | TEMPORARY


def _scores() -> dict[str, int]:
    """Every function, method and closure of kop with its cyclomatic complexity."""
    scores: dict[str, int] = {}
    for path in sorted(KOP.rglob("*.py")):
        module = path.relative_to(KOP.parent).as_posix()
        blocks = radon_complexity.add_inner_blocks(
            radon_complexity.cc_visit(path.read_text(encoding="utf-8"))
        )
        for block in blocks:
            if not hasattr(block, "is_method"):  # a class: radon scores it by its methods
                continue
            scores[f"{module}:{block.fullname}"] = block.complexity
    return scores


def _allowed(name: str) -> bool:
    return name in ALLOWED or f"{name.split(':')[0]}:*" in ALLOWED


def test_no_function_above_the_limit() -> None:
    over = {name: score for name, score in _scores().items() if score > LIMIT}
    offenders = sorted(f"{name} ({score})" for name, score in over.items() if not _allowed(name))
    assert not offenders, f"cyclomatic complexity above {LIMIT}: " + ", ".join(offenders)


def test_the_allowlist_names_functions_that_exist() -> None:
    names = _scores()
    modules = {name.split(":")[0] for name in names}
    stale = sorted(
        entry for entry in ALLOWED
        if (entry.endswith(":*") and entry[:-2] not in modules)
        or (not entry.endswith(":*") and entry not in names)
    )
    assert not stale, f"allowlist entries that name nothing: {stale}"


def test_the_allowlist_holds_only_functions_above_the_limit() -> None:
    """An entry whose function was brought under the limit leaves the list (so the list only shrinks)."""
    names = _scores()
    under = sorted(entry for entry in ALLOWED if not entry.endswith(":*") and names.get(entry, LIMIT + 1) <= LIMIT)
    assert not under, f"allowlist entries now at or under {LIMIT}: remove them: {under}"


def test_the_measure_sees_a_complex_function() -> None:
    branches = "\n".join(f"    if x == {i}:\n        return {i}" for i in range(LIMIT + 1))
    (block,) = radon_complexity.cc_visit(f"def f(x):\n{branches}\n    return -1\n")
    assert block.complexity == LIMIT + 2
