"""The playground's JSON API through Starlette's TestClient: answers equal the library's, input stays confined."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("matplotlib")
pytest.importorskip("httpx")

import kop  # noqa: E402
from kop.serve import make_app  # noqa: E402
from kop.serve import views  # noqa: E402
import warnings  # noqa: E402

with warnings.catch_warnings():   # starlette 1.x prefers httpx2 for its test client; httpx works the same
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
THEORIES = ROOT / "theories"
# The API's paths are relative to the folder the app serves (``make_app(ROOT)``), not to the current folder.
MUDDY3_MODEL = (THEORIES / "muddy3.model.json").relative_to(ROOT).as_posix()
MUDDY3 = (THEORIES / "muddy3.kop").relative_to(ROOT).as_posix()
FIGURE2 = (THEORIES / "figure2.kop").relative_to(ROOT).as_posix()


@pytest.fixture(scope="module")
def client():
    return TestClient(make_app(ROOT), base_url="http://127.0.0.1")


def _err(r):
    assert r.status_code == 400, r.text
    return r.json()["error"]


# -- the page and its assets -------------------------------------------------------------------------------

def test_index_and_assets_are_local(client):
    page = client.get("/")
    assert page.status_code == 200 and "<title>kop playground</title>" in page.text
    for asset in ("/static/app.js", "/static/style.css"):
        r = client.get(asset)
        assert r.status_code == 200 and len(r.text) > 1000
        # nothing is loaded from elsewhere (no CDN): no absolute URL in the page's code
        assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", r.text), asset
    assert not re.search(r"(src|href)=\"(https?:)?//", page.text)


def test_other_host_header_is_refused(client):
    assert client.get("/api/files", headers={"host": "evil.example"}).status_code == 400


# -- files ---------------------------------------------------------------------------------------------------

def test_every_shipped_theory_is_listed(client):
    listed = {f["path"] for f in client.get("/api/files").json()["files"]}
    shipped = {p.relative_to(ROOT).as_posix() for p in THEORIES.rglob("*.kop")}
    assert shipped and shipped <= listed
    assert MUDDY3_MODEL in listed


def test_files_are_confined_to_the_root(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    (root / "in.kop").write_text("agents A\n")
    (tmp_path / "out.kop").write_text("agents B\n")
    (root / "link.kop").symlink_to(tmp_path / "out.kop")
    c = TestClient(make_app(root), base_url="http://127.0.0.1")
    assert [f["path"] for f in c.get("/api/files").json()["files"]] == ["in.kop"]
    assert c.get("/api/file", params={"path": "in.kop"}).json()["text"] == "agents A\n"
    for bad in ("../out.kop", "link.kop", str(tmp_path / "out.kop")):
        assert "outside" in _err(c.get("/api/file", params={"path": bad}))["message"]
    assert "opens theories" in _err(c.get("/api/file", params={"path": "../../etc/passwd"}))["message"]
    assert "does not exist" in _err(c.get("/api/file", params={"path": "none.kop"}))["message"]


def test_theory_includes_are_confined_to_the_root(tmp_path):
    (tmp_path / "secret.kop").write_text("agents S\n")
    root = tmp_path / "root"
    root.mkdir()
    c = TestClient(make_app(root), base_url="http://127.0.0.1")
    e = _err(c.post("/api/theory/answers", json={"text": 'include "../secret.kop"\n'}))
    assert "outside" in e["message"] and e["line"] == 1


def test_the_size_cap_applies_to_requests(tmp_path):
    import kop.config

    with kop.config.using(max_bytes=100):     # the app keeps the settings in force where it was made
        c = TestClient(make_app(tmp_path), base_url="http://127.0.0.1")
    assert "larger than 100 bytes" in _err(c.post("/api/theory/check", json={"text": "x" * 200}))["message"]


# -- theories ------------------------------------------------------------------------------------------------

def test_a_theory_error_is_located(client):
    r = client.post("/api/theory/check", json={"text": "players A max, B min\ncore A = x\n"}).json()
    assert not r["ok"]
    e = r["errors"][0]
    with pytest.raises(kop.ParseError) as ref:
        kop.parse_theory("players A max, B min\ncore A = x\n")
    assert (e["line"], e["column"]) == (ref.value.line, ref.value.column) == (2, 10)
    ok = client.post("/api/theory/check", json={"text": (THEORIES / "figure2.kop").read_text()}).json()
    assert ok.pop("cpu_ms") >= 0 and ok == {"ok": True, "errors": []}


def test_figure2_answers_equal_kop_dominates(client):
    from kop.theory import TheoryRun, load_theory

    text = (THEORIES / "figure2.kop").read_text()
    r = client.post("/api/theory/answers", json={"text": text, "scenario": "s4"}).json()
    run = TheoryRun(load_theory(THEORIES / "figure2.kop"), questions=False)
    reports = [run.dominance(ctx.name) for ctx in run.scenarios()]
    assert [s["report"] for s in r["scenarios"]] == [rep.to_json() for rep in reports]
    assert [s["report"]["recommended"] for s in r["scenarios"]] == ["minimax", "HM0M1", "HM0M1", "HM0M2"]
    s4 = r["scenarios"][r["chosen"]]
    assert s4["name"] == "s4" and s4["report"]["levels"] == {"A": 2, "B": 1}
    assert s4["report"]["outcome"] == [9, 4] and s4["report"]["outcome_with_communication"] == [10, 3]
    checks = [a for a in r["answers"] if a["question"].startswith("expect")]
    assert checks and all(a["ok"] for a in checks)
    assert 'id="kop-node-0"' in r["svg"]


def test_theory_answers_bad_input(client):
    assert "unknown scenario" in _err(client.post("/api/theory/answers",
                                                  json={"text": (THEORIES / "figure2.kop").read_text(),
                                                        "scenario": "s9"}))["message"]
    bad = "players A max, B min\ngame r: A {\n"
    e = _err(client.post("/api/theory/answers", json={"text": bad}))
    with pytest.raises(kop.ParseError) as ref:
        kop.parse_theory(bad)
    assert (e["line"], e["column"]) == (ref.value.line, ref.value.column)
    assert "must be text" in _err(client.post("/api/theory/answers", json={"text": 3}))["message"]


def test_a_theory_with_a_model_shows_its_answers_and_model(client):
    text = (THEORIES / "muddy3.kop").read_text()
    r = client.post("/api/theory/answers", json={"text": text, "path": MUDDY3}).json()
    want = kop.run_theory(kop.load_theory(THEORIES / "muddy3.kop"))
    assert r["kind"] == "model" and [a["text"] for a in r["answers"]] == [a.text for a in want]
    from kop.theory.questions import run_statements

    after = run_statements(kop.load_theory(THEORIES / "muddy3.kop")).model      # after its announcements
    assert "<svg" in r["svg"] and r["worlds"] == len(after) < 8
    # without its path, the model file it names is looked for in the root, where it is not
    assert "does not exist" in _err(client.post("/api/theory/answers", json={"text": text}))["message"]


@pytest.mark.parametrize("path", sorted(p.relative_to(ROOT).as_posix() for p in THEORIES.rglob("*.kop")))
def test_every_shipped_theory_opens_and_answers(client, path):
    text = (ROOT / path).read_text()
    assert client.post("/api/theory/check", json={"text": text, "path": path}).json()["ok"]
    r = client.post("/api/theory/answers", json={"text": text, "path": path})
    assert r.status_code == 200, r.text
    r = r.json()
    assert r["answers"] and all(a["ok"] is not False for a in r["answers"])
    assert r["svg"] is not None or "kop draws at most" in r["picture_note"]


@pytest.mark.parametrize("body,words", [(b"{", "line 1, column 2"), (b"[1]", "JSON object"),
                                        (b"\xff", "UTF-8")])
def test_malformed_requests_are_located_errors(client, body, words):
    e = _err(client.post("/api/theory/check", content=body, headers={"content-type": "application/json"}))
    assert words in e["message"] and "Traceback" not in e["message"]


# -- models --------------------------------------------------------------------------------------------------

def _muddy():
    return (THEORIES / "muddy3.model.json").read_text()


def test_model_truth_set_is_the_checkers(client):
    m = kop.KripkeModel.load(THEORIES / "muddy3.model.json")
    for f in ("K_a m_b", "~Kw_a m_a", "C{a,b,c} (m_a | m_b | m_c)", "m_a & m_b"):
        r = client.post("/api/model", json={"path": MUDDY3_MODEL, "formula": f}).json()
        assert set(r["holds"]) == m.truth_set(f)
        assert r["holds_at_actual"] == m.satisfies(f)
        assert [w["name"] for w in r["worlds"]] == list(m.worlds)
        assert all(f'id="{w["id"]}"' in r["svg"] for w in r["worlds"])


def test_model_click_announce_and_step(client):
    m = kop.KripkeModel.from_json(_muddy())
    other = m.worlds[-1]
    base = {"model": _muddy(), "actual": other,
            "updates": [{"kind": "announce", "formula": "m_a | m_b | m_c"},
                        {"kind": "announce", "formula": "~K_a m_a & ~K_b m_b & ~K_c m_c"},
                        {"kind": "radical", "formula": "m_a"}]}
    want = [m.with_actual(other)]
    want.append(want[-1].announce("m_a | m_b | m_c"))
    want.append(want[-1].announce("~K_a m_a & ~K_b m_b & ~K_c m_c"))
    want.append(want[-1].upgrade("m_a"))
    for step in range(4):
        r = client.post("/api/model", json={**base, "step": step, "formula": "B_a m_a"}).json()
        assert [s["worlds"] for s in r["steps"]] == [len(w) for w in want]
        assert [w["name"] for w in r["worlds"]] == list(want[step].worlds)
        assert set(r["holds"]) == want[step].truth_set("B_a m_a")
        assert r["actual"] == list(want[step].actual)


def test_model_bad_input_is_located(client):
    e = _err(client.post("/api/model", json={"model": _muddy(), "formula": "K_a (m_a &"}))
    assert e["column"] == 11 and e["message"].startswith("formula: line 1, column 11")
    e = _err(client.post("/api/model", json={"model": _muddy(), "step": 1,
                                             "updates": [{"kind": "announce", "formula": "m_a &"}]}))
    assert e["message"].startswith("update 1:") and e["line"] == 1
    assert "leaves no world" in _err(client.post("/api/model", json={
        "model": _muddy(), "updates": [{"kind": "announce", "formula": "m_a & ~m_a"}], "step": 1}))["message"]
    assert "no world 'zz'" in _err(client.post("/api/model", json={"model": _muddy(), "actual": "zz"}))["message"]
    assert "step must be" in _err(client.post("/api/model", json={"model": _muddy(), "step": 3}))["message"]
    assert "kop-model/1" in _err(client.post("/api/model", json={"model": "{}"}))["message"]
    assert "update 1" in _err(client.post("/api/model", json={"model": _muddy(), "updates": [{"kind": "x"}]}))["message"]


def test_a_64_world_model_is_drawn_grouped(client):
    m = kop.KripkeModel.from_observations("p q r s t u", "true", {"a": "p q r", "b": "s t u"}, actual="p q")
    r = client.post("/api/model", json={"model": json.dumps(m.to_json())}).json()
    assert len(r["worlds"]) == 64
    assert len(re.findall(r'id="kop-world-\d+"', r["svg"])) == 64
    assert len(re.findall(r'id="kop-cell-a-\d+"', r["svg"])) == len(m.partition("a"))


# -- matches, stories, experiments ---------------------------------------------------------------------------

def test_match_equals_kop_match(client):
    a = kop.Agent("A", knowledge=kop.f_level("A", "B", 2))
    b = kop.Agent("B", knowledge=kop.f_level("B", "A", 1))
    for comm in (False, True):
        want = kop.Match(kop.figure2_game(), [a, b], communication=comm).play().to_json()
        r = client.post("/api/match", json={"levels": {"A": 2, "B": 1}, "communication": comm}).json()
        assert {k: r[k] for k in want} == want
        assert r["outcome"] == ([10, 3] if comm else [9, 4])
        assert 'id="kop-node-0"' in r["svg"]
        tree = kop.figure2()
        assert tree.node(r["path"][-1]).payoff == tuple(r["outcome"])


def test_match_from_a_theory_and_bad_levels(client):
    r = client.post("/api/match", json={"path": FIGURE2, "levels": {"A": 1, "B": 0}}).json()
    assert r["outcome"] == [9, 4]
    assert "level of A" in _err(client.post("/api/match", json={"levels": {"A": -1}}))["message"]
    assert "no game" in _err(client.post("/api/match", json={"path": MUDDY3}))["message"]


def test_story_without_reader_is_disabled(client):
    if callable(getattr(kop, "read_story", None)):
        pytest.skip("kop.read_story exists here: the disabled state does not apply")
    s = client.get("/api/story/status").json()
    s.pop("cpu_ms")
    assert s == {"available": False, "message": views.story_status(None)["message"]}
    assert "kop.read_story" in s["message"]
    assert "kop.read_story is missing" in _err(client.post("/api/story", json={"text": "x"}))["message"]


def _fake_story(text):
    """A stand-in reader for the contract's tests: one event per line, each agent believing what it saw."""
    events, seen = [], {"sally": [], "anne": []}
    for line in text.splitlines():
        who = [a for a in seen if a in line.lower()]
        for a in who:
            seen[a] = seen[a] + [line]
        events.append({"text": line, "beliefs": {a: list(v) for a, v in seen.items()}})
    return {"agents": ["sally", "anne"], "events": events}


