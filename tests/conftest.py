"""Shared pytest configuration.

Makes ``tests/`` importable (for ``formula_strategies`` and ``profiles``),
loads the Hypothesis profile named by ``KOP_HYPOTHESIS_PROFILE`` (``quick``,
the default, ``thorough`` or ``ci``; see ``tests/profiles.py``), and lets the
``python -m kop`` child processes of the CLI tests keep their bytecode: when
``PYTHONDONTWRITEBYTECODE`` is set, each child would otherwise compile kop from
source again (a third of a small command's time), so the children get a
bytecode cache of their own under the temporary directory instead.
"""

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, os.path.dirname(__file__))

import coverage_layers  # noqa: E402
import profiles  # noqa: E402

if os.environ.get("PYTHONDONTWRITEBYTECODE") and not os.environ.get("PYTHONPYCACHEPREFIX"):
    os.environ.pop("PYTHONDONTWRITEBYTECODE")
    os.environ["PYTHONPYCACHEPREFIX"] = os.path.join(tempfile.gettempdir(), f"kop-tests-pycache-{os.getuid()}")


def pytest_configure(config):
    marks = (config.getoption("markexpr", "") or "").replace(" ", "")
    profiles.register(thorough="slow" in marks.replace("notslow", ""))   # -m slow: the slow tests at full strength


def pytest_report_header(config):
    return f"hypothesis profile: {profiles.PROFILE} (KOP_HYPOTHESIS_PROFILE: quick, thorough or ci)"


# coverage per layer (tests/coverage_layers.py): with pytest-cov's --cov (as .ci/run's coverage run), the
# controller checks each layer against its floor after the run, prints the table before the summary line,
# and fails the run when a layer is below its floor
_LAYERS = "kop_coverage_layers"


def pytest_sessionfinish(session, exitstatus):
    config = session.config
    plugin = config.pluginmanager.getplugin("_cov")
    controller = getattr(plugin, "cov_controller", None)
    if controller is None or hasattr(config, "workerinput") or config.getoption("collectonly"):
        return
    import kop

    layers = coverage_layers.measure(controller.cov, Path(kop.__file__).resolve().parent)
    setattr(config, _LAYERS, layers)
    if not all(layer.ok for layer in layers) and session.exitstatus == 0:
        session.exitstatus = 1


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    layers = getattr(config, _LAYERS, None)
    if layers is None:
        return
    terminalreporter.write_sep("-", "coverage per layer (floors: [tool.kop.coverage] in pyproject.toml)")
    for line in coverage_layers.table(layers):
        terminalreporter.write_line(line)
    below = [layer.name for layer in layers if not layer.ok]
    if below:
        terminalreporter.write_line(f"coverage below the floor in {', '.join(below)}: the run fails", red=True)
