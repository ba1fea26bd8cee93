"""Hypothesis profiles for kop's tests: a quick default and a thorough one.

Choose with the environment variable ``KOP_HYPOTHESIS_PROFILE``:

``quick`` (the default)
    every property test draws a share of its examples (:func:`examples`),
    enough to catch a broken invariant in seconds;
``thorough`` (also spelled ``slow``)
    every property test draws its full count, as written in the test;
``ci``
    the thorough counts, drawn from a fixed seed (``derandomize``) and without an example
    database, so that a CI run is reproduced exactly by the same command on any machine (a
    failure that only a lucky random draw finds is then found by the random profiles, locally).

Selecting the slow tests (``-m slow``, ``-m "slow or not slow"``) implies the
thorough profile: those tests are run on purpose, at full strength.

Both profiles turn Hypothesis's per-example deadline off (the tests run on
shared, busy machines: a deadline there fails at random) and allow slow data
generation.  ``tests/conftest.py`` registers and loads them.

    KOP_HYPOTHESIS_PROFILE=thorough python -m pytest -q -m "slow or not slow"

runs everything at full strength.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

__all__ = ["PROFILE", "THOROUGH", "examples", "register"]

_ALIASES = {"quick": "quick", "default": "quick", "thorough": "thorough", "ci": "ci", "slow": "thorough"}

_name = os.environ.get("KOP_HYPOTHESIS_PROFILE", "quick").strip().lower() or "quick"
if _name not in _ALIASES:
    raise ValueError(f"KOP_HYPOTHESIS_PROFILE={_name!r}: use one of {', '.join(sorted(_ALIASES))}")

#: The profile in use: "quick", "thorough" or "ci".
PROFILE = _ALIASES[_name]
#: True under the thorough and ci profiles (every test draws its full count).
THOROUGH = PROFILE in ("thorough", "ci")

#: Under the quick profile a test draws 1/QUICK_SHARE of its examples ...
QUICK_SHARE = 10
#: ... but at least this many (never more than the test asks for).
QUICK_FLOOR = 25


def examples(n: int, quick: int | None = None) -> int:
    """How many examples a property test written for *n* draws under the current profile.

    *n* under the thorough profile; under the quick one *quick* when given,
    else ``n // QUICK_SHARE`` but at least ``QUICK_FLOOR`` (and at most *n*).
    """
    if THOROUGH:
        return n
    if quick is not None:
        return min(quick, n)
    return min(n, max(QUICK_FLOOR, n // QUICK_SHARE))


def register(thorough: bool = False) -> None:
    """Register both profiles with Hypothesis and load the chosen one (*thorough*: load that one)."""
    global PROFILE, THOROUGH
    if thorough and not THOROUGH:
        PROFILE, THOROUGH = "thorough", True
    common = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    settings.register_profile("quick", max_examples=examples(100), **common)
    settings.register_profile("thorough", max_examples=100, **common)
    settings.register_profile("ci", max_examples=100, derandomize=True, database=None, **common)
    settings.load_profile(PROFILE)