def test_story_contract_with_a_reader(tmp_path):
    c = TestClient(make_app(tmp_path, story_reader=_fake_story), base_url="http://127.0.0.1")
    assert c.get("/api/story/status").json()["available"]
    r = c.post("/api/story", json={"text": "Sally puts the ball in the basket.\nAnne moves it.", "order": 2}).json()
    assert r["order"] == 2 and [e["text"] for e in r["events"]] == ["Sally puts the ball in the basket.",
                                                                     "Anne moves it."]
    assert r["events"][1]["beliefs"]["sally"] == ["Sally puts the ball in the basket."]
    bad = TestClient(make_app(tmp_path, story_reader=lambda t: {"agents": [], "events": [{"text": 1}]}), base_url="http://127.0.0.1")
    assert "contract" in _err(bad.post("/api/story", json={"text": "x"}))["message"]
    assert "order" in _err(c.post("/api/story", json={"text": "x", "order": 99}))["message"]


def test_experiment_runs_in_the_background(tmp_path):
    from kop.experiments.bodkin import Cell, run_cell

    c = TestClient(make_app(tmp_path), base_url="http://127.0.0.1")
    assert c.get("/api/experiment").json()["state"] == "idle"
    r = c.post("/api/experiment/start", json={"players": 3, "branching": 2, "depths": [2, 4], "trees": 25}).json()
    assert r["state"] in ("running", "done") and r["total"] == 3
    status = c.app.state.job.wait(60)
    assert status["state"] == "done" and status["done"] == 3
    for p in status["points"]:   # the runner's figures, cell by cell
        out = run_cell(Cell(n_players=3, branching=2, depth=p["depth"], m=1, eta=1, trees=25, seed=1),
                       workers=1, progress=False)
        assert p == {"depth": p["depth"], **{a: v["log_b_leaves"] for a, v in out["algorithms"].items()}}
        assert p["naive"] == p["depth"]
    assert list(tmp_path.iterdir()) == []     # nothing written to disk
    assert "depths" in _err(c.post("/api/experiment/start", json={"depths": [5, 2]}))["message"]


