"""The playground's web application: a Starlette (ASGI) app of JSON endpoints and one page, served by uvicorn.

:func:`make_app` builds the application for a folder (the ``--root``);
:func:`serve` runs it with uvicorn on 127.0.0.1 and prints its address.

The rules it keeps (docs/playground.md):

* only files under the root are listed or read (:mod:`kop.serve.views`);
* a request body is at most the size cap of :mod:`kop.syntax.files`, and JSON;
* each request's work runs in a worker thread with a deadline
  (:data:`DEFAULT_TIMEOUT` seconds, ``--timeout``): past it the page gets a
  located "took longer than" error at once, the server goes on answering, and
  kop's own per-question timeouts (the same seconds) end the work;
* bad input is a located error in JSON (status 400), never a traceback;
* nothing is written to disk;
* on 127.0.0.1 the Host header must be ``127.0.0.1`` or ``localhost`` (no DNS rebinding).

Example
-------
>>> from starlette.testclient import TestClient
>>> client = TestClient(make_app("."), base_url="http://127.0.0.1")
>>> client.post("/api/theory/check", json={"text": "agents A\\nask level"}).json()["ok"]
False
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kop import config
from kop.errors import KopError, MissingDependency, install_hint
from kop.syntax.budget import check_timeout
from kop.syntax.files import max_bytes

if TYPE_CHECKING:  # pragma: no cover
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response

__all__ = ["make_app", "serve", "DEFAULT_PORT", "DEFAULT_TIMEOUT", "STATIC", "WORKERS"]

#: the doctests need these optional packages (kop/conftest.py skips them without them)
__doctest_requires__ = ("starlette", "uvicorn", "matplotlib")

#: the port ``kop serve`` listens on by default
DEFAULT_PORT = 8765
#: seconds of work per request (and per prover question within it)
DEFAULT_TIMEOUT = 20.0
#: threads doing the requests' work
WORKERS = 4
#: the page's files (HTML, CSS, JavaScript), shipped in the wheel
STATIC = Path(__file__).resolve().parent / "static"


def _require() -> None:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        raise MissingDependency(f"kop serve needs starlette and uvicorn, an optional extra: "
                                f"{install_hint('serve')}") from exc


def make_app(root: str | os.PathLike[str] = ".", *, timeout: float = DEFAULT_TIMEOUT,
             story_reader: Callable[..., Any] | None = None, hosts: tuple[str, ...] | None = None) -> Starlette:
    """The playground's ASGI application for the files under *root*.

    Parameters
    ----------
    root : path
        The only folder whose files are listed and read (default: the current folder).
    timeout : float
        Seconds of work per request, and per prover question in it.
    story_reader : callable, optional
        Reads a story's text (default: ``kop.read_story`` when it exists; the
        Story page is disabled without one).
    hosts : tuple of str, optional
        The Host names accepted (default: ``127.0.0.1`` and ``localhost``).

    Returns
    -------
    starlette.applications.Starlette

    Example
    -------
    >>> from starlette.testclient import TestClient
    >>> TestClient(make_app("."), base_url="http://127.0.0.1").get("/api/story/status").json()["available"] in (True, False)
    True
    """
    _require()
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware
    from starlette.responses import FileResponse, JSONResponse
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    from kop.serve import views
    from kop.serve.experiment import ExperimentJob

    base = Path(root).resolve()
    if not base.is_dir():
        raise KopError(f"--root {root}: not a folder")
    seconds = check_timeout(timeout) or DEFAULT_TIMEOUT
    settings = config.current()   # the byte cap (--max-bytes) and caches in force here hold for every request
    pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="kop-serve")
    job = ExperimentJob()

    def timed(fn: Callable[[], Any]) -> Any:
        """*fn*'s answer, with the CPU time of its thread (``cpu_ms``: the machine may be shared)."""
        t = time.thread_time()
        with config.using(settings):   # a pool thread starts from the process default
            out = fn()
        if isinstance(out, dict):
            out = {**out, "cpu_ms": round(1000 * (time.thread_time() - t), 1)}
        return out

    async def limited(fn: Callable[[], Any]) -> Any:
        fut = asyncio.get_running_loop().run_in_executor(pool, timed, fn)
        try:
            return await asyncio.wait_for(asyncio.shield(fut), seconds)
        except asyncio.TimeoutError:
            raise KopError(f"the request took longer than {seconds:g} s and was abandoned "
                           "(kop serve --timeout SECONDS allows more)") from None

    def endpoint(work: Callable[[dict[str, Any]], Any], *, body: bool = True) -> Callable[[Request], Awaitable[Response]]:
        async def handle(request: Request) -> Response:
            try:
                with config.using(settings):
                    data = await _body(request) if body else dict(request.query_params)
                return JSONResponse(await limited(lambda: work(data)))
            except KopError as exc:
                return JSONResponse({"error": views.error_json(exc)}, status_code=400)
            except RecursionError:
                return JSONResponse({"error": {"message": "the input nests too deeply"}}, status_code=400)
            except Exception as exc:  # never a traceback in the page
                return JSONResponse({"error": {"message": f"kop could not answer: {type(exc).__name__}: {exc}"}},
                                    status_code=500)
        return handle

    def story(d: dict[str, Any]) -> Any:
        return views.story_view(d.get("text", ""), d.get("order", 1), story_reader)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    routes = [
        Route("/", index),
        Route("/api/files", endpoint(lambda d: views.list_files(base), body=False)),
        Route("/api/file", endpoint(lambda d: views.read_file(base, d.get("path", "")), body=False)),
        Route("/api/theory/check", endpoint(lambda d: views.check_theory(d.get("text"), base, d.get("path"))), methods=["POST"]),
        Route("/api/theory/answers", endpoint(lambda d: views.theory_answers(
            d.get("text"), base, d.get("scenario"), timeout=seconds, path=d.get("path"))), methods=["POST"]),
        Route("/api/model", endpoint(lambda d: views.model_view(d, base)), methods=["POST"]),
        Route("/api/match", endpoint(lambda d: views.match_view(d, base, timeout=seconds)), methods=["POST"]),
        Route("/api/story/status", endpoint(lambda d: views.story_status(story_reader), body=False)),
        Route("/api/story", endpoint(story), methods=["POST"]),
        Route("/api/experiment", endpoint(lambda d: job.status(), body=False)),
        Route("/api/experiment/start", endpoint(job.start), methods=["POST"]),
        Route("/api/experiment/stop", endpoint(lambda d: job.stop()), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    allowed = list(hosts or ("127.0.0.1", "localhost"))
    app = Starlette(routes=routes, middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=allowed)])
    app.state.root = base
    app.state.job = job
    return app


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, at most the size cap; a located error otherwise."""
    size = request.headers.get("content-length")
    cap = max_bytes()
    if size is not None and size.isdigit() and int(size) > cap:
        raise KopError(f"the request is larger than {cap} bytes")
    raw = await request.body()
    if len(raw) > cap:
        raise KopError(f"the request is larger than {cap} bytes")
    try:
        data = json.loads(raw.decode("utf-8") or "{}")
    except UnicodeDecodeError:
        raise KopError("the request is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise KopError(f"the request is not JSON: line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    if not isinstance(data, dict):
        raise KopError("the request must be a JSON object")
    return data


def _warm() -> None:
    """Import what the first requests need (matplotlib, the theory grammar), so they answer quickly."""
    try:
        from kop.drawing.models import require_matplotlib
        from kop.theory import parse_theory

        require_matplotlib()
        parse_theory("agents A, B\n")
    except Exception:  # a missing extra shows in the page, on the request that needs it
        pass


def serve(root: str | os.PathLike[str] = ".", *, host: str = "127.0.0.1", port: int = DEFAULT_PORT,
          timeout: float = DEFAULT_TIMEOUT, open_browser: bool = False,
          ready: Callable[[str], None] | None = None) -> None:
    """Serve the playground for *root* on http://HOST:PORT/ until interrupted (port 0: any free port).

    *ready* is called with the address once the socket listens (``kop serve``
    prints it).  Another *host* than 127.0.0.1 makes the page reachable from
    the network: kop has no login, so that is unsafe.
    """
    _require()
    import uvicorn

    # on another address the page is reached by names kop cannot know: the Host check is off (unsafe, as said)
    hosts = None if host in ("127.0.0.1", "localhost", "::1") else ("*",)
    app = make_app(root, timeout=timeout, hosts=hosts)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise KopError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.listen(128)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{bound}/"
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    # Ctrl-C from the moment the address is shown: before uvicorn installs its own handlers (and
    # after it restores them) a signal asks the server to stop instead of interrupting its start-up
    restore = _stop_on_signals(server)
    threading.Thread(target=_warm, name="kop-serve-warm", daemon=True).start()
    if ready is not None:
        ready(url)
    if open_browser:
        import webbrowser

        threading.Timer(0.3, lambda: webbrowser.open(url)).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # pragma: no cover - Ctrl-C
        pass
    finally:
        restore()
        sock.close()
    print("kop serve stopped", file=sys.stderr)


def _stop_on_signals(server: Any) -> Callable[[], None]:
    """Make SIGINT and SIGTERM set *server*'s ``should_exit`` (uvicorn checks it before serving and in
    its loop); returns what puts the previous handlers back.  Outside the main thread, nothing."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}

    def stop(signum: int, frame: Any) -> None:
        server.should_exit = True

    for sig in previous:
        signal.signal(sig, stop)

    def restore() -> None:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return restore
