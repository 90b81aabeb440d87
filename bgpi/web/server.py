"""The page and its HTTP API, served by aiohttp on a thread of its own beside the scan loop.

Routes (the page uses nothing else; the tests drive the same):

* ``GET /``: the page (``static/``: HTML, CSS and JavaScript, no build step).
* ``GET /api/state``: the table log's ``state`` event with the page's view (`bgpi.web.view`).
* ``GET /api/events``: server-sent events, one table-log event per message as it happens;
  a ``state`` message (the view) first and after every change.
* ``POST /api/actions``: board-script lines (JSON Lines) for the simulated board, carried
  out in order; answers ``{"events": [...]}``, the events they caused.  403 on a real
  board; 400 ``{"problems": [...]}`` for lines that are not board-script actions; 409
  for a line the board cannot carry out now (nothing to lift), after the lines before it.
* ``POST /api/session``: ``{"config": {...}}`` (a board script's config line) starts a new
  session, on either board; 400 for bad settings.
* ``GET /api/session.mat``, ``GET /api/session.sgf``: the current session's games as a
  Jellyfish .mat file or as SGF (GNU Backgammon reads both; .mat cannot hold a practice
  position: 409).

Security: by default the server binds 127.0.0.1 and answers only requests addressed to a
loopback name (a web page elsewhere cannot reach it by rebinding its DNS name).  With a
`token` (required when listening on another address) every request must carry it: as
``Authorization: Bearer TOKEN``, as ``?token=TOKEN`` (the address printed in the log;
the answer then sets a same-site cookie so the page's own requests carry it), or as that
cookie; it is compared in constant time.  A POST from another origin is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import secrets
import sys
import threading
from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import Path

from aiohttp import web

from bgpi.board.profile import Geometry
from bgpi.exc import JournalError, MatError, ScriptError
from bgpi.records.matfile import mat_record
from bgpi.records.sgffile import sgf_record
from bgpi.shell.journal import journal_path
from bgpi.shell.script import StartingBoard, Wait, parse_script
from bgpi.shell.sessions import sessions
from bgpi.web import DEFAULT_HOST, DEFAULT_PORT
from bgpi.web.bridge import Bridge, NewSession, Request

LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
TOKEN_COOKIE = "bgpi_token"
KEEPALIVE_SECONDS = 15.0
"""A comment line on an idle stream, so that proxies and phones keep it open."""
SUBSCRIBER_BACKLOG = 512
"""Messages a stream may fall behind before it is closed (the page reconnects)."""
MAX_BODY = 64 * 1024
SHUTDOWN_SECONDS = 1.0
"""How long requests still being answered may take once the board stops."""
SWITCH_INTERVAL = 0.0005
"""Seconds a thread may hold the interpreter lock while another waits for it, while the
page is served (Python's default is 5 ms, a whole scan period: a busy server thread
could make a frame that late; benchmarks/web.py measures it)."""
STARTING_SECONDS = 5
"""How long a request waits for the board's first scan before it is told to come back."""
ACTION_TIMEOUT = 30.0
"""Seconds a request's lines may take beyond their own waits before the answer gives up."""

STATIC = resources.files("bgpi.web") / "static"
BRIDGE = web.AppKey("bridge", Bridge)
HUB = web.AppKey("hub", "Hub")
GEOMETRY = web.AppKey("geometry", Geometry)
STATE_DIR = web.AppKey("state_dir", object)


def new_token() -> str:
    """A fresh access token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def encode(event: dict) -> bytes:
    """`event` as one server-sent-events message."""
    return b"data: " + json.dumps(event, separators=(",", ":")).encode() + b"\n\n"


class Hub:
    """The open event streams, on the server's event loop: each has a bounded queue."""

    def __init__(self) -> None:
        self.streams: set[asyncio.Queue[bytes | None]] = set()

    def subscribe(self) -> asyncio.Queue[bytes | None]:
        stream: asyncio.Queue[bytes | None] = asyncio.Queue(SUBSCRIBER_BACKLOG)
        self.streams.add(stream)
        return stream

    def unsubscribe(self, stream: asyncio.Queue[bytes | None]) -> None:
        self.streams.discard(stream)

    def publish(self, events: list[dict], view: dict) -> None:
        """Send `events`, then the new view, to every stream; a stream too far behind is ended."""
        messages = [*map(encode, events), encode(view)]
        for stream in list(self.streams):
            try:
                for message in messages:
                    stream.put_nowait(message)
            except asyncio.QueueFull:
                self.close(stream)

    def close(self, stream: asyncio.Queue[bytes | None]) -> None:
        self.streams.discard(stream)
        while not stream.empty():
            stream.get_nowait()
        stream.put_nowait(None)

    def close_all(self) -> None:
        for stream in list(self.streams):
            self.close(stream)


# -- handlers ------------------------------------------------------------------------


async def page(request: web.Request) -> web.StreamResponse:
    return web.Response(body=(STATIC / "index.html").read_bytes(), content_type="text/html")