def test_jamroga_experiment_rows_are_the_runners(tmp_path):
    from kop.experiments.jamroga import figure_tasks, play_game, summarize
    from kop.experiments.runner import run_tasks

    c = TestClient(make_app(tmp_path), base_url="http://127.0.0.1")
    r = c.post("/api/experiment/start", json={"experiment": "jamroga", "figure": 4, "games": 12}).json()
    assert r["experiment"] == "jamroga" and r["total"] == 24           # two tables of 12 games
    status = c.app.state.job.wait(120)
    assert status["state"] == "done" and status["done"] == 24
    want = summarize(4, run_tasks(play_game, figure_tasks(4, 12, 0, small=True), workers=1, progress=False), True)
    assert status["rows"] == want
    assert list(tmp_path.iterdir()) == []
    assert "figure must be" in _err(c.post("/api/experiment/start", json={"experiment": "jamroga",
                                                                          "figure": 6}))["message"]
    assert "experiment must be" in _err(c.post("/api/experiment/start", json={"experiment": "x"}))["message"]


def test_a_slow_request_times_out_and_the_server_goes_on(tmp_path, monkeypatch):
    import threading

    release = threading.Event()

    def slow(*args):
        release.wait(10)
        return {"ok": True, "errors": []}

    monkeypatch.setattr(views, "check_theory", slow)
    c = TestClient(make_app(tmp_path, timeout=0.3), base_url="http://127.0.0.1")
    t = time.perf_counter()
    e = _err(c.post("/api/theory/check", json={"text": "agents A"}))
    assert "took longer than 0.3 s" in e["message"] and time.perf_counter() - t < 5
    assert c.get("/api/files").status_code == 200      # still answering
    release.set()


