"""The package metadata: one source for the version, a license file, an sdist that carries its tests."""

from __future__ import annotations

import importlib.metadata
import pathlib
import tomllib

import pytest

import kop

ROOT = pathlib.Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(not (ROOT / "pyproject.toml").exists(), reason="run from a checkout or sdist")


def _pyproject() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as fh:
        return tomllib.load(fh)


def test_version_has_one_source() -> None:
    meta = _pyproject()
    assert "version" not in meta["project"]
    assert "version" in meta["project"]["dynamic"]
    assert meta["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "kop.__version__"}
    try:
        installed = importlib.metadata.version("kop-epistemic")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("kop is not installed (run from the source tree)")
    assert installed == kop.__version__


def test_license_and_build_requirements() -> None:
    meta = _pyproject()
    assert meta["project"]["license"] == "MIT"
    assert all((ROOT / f).is_file() for f in meta["project"]["license-files"])
    assert not any(r.startswith("wheel") for r in meta["build-system"]["requires"])
    assert {"Homepage", "Source", "Changelog"} <= set(meta["project"]["urls"])
    assert any(c.startswith("Programming Language :: Python :: 3.1") for c in meta["project"]["classifiers"])


def test_sdist_carries_tests_theories_and_docs() -> None:
    grafted = {line.split()[1] for line in (ROOT / "MANIFEST.in").read_text().splitlines()
               if line.startswith("graft ")}
    assert {"tests", "theories", "docs", "grammar"} <= grafted
    assert (ROOT / "CHANGELOG.md").is_file()