async def static(request: web.Request) -> web.StreamResponse:
    name = request.match_info["name"]
    kinds = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
    kind = kinds.get(Path(name).suffix)
    resource = STATIC / name
    if kind is None or "/" in name or not resource.is_file():
        raise web.HTTPNotFound()
    return web.Response(body=resource.read_bytes(), content_type=kind,
                        headers={"Cache-Control": "no-cache"})


async def first_view(bridge: Bridge) -> dict | None:
    """The view, waiting a moment for the board's first scan if there is none yet."""
    for _ in range(STARTING_SECONDS * 100):
        if bridge.view is not None:
            return bridge.view
        await asyncio.sleep(0.01)
    return None


async def state(request: web.Request) -> web.StreamResponse:
    view = await first_view(request.app[BRIDGE])
    if view is None:
        return _error(503, "the board is starting: try again in a moment")
    return web.json_response(view)


async def events(request: web.Request) -> web.StreamResponse:
    hub: Hub = request.app[HUB]
    response = web.StreamResponse(headers={
        "Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    await response.prepare(request)
    stream = hub.subscribe()
    try:
        view = request.app[BRIDGE].view
        if view is not None:
            await response.write(encode(view))
        while True:
            try:
                message = await asyncio.wait_for(stream.get(), KEEPALIVE_SECONDS)
            except TimeoutError:
                message = b": keep-alive\n\n"
            if message is None:
                break
            await response.write(message)
    except ConnectionError:
        pass  # the page went away
    finally:
        hub.unsubscribe(stream)
    return response


async def actions(request: web.Request) -> web.StreamResponse:
    bridge = request.app[BRIDGE]
    view = await first_view(bridge)
    if view is None:
        return _error(503, "the board is starting: try again in a moment")
    if not view["actions"]:
        return _error(403, "this is a real board: hands on the board move the checkers and press the buttons")
    text = await request.text()
    try:
        script = parse_script(text, "the request", request.app[GEOMETRY])
    except ScriptError as error:
        return web.json_response({"problems": error.problems}, status=400)
    problems = []
    if script.board != StartingBoard() or script.board.line:
        problems.append(f"line {script.board.line}: a board line begins a script; "
                        "the running table keeps its checkers")
    if script.config:
        problems.append("a config line sets up a new session, not hands at the running table")
    if not script.lines and not problems:
        problems.append("no lines: send board-script lines such as {\"lift\": 8}, one per line")
    if problems:
        return web.json_response({"problems": problems}, status=400)
    waits = sum(line.seconds for line in script.lines if isinstance(line, Wait))
    caused, problem = await _carry_out(bridge, script.lines, waits)
    if problem is not None:
        return web.json_response({"problems": [problem], "events": caused}, status=409)
    return web.json_response({"events": caused})


async def new_session(request: web.Request) -> web.StreamResponse:
    bridge = request.app[BRIDGE]
    if bridge.start_session is None:
        return _error(403, "this board starts no session from the page")
    try:
        body = await request.json()
    except ValueError:
        return web.json_response({"problems": ["expected JSON such as {\"config\": {\"match\": 5}}"]}, status=400)
    config = body.get("config", {}) if isinstance(body, dict) else None
    try:
        script = parse_script(json.dumps({"config": config}), "the request")
    except ScriptError as error:
        return web.json_response({"problems": error.problems}, status=400)
    caused, problem = await _carry_out(bridge, (NewSession(dict(script.config)),), 0.0)
    if problem is not None:
        return web.json_response({"problems": [problem], "events": caused}, status=409)
    return web.json_response({"events": caused})


async def _carry_out(bridge: Bridge, lines: tuple, waits: float) -> tuple[list[dict], str | None]:
    """Hand a request to the scan loop and wait for its answer without blocking either."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[tuple[list[dict], str | None]] = loop.create_future()

    def done(caused: list[dict], problem: str | None) -> None:  # on the scan loop's thread
        def settle() -> None:
            if not answer.done():
                answer.set_result((caused, problem))
        with contextlib.suppress(RuntimeError):  # the server has stopped: nobody waits for the answer
            loop.call_soon_threadsafe(settle)

    bridge.submit(Request(lines, done))
    try:
        return await asyncio.wait_for(asyncio.shield(answer), ACTION_TIMEOUT + waits)
    except TimeoutError:
        return [], "the board did not carry it out in time"


async def session_file(request: web.Request) -> web.StreamResponse:
    """The current session's games: .mat (Jellyfish, not for a practice position) or .sgf."""
    kind = request.match_info["kind"]
    state_dir = request.app[STATE_DIR]
    if state_dir is None or not journal_path(state_dir).exists():
        return _error(404, "no journal: this board keeps none")
    try:
        kept = await asyncio.to_thread(sessions, state_dir)
    except JournalError as error:
        return _error(500, str(error))
    session = kept[-1]
    if kind == "mat" and session.practice:
        return _error(409, "this session starts from a practice position, which .mat cannot hold: "
                           "download the .sgf")
    try:
        record = mat_record(session.events) if kind == "mat" else sgf_record(session.events)
    except MatError as error:
        return _error(500, str(error))
    if record.games == 0:
        return _error(404, "no games in this session yet: nothing to download")
    return web.Response(text=record.text, content_type="text/plain", headers={
        "Content-Disposition": f'attachment; filename="bgpi-session.{kind}"'})


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)


# -- access --------------------------------------------------------------------------

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def access(token: str | None) -> Callable:
    """The middleware that lets a request in: loopback names without a token, else the token."""

    @web.middleware
    async def check(request: web.Request, handler: Handler) -> web.StreamResponse:
        if token is None and (request.url.host or "") not in LOOPBACK_NAMES:
            return _error(403, "this page answers only at 127.0.0.1 (use --listen with a token)")
        origin = request.headers.get("Origin")
        if request.method == "POST" and origin is not None and origin.split("://")[-1] != request.host:
            return _error(403, "a request from another site's page")
        from_query = False
        if token is not None:
            given = _bearer(request) or request.cookies.get(TOKEN_COOKIE)
            if given is None and "token" in request.query:
                given, from_query = request.query["token"], True
            if given is None or not hmac.compare_digest(given.encode(), token.encode()):
                return _error(401, "an access token is needed: open the address printed in the board's log")
        response = await handler(request)
        if from_query and not response.prepared:
            response.set_cookie(TOKEN_COOKIE, token, httponly=True, samesite="Strict")
        return response

    return check


def _bearer(request: web.Request) -> str | None:
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


def make_app(bridge: Bridge, geometry: Geometry, token: str | None = None,
             state_dir: Path | None = None) -> web.Application:
    """The web application over `bridge`, a board of `geometry` (see the module docstring)."""
    app = web.Application(middlewares=[access(token)], client_max_size=MAX_BODY)
    app[BRIDGE] = bridge
    app[HUB] = Hub()
    app[GEOMETRY] = geometry
    app[STATE_DIR] = state_dir
    app.router.add_get("/", page)
    app.router.add_get("/static/{name}", static)
    app.router.add_get("/api/state", state)
    app.router.add_get("/api/events", events)
    app.router.add_post("/api/actions", actions)
    app.router.add_post("/api/session", new_session)
    app.router.add_get("/api/session.{kind:mat|sgf}", session_file)
    return app


class WebServer:
    """`make_app` served on its own thread and event loop, so the scan loop never waits for it.

    `start` returns once the socket is bound (raising OSError if it cannot be) and
    shortens the interpreter's switch interval (`SWITCH_INTERVAL`) while it serves;
    `stop` ends every stream and the thread and puts the interval back.
    """

    def __init__(self, bridge: Bridge, geometry: Geometry, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
                 token: str | None = None, state_dir: Path | None = None) -> None:
        if host not in LOOPBACK_NAMES and token is None:
            raise ValueError(f"listening on {host} needs an access token")
        self.bridge = bridge
        self.host = host
        self.port = port
        self.token = token
        self.app = make_app(bridge, geometry, token, state_dir)
        self._loop = asyncio.new_event_loop()
        self._runner = web.AppRunner(self.app, handle_signals=False, access_log=None,
                                    shutdown_timeout=SHUTDOWN_SECONDS)
        self._thread = threading.Thread(target=self._serve, name="bgpi-web", daemon=True)
        self._started = threading.Event()
        self._failure: BaseException | None = None
        self._switch_interval = sys.getswitchinterval()

    @property
    def url(self) -> str:
        """The page's address, with the token when one is needed."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/" + (f"?token={self.token}" if self.token else "")

    def start(self) -> None:
        self._switch_interval = sys.getswitchinterval()
        sys.setswitchinterval(min(self._switch_interval, SWITCH_INTERVAL))
        self._thread.start()
        self._started.wait()
        if self._failure is not None:
            sys.setswitchinterval(self._switch_interval)
            raise self._failure

    def _serve(self) -> None:
        loop = self._loop
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._runner.setup())
            site = web.TCPSite(self._runner, self.host, self.port, reuse_address=True)
            loop.run_until_complete(site.start())
            self.port = self._runner.addresses[0][1]
        except BaseException as error:  # noqa: BLE001 (handed to the starting thread)
            self._failure = error
            self._started.set()
            loop.run_until_complete(self._runner.cleanup())
            loop.close()
            return
        hub = self.app[HUB]
        self.bridge.listener = lambda heard, view: self._call(hub.publish, heard, view)
        self._started.set()
        loop.run_forever()
        loop.run_until_complete(self._runner.cleanup())
        loop.close()

    def _call(self, function: Callable, *args: object) -> None:
        with contextlib.suppress(RuntimeError):  # the server has stopped: nobody is watching
            self._loop.call_soon_threadsafe(function, *args)

    def stop(self) -> None:
        if not self._thread.is_alive():
            return
        self.bridge.listener = None
        self._call(self.app[HUB].close_all)
        self._call(self._loop.stop)
        self._thread.join(timeout=10)
        sys.setswitchinterval(self._switch_interval)