def test_an_unexpected_error_is_not_a_traceback(tmp_path, monkeypatch):
    def broken(*args):
        raise ValueError("boom")

    monkeypatch.setattr(views, "check_theory", broken)
    r = TestClient(make_app(tmp_path), base_url="http://127.0.0.1").post("/api/theory/check", json={"text": "x"})
    assert r.status_code == 500 and r.json() == {"error": {"message": "kop could not answer: ValueError: boom"}}


# -- the command ---------------------------------------------------------------------------------------------

def test_kop_serve_starts_quickly_and_prints_its_address(tmp_path, capsys):
    import urllib.request

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    t = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-m", "kop", "serve", "--port", "0", "--root", str(tmp_path)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = p.stdout.readline()
        started = time.perf_counter() - t
        url = re.search(r"http://127\.0\.0\.1:\d+/", line).group(0)
        with urllib.request.urlopen(url + "api/files", timeout=10) as r:
            assert json.loads(r.read())["files"] == []
    finally:
        p.terminate()
        p.wait(10)
    with capsys.disabled():
        print(f"\n[playground] kop serve printed its address after {started:.2f} s (goal < 2 s)")


@pytest.mark.parametrize("argv,words", [(["--port", "70000"], "--port 70000"),
                                        (["--root", "/nonexistent-kop"], "not a folder"),
                                        (["--timeout", "inf"], "timeout")])
def test_kop_serve_bad_arguments(argv, words):
    from cli_runner import run_cli

    r = run_cli(["serve", *argv])
    assert r.code == 2 and words in r.err and "Traceback" not in r.err, r


def test_concurrent_requests_answer_as_one_at_a_time(client):
    """The server works on several requests at once (threads): the answers equal those given one at a time."""
    from concurrent.futures import ThreadPoolExecutor

    fig2 = (THEORIES / "figure2.kop").read_text()
    requests = [("/api/theory/answers", {"text": fig2, "scenario": s}) for s in ("s1", "s2", "s3", "s4")]
    requests += [("/api/model", {"path": MUDDY3_MODEL, "formula": f})
                 for f in ("K_a m_b", "C{a,b,c} (m_a | m_b)", "~Kw_c m_c")]
    requests += [("/api/theory/check", {"text": fig2.replace("core A = 2", "core A = ?")})]

    def strip(answer):
        answer.pop("cpu_ms", None)
        answer.pop("svg", None)   # matplotlib's clip-path ids differ from figure to figure
        return answer

    alone = [strip(client.post(path, json=body).json()) for path, body in requests]
    with ThreadPoolExecutor(8) as pool:
        together = list(pool.map(lambda r: strip(client.post(r[0], json=r[1]).json()), requests * 2))
    assert together == alone * 2


def test_story_with_kops_own_reader(client):
    """With kop.read_story (issue 25) the Story page steps a real story: Sally-Anne, to order 2."""
    pytest.importorskip("kop.stories")
    text = (ROOT / "theories" / "sally_anne.story").read_text(encoding="utf-8")
    assert client.get("/api/story/status").json()["available"]
    r = client.post("/api/story", json={"text": text, "order": 2}).json()
    assert r["agents"] == ["Sally", "Anne"] and r["order"] == 2
    after_move = next(e for e in r["events"] if e["text"].startswith("Anne moves"))
    assert "Sally thinks the marble is in the basket" in after_move["beliefs"]["Sally"]
    assert "Anne thinks that Sally thinks the marble is in the basket" in after_move["beliefs"]["Anne"]
    assert "Sally thinks the marble is in the box" in r["events"][-1]["beliefs"]["Sally"]
    assert "line 3" in _err(client.post("/api/story", json={"text": "A enter hall\nx in cup\nA exits kitchen\n"}))["message"]
