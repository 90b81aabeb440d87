"""The page and its HTTP API, served by aiohttp on a thread of its own (`bgpi run` runs it
in a process of its own beside the board's: `bgpi.web.process`).

Routes (the page uses nothing else; the tests drive the same):

* ``GET /``: the page (``static/``: HTML, CSS and JavaScript, no build step).
* ``GET /api/state``: the table log's ``state`` event with the page's view (`bgpi.web.view`).
* ``GET /api/events``: server-sent events, one table-log event per message as it happens;
  a ``state`` message (the view) first and after every change.
* ``POST /api/actions``: board-script lines (JSON Lines) for the simulated board, carried
  out in order; answers ``{"events": [...]}``, the events they caused.  403 on a real
  board; 400 ``{"problems": [...]}`` for lines that are not board-script actions, for
  more than `MAX_LINES` lines or more than `MAX_BOARD_SECONDS` of board time (0.1 s a
  line, and the waits); 409 for a line the board cannot carry out now (nothing to lift),
  after the lines before it.  503 when `bgpi.web.bridge.MAX_PENDING` requests already
  wait, or when the board has not got to the lines in their board time and
  `ANSWER_SECONDS` more: the lines not begun by then are never carried out, and the
  answer lists the events of those that were.  A request whose asker goes away is
  cancelled the same way.
* ``POST /api/session``: ``{"config": {...}}`` (a board script's config line) starts a new
  session, on either board; 400 for bad settings or any other shape (nothing else ends
  the session in progress); 409 for a session this board cannot
  play (a computer opponent without an engine), which is never journaled.

Bodies are at most `MAX_BODY` bytes of UTF-8 (415 for another charset), read within
`BODY_SECONDS`; a malformed request is a 4xx with one line, never a traceback, and an
unexpected error writes one line to stderr, at most one every `ERROR_LOG_SECONDS`
(`ErrorLog`, which also takes what aiohttp and the server's event loop would log: a
request broken off or malformed by its client is the client's business and writes
nothing).
A connection that sends no complete request within `IDLE_SECONDS` (idle, or headers
sent a byte at a time) is closed; at most `MAX_CONNECTIONS` are open at once and at most
`MAX_STREAMS` of them are event streams (which send a comment every `KEEPALIVE_SECONDS`).
* ``GET /api/session.mat``, ``GET /api/session.sgf``: the current session's games as a
  Jellyfish .mat file or as SGF (GNU Backgammon reads both; .mat cannot hold a practice
  position: 409).

Security: by default the server binds 127.0.0.1 and answers only requests addressed to a
loopback name (a web page elsewhere cannot reach it by rebinding its DNS name).  With a
`token` (required when listening on another address) every request must carry it: as
``Authorization: Bearer TOKEN``, as ``?token=TOKEN`` (the address printed in the log;
the answer then sets a same-site cookie so the page's own requests carry it), or as that
cookie; it is compared in constant time, and a right token anywhere in the request lets
it in (an old cookie does not hide the printed address's).  A POST from another origin is
refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import json
import logging
import secrets
import socket
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.typedefs import Middleware
from aiohttp.web_protocol import RequestHandler

from bgpi.board.profile import Geometry
from bgpi.exc import JournalError, JournalStartError, MatError, ScriptError, SgfError
from bgpi.records.matfile import mat_record
from bgpi.records.sgffile import sgf_record
from bgpi.shell.journal import journal_path
from bgpi.shell.live import SWITCH_INTERVAL  # served on a thread beside the scan loop, the server keeps to it too
from bgpi.shell.script import LINE_SECONDS, Action, StartingBoard, Wait, parse_script
from bgpi.shell.sessions import sessions
from bgpi.table import events as ev
from bgpi.web import DEFAULT_HOST, DEFAULT_PORT, page_url
from bgpi.web.bridge import Bridge, NewSession, Request

LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
TOKEN_COOKIE = "bgpi_token"
KEEPALIVE_SECONDS = 15.0
"""A comment line on an idle stream, so that proxies and phones keep it open."""
SUBSCRIBER_BACKLOG = 512
"""Messages a stream may fall behind before it is closed (the page reconnects)."""
MAX_BODY = 64 * 1024
BODY_SECONDS = 10.0
"""How long a request's body may take to arrive."""
IDLE_SECONDS = 10.0
"""How long a connection may go without a complete request (aiohttp's keep-alive timeout,
which also runs from the connection's first byte): idle and slow-header connections end."""
LINGER_SECONDS = 2.0
"""How long the rest of a refused body is read (and dropped) before its connection ends."""
MAX_CONNECTIONS = 64
"""Connections open at once; more are closed as they come (a flood must not take the
descriptors the journal and `board.json` need)."""
MAX_STREAMS = 32
"""Event streams open at once; more are answered 503."""
ERROR_LOG_SECONDS = 10.0
"""At most one line to stderr this often for an unexpected error (a flood of them must
not push the board's own messages past journald's rate limit)."""
SHUTDOWN_SECONDS = 1.0
"""How long requests still being answered may take once the board stops."""
STARTING_SECONDS = 5
"""How long a request waits for the board's first scan before it is told to come back."""
MAX_LINES = 200
"""Lines one /api/actions request may hold."""
MAX_BOARD_SECONDS = 60.0
"""Board time one /api/actions request may take (its lines and waits): a request keeps the
board's hands from every other one while it is carried out."""
ANSWER_SECONDS = 10.0
"""Seconds a request may wait beyond its own board time (for the requests before it, a
slow scan) before what it has not begun is cancelled."""
CANCEL_SECONDS = 2.0
"""How long a cancelled request waits for the board to say what it carried out."""

STATIC = resources.files("bgpi.web") / "static"
BRIDGE = web.AppKey("bridge", Bridge)
GEOMETRY = web.AppKey("geometry", Geometry)
STATE_DIR: web.AppKey[Path | None] = web.AppKey("state_dir")


def new_token() -> str:
    """A fresh access token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def encode(data: dict[str, Any]) -> bytes:
    """`data` (an event's JSON form, a view) as one server-sent-events message."""
    return b"data: " + json.dumps(data, separators=(",", ":")).encode() + b"\n\n"


class Hub:
    """The open event streams, on the server's event loop: each has a bounded queue."""

    def __init__(self) -> None:
        self.streams: set[asyncio.Queue[bytes | None]] = set()

    def subscribe(self) -> asyncio.Queue[bytes | None] | None:
        """A new stream; None when `MAX_STREAMS` are open."""
        if len(self.streams) >= MAX_STREAMS:
            return None
        stream: asyncio.Queue[bytes | None] = asyncio.Queue(SUBSCRIBER_BACKLOG)
        self.streams.add(stream)
        return stream

    def unsubscribe(self, stream: asyncio.Queue[bytes | None]) -> None:
        self.streams.discard(stream)

    def publish(self, events: list[ev.Event], view: dict[str, Any]) -> None:
        """Send `events`, then the new view, to every stream; a stream too far behind is ended."""
        messages = [*(encode(event.to_json()) for event in events), encode(view)]
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


HUB = web.AppKey("hub", Hub)


# -- handlers ------------------------------------------------------------------------


async def page(request: web.Request) -> web.StreamResponse:
    return web.Response(body=(STATIC / "index.html").read_bytes(), content_type="text/html")


async def static(request: web.Request) -> web.StreamResponse:
    name = request.match_info["name"]
    kinds = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
    kind = kinds.get(Path(name).suffix)
    if kind is None or name not in _static_names():  # never a path the file system is asked about
        raise web.HTTPNotFound()
    resource = STATIC / name
    return web.Response(body=resource.read_bytes(), content_type=kind,
                        headers={"Cache-Control": "no-cache"})


@functools.cache
def _static_names() -> frozenset[str]:
    return frozenset(entry.name for entry in STATIC.iterdir() if entry.is_file())


async def first_view(bridge: Bridge) -> dict[str, Any] | None:
    """The view, waiting a moment for the board's first scan if there is none yet."""
    for _ in range(STARTING_SECONDS * 100):
        if bridge.view is not None:
            return bridge.view
        await asyncio.sleep(0.01)
    return None


async def state(request: web.Request) -> web.StreamResponse:
    view = await first_view(request.app[BRIDGE])
    if view is None:
        return error_response(503, "the board is starting: try again in a moment")
    return web.json_response(view)


async def events(request: web.Request) -> web.StreamResponse:
    view = request.app[BRIDGE].view
    return await event_stream(request, request.app[HUB], None if view is None else encode(view),
                              f"{MAX_STREAMS} pages are watching this board already: close one")


async def event_stream(request: web.Request, hub: Hub, first: bytes | None, busy: str) -> web.StreamResponse:
    """`hub`'s messages as server-sent events, `first` before them (if any), with a
    keep-alive comment when nothing is said for a while; `busy` (503) when `hub` has
    all the streams it may serve."""
    stream = hub.subscribe()
    if stream is None:
        return error_response(503, busy, retry=True)
    response = web.StreamResponse(headers={
        "Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    try:
        await response.prepare(request)
        if first is not None:
            await response.write(first)
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
        return error_response(503, "the board is starting: try again in a moment")
    if not view["actions"]:
        return error_response(403, "this is a real board: hands on the board move the checkers and press the buttons")
    text = await _body(request)
    try:
        script = parse_script(text, "the request", request.app[GEOMETRY])
    except ScriptError as error:
        return web.json_response({"problems": error.problems}, status=400)
    board_seconds = _board_seconds(script.lines)
    problems = []
    if script.board != StartingBoard() or script.board.line:
        problems.append(f"line {script.board.line}: a board line begins a script; "
                        "the running table keeps its checkers")
    if script.config:
        problems.append("a config line sets up a new session, not hands at the running table")
    if not script.lines and not problems:
        problems.append("no lines: send board-script lines such as {\"lift\": 8}, one per line")
    if len(script.lines) > MAX_LINES:
        problems.append(f"{len(script.lines)} lines: a request holds at most {MAX_LINES}")
    if board_seconds > MAX_BOARD_SECONDS:
        problems.append(f"{board_seconds:g} s of board time: a request takes at most {MAX_BOARD_SECONDS:g} s "
                        f"({LINE_SECONDS:g} s a line, and its waits)")
    if problems:
        return web.json_response({"problems": problems}, status=400)
    return await _carry_out(bridge, script.lines, board_seconds)


def _board_seconds(lines: tuple[Action | NewSession, ...]) -> float:
    """The board time `lines` take when carried out (`bgpi.web.bridge`)."""
    return sum(line.seconds if isinstance(line, Wait) else LINE_SECONDS for line in lines)


async def new_session(request: web.Request) -> web.StreamResponse:
    bridge = request.app[BRIDGE]
    if bridge.start_session is None:
        return error_response(403, "this board starts no session from the page")
    try:
        body = json.loads(await _body(request))
    except (ValueError, RecursionError):
        return web.json_response({"problems": ["expected JSON such as {\"config\": {\"match\": 5}}"]}, status=400)
    # Only {"config": {...}}: anything else is a mistake, and a new session would end the one in progress.
    if not isinstance(body, dict) or set(body) != {"config"} or not isinstance(body["config"], dict):
        return web.json_response({"problems": [
            "expected {\"config\": {...}}, the new session's settings (such as {\"config\": {\"match\": 5}}; "
            "{\"config\": {}} for money play), and nothing else"]}, status=400)
    config = body["config"]
    try:
        script = parse_script(json.dumps({"config": config}), "the request")
    except ScriptError as error:
        return web.json_response({"problems": error.problems}, status=400)
    return await _carry_out(bridge, (NewSession(dict(script.config)),), LINE_SECONDS)


async def _body(request: web.Request) -> str:
    """The request's body as text: UTF-8, at most `MAX_BODY` bytes, within `BODY_SECONDS`."""
    if request.charset is not None and request.charset.lower().replace("_", "-") not in ("utf-8", "utf8"):
        raise _http(web.HTTPUnsupportedMediaType, f"charset {request.charset[:40]!r}: send UTF-8")
    if (request.content_length or 0) > MAX_BODY:
        raise _http(web.HTTPRequestEntityTooLarge, f"a body is at most {MAX_BODY} bytes",
                    max_size=MAX_BODY, actual_size=request.content_length)
    try:
        data = await asyncio.wait_for(request.read(), BODY_SECONDS)
    except TimeoutError:
        raise _http(web.HTTPRequestTimeout, f"the body did not arrive within {BODY_SECONDS:g} s") from None
    except web.RequestPayloadError as error:  # bad chunks, a Content-Encoding that does not decode
        raise _http(web.HTTPBadRequest, f"the body cannot be read: {_one_line(str(error))[:120]}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _http(web.HTTPBadRequest, f"the body is not UTF-8 (byte {error.start})") from None


async def _carry_out(bridge: Bridge, lines: tuple[Action | NewSession, ...], board_seconds: float) -> web.Response:
    """Hand a request to the scan loop and answer what it did, without blocking either.

    The answer is only ever what happened: a request the board has not got to in its
    board time and `ANSWER_SECONDS` more, or whose asker has gone, is cancelled (no line
    not begun by then is carried out), and the answer lists the events of the lines that were."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[tuple[list[ev.Event], str | None]] = loop.create_future()

    def done(caused: list[ev.Event], problem: str | None) -> None:  # on the scan loop's thread
        def settle() -> None:
            if not answer.done():
                answer.set_result((caused, problem))
        with contextlib.suppress(RuntimeError):  # the server has stopped: nobody waits for the answer
            loop.call_soon_threadsafe(settle)

    request = Request(lines, done)
    if not bridge.submit(request):
        return error_response(503, "the board's hands are busy with other requests: try again in a moment", retry=True)
    try:
        caused, problem = await asyncio.wait_for(asyncio.shield(answer), ANSWER_SECONDS + board_seconds)
    except TimeoutError:
        request.cancel(f"the board did not get to them within {ANSWER_SECONDS + board_seconds:g} s")
        try:
            caused, problem = await asyncio.wait_for(answer, CANCEL_SECONDS)
        except TimeoutError:  # the scan loop stands still: it begins nothing more of this request
            caused, problem = list(request.events), "the board did not answer: it begins no more of these lines"
        return web.json_response({"problems": [problem], "events": _json(caused)}, status=503,
                                 headers={"Retry-After": "5"})
    except asyncio.CancelledError:
        request.cancel("the page went away")
        raise
    if problem is not None:
        return web.json_response({"problems": [problem], "events": _json(caused)}, status=409)
    return web.json_response({"events": _json(caused)})


def _json(events: list[ev.Event]) -> list[dict[str, Any]]:
    return [event.to_json() for event in events]


async def session_file(request: web.Request) -> web.StreamResponse:
    """The current session's games: .mat (Jellyfish, not for a practice position) or .sgf."""
    kind = request.match_info["kind"]
    state_dir = request.app[STATE_DIR]
    if state_dir is None or not journal_path(state_dir).exists():
        return error_response(404, "no journal: this board keeps none")
    try:
        kept = await asyncio.to_thread(sessions, state_dir)
    except JournalError as error:
        return error_response(500, str(error))
    except JournalStartError as error:
        return error_response(409, str(error))
    if not kept:  # the journal went aside meanwhile (a new session)
        return error_response(404, "no games in this session yet: nothing to download")
    session = kept[-1]
    if session.fault is not None:
        return error_response(409, f"this session's session event is damaged ({session.fault}): "
                                   "it cannot be downloaded")
    if kind == "mat" and session.practice:
        return error_response(409, "this session starts from a practice position, which .mat cannot hold: "
                           "download the .sgf")
    try:
        record = mat_record(session.events) if kind == "mat" else sgf_record(session.events)
    except (MatError, SgfError) as error:
        return error_response(500, str(error))
    if record.games == 0:
        return error_response(404, "no games in this session yet: nothing to download")
    return web.Response(text=record.text, content_type="text/plain", headers={
        "Content-Disposition": f'attachment; filename="bgpi-session.{kind}"'})


def error_response(status: int, message: str, retry: bool = False) -> web.Response:
    """A JSON error (`{"error": message}`), asking to try again in 5 s if `retry`."""
    return web.json_response({"error": message}, status=status, headers={"Retry-After": "5"} if retry else None)


def _http(kind: type[web.HTTPException], message: str, **details: Any) -> web.HTTPException:
    """An HTTP error to raise, its body the JSON `error_response` answers."""
    return kind(text=json.dumps({"error": message}), content_type="application/json", **details)


# -- access --------------------------------------------------------------------------

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def access(token: str | None) -> Middleware:
    """The middleware that lets a request in: loopback names without a token, else the token."""

    @web.middleware
    async def check(request: web.Request, handler: Handler) -> web.StreamResponse:
        if token is None and _host_name(request.host) not in LOOPBACK_NAMES:
            return error_response(403, "this page answers only at 127.0.0.1 (use --listen with a token)")
        origin = request.headers.get("Origin")
        if request.method == "POST" and origin is not None and origin.split("://")[-1] != request.host:
            return error_response(403, "a request from another site's page")
        from_query = False
        if token is not None:
            right = [given for given in _tokens(request) if _same(given, token)]
            if not right:
                return error_response(401, "an access token is needed: open the address printed in the board's log")
            from_query = request.cookies.get(TOKEN_COOKIE) not in right  # the cookie is missing or old
        response = await handler(request)
        if from_query and token is not None and not response.prepared:
            response.set_cookie(TOKEN_COOKIE, token, httponly=True, samesite="Strict")
        return response

    return check


def _tokens(request: web.Request) -> list[str]:
    """Every token the request carries: its bearer, its cookie, its ``?token=``."""
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    found = [value.strip()] if scheme.lower() == "bearer" and value.strip() else []
    return found + [given for given in (request.cookies.get(TOKEN_COOKIE), request.query.get("token")) if given]


def _same(given: str, token: str) -> bool:
    """`given` is `token`, compared in constant time (bytes that are not UTF-8, as a header
    may hold, are simply not it)."""
    return hmac.compare_digest(given.encode("utf-8", "surrogateescape"), token.encode())


def _host_name(host: str) -> str:
    """The name in a Host header, without its port (checked by nobody else: a bad port is
    just not part of the name)."""
    if host.startswith("["):
        return host[: host.find("]") + 1]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


CLIENTS_OWN = (HttpProcessingError, web.RequestPayloadError, ConnectionError)
"""What aiohttp logs of a request its client malformed (answered with a 400) or broke off
(nobody to answer): the client's business, not the board's log."""


class ErrorLog:
    """One line to stderr for an unexpected error, at most one every `ERROR_LOG_SECONDS`
    (saying how many were not written), each begun with `who`; the asker gets a 500 with
    one line.  `handler` takes aiohttp's log records, `loop_error` the event loop's: one
    line each (never a traceback), the client's own faults (`CLIENTS_OWN`) none."""

    def __init__(self, who: str = "bgpi run: the page", clock: Callable[[], float] = time.monotonic) -> None:
        self.who = who
        self.clock = clock
        self.last: float | None = None
        self.unsaid = 0
        self.handler = _Lines(self)

    def say(self, request: web.Request, error: BaseException) -> None:
        """An unexpected error answering `request`."""
        self.write(f"{request.method} {request.path[:80]!r}: {_described(error)}")

    def heard(self, message: str, error: BaseException | None) -> None:
        """What aiohttp or the event loop would log, and the error it came with."""
        if not isinstance(error, CLIENTS_OWN):
            self.write(message if error is None else f"{message}: {_described(error)}")

    def loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """The server's event loop's exception handler (asyncio's own writes a traceback)."""
        error = context.get("exception")
        self.heard(str(context.get("message", "error in the event loop")), error)

    def write(self, what: str) -> None:
        now = self.clock()
        if self.last is not None and now - self.last < ERROR_LOG_SECONDS:
            self.unsaid += 1
            return
        more = f" (and {self.unsaid} more since the last line)" if self.unsaid else ""
        self.last, self.unsaid = now, 0
        print(_one_line(f"{self.who}: {what}")[:300] + more, file=sys.stderr, flush=True)


class _Lines(logging.Handler):
    """aiohttp's log records (``logging.getLogger("aiohttp")``, while a page is served) as
    `ErrorLog` lines."""

    def __init__(self, log: ErrorLog) -> None:
        super().__init__(logging.WARNING)
        self.log = log

    def emit(self, record: logging.LogRecord) -> None:
        error = record.exc_info[1] if record.exc_info else None
        try:
            message = record.getMessage()
        except (TypeError, ValueError):  # arguments that do not fit the message
            message = str(record.msg)
        self.log.heard(message, error)


def _described(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


def _one_line(text: str) -> str:
    return " ".join(text.splitlines())


def unexpected(log: ErrorLog) -> Middleware:
    """The outermost middleware: an unexpected error is a 500 and one line in the log; an
    asker gone while its request was read or answered gets nothing and writes nothing."""

    @web.middleware
    async def answer(request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            return await handler(request)
        except (web.HTTPException, asyncio.CancelledError):
            raise
        except ConnectionError:
            # Raised on, aiohttp would log it with a traceback; the answer reaches nobody.
            return error_response(400, "the request was broken off")
        except RecursionError:
            return error_response(400, "nested too deeply")
        except Exception as error:  # noqa: BLE001 (anything else: one line, never a traceback)
            log.say(request, error)
            return error_response(500, "the board could not answer that: its log says why")

    return answer


ERRORS = web.AppKey("errors", ErrorLog)


def guarded_app(token: str | None, who: str) -> web.Application:
    """An application behind the page's guards (`unexpected`, `access`, `MAX_BODY`), its
    `ErrorLog` (whose lines begin with `who`) in ``app[ERRORS]``."""
    log = ErrorLog(who)
    app = web.Application(middlewares=[unexpected(log), access(token)], client_max_size=MAX_BODY)
    app[ERRORS] = log
    return app


def make_app(bridge: Bridge, geometry: Geometry, token: str | None = None,
             state_dir: Path | None = None) -> web.Application:
    """The web application over `bridge`, a board of `geometry` (see the module docstring)."""
    app = guarded_app(token, "bgpi run: the page")
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


def app_runner(app: web.Application) -> web.AppRunner:
    """The runner of a `guarded_app`, with the page's limits: idle and slow connections
    end, a refused body is read a moment, requests being answered have a moment at the end."""
    return web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=SHUTDOWN_SECONDS,
                         keepalive_timeout=IDLE_SECONDS, lingering_time=LINGER_SECONDS, handler_cancellation=True)


def open_site(loop: asyncio.AbstractEventLoop, runner: web.AppRunner, host: str, port: int,
              sock: socket.socket | None = None) -> int:
    """Serve `runner`'s `guarded_app` on `host`:`port` (0: a free port), or on `sock` (bound
    and listening already) if given, its connections
    capped (`cap_connections`), what aiohttp and `loop` would log written to its
    `ErrorLog` until `close_site`; returns the port.  On failure the runner is cleaned up
    and the error raised."""
    log = runner.app[ERRORS]
    loop.set_exception_handler(log.loop_error)
    aiohttp_log = logging.getLogger("aiohttp")
    aiohttp_log.addHandler(log.handler)
    aiohttp_log.propagate = False  # nowhere else: a handler on the root logger would write the traceback
    try:
        loop.run_until_complete(runner.setup())
        assert runner.server is not None  # made by setup
        cap_connections(runner.server)
        site = web.SockSite(runner, sock) if sock is not None else web.TCPSite(runner, host, port,
                                                                                reuse_address=True)
        loop.run_until_complete(site.start())
    except BaseException:
        close_site(loop, runner)
        raise
    return int(runner.addresses[0][1])


def close_site(loop: asyncio.AbstractEventLoop, runner: web.AppRunner) -> None:
    """End what `open_site` began, on `loop` (stopped): the connections, then the log
    (aiohttp's records go where they went before once no page is served)."""
    try:
        loop.run_until_complete(runner.cleanup())
    finally:
        aiohttp_log = logging.getLogger("aiohttp")
        aiohttp_log.removeHandler(runner.app[ERRORS].handler)
        aiohttp_log.propagate = not any(isinstance(handler, _Lines) for handler in aiohttp_log.handlers)


def cap_connections(server: web.Server) -> None:
    """Close each connection beyond `MAX_CONNECTIONS` as it is made (aiohttp has no such
    setting: its `Server` hears every connection made, and is wrapped here)."""
    made = server.connection_made

    def connection_made(handler: RequestHandler, transport: asyncio.Transport) -> None:
        made(handler, transport)
        if len(server.connections) > MAX_CONNECTIONS:
            transport.abort()

    server.connection_made = connection_made  # type: ignore[method-assign]


class WebServer:
    """`make_app` served on its own thread and event loop, so the scan loop never waits for it.

    `start` returns once the socket is bound (raising OSError if it cannot be) and
    shortens the interpreter's switch interval (`SWITCH_INTERVAL`) while it serves;
    `stop` ends every stream and the thread and puts the interval back.
    """

    def __init__(self, bridge: Bridge, geometry: Geometry, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
                 token: str | None = None, state_dir: Path | None = None, sock: socket.socket | None = None) -> None:
        if host not in LOOPBACK_NAMES and token is None:
            raise ValueError(f"listening on {host} needs an access token")
        self.bridge = bridge
        self.host = host
        self.port = port
        self.token = token
        self.sock = sock
        """A socket bound to `host`:`port` and listening, to serve on (None: bound by `start`)."""
        self.app = make_app(bridge, geometry, token, state_dir)
        self._loop = asyncio.new_event_loop()
        self._runner = app_runner(self.app)
        self._thread = threading.Thread(target=self._serve, name="bgpi-web", daemon=True)
        self._started = threading.Event()
        self._failure: BaseException | None = None
        self._switch_interval = sys.getswitchinterval()

    @property
    def url(self) -> str:
        """The page's address, with the token when one is needed."""
        return page_url(self.host, self.port, self.token)

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
            self.port = open_site(loop, self._runner, self.host, self.port, self.sock)
        except BaseException as error:  # noqa: BLE001 (handed to the starting thread)
            self._failure = error
            self._started.set()
            loop.close()
            return
        hub = self.app[HUB]
        self.bridge.listener = lambda heard, view: self.call(hub.publish, heard, view)
        self._started.set()
        loop.run_forever()
        close_site(loop, self._runner)
        loop.close()

    def call(self, function: Callable[..., object], *args: object) -> None:
        """Call `function(*args)` on the server's event loop, soon (from any thread)."""
        with contextlib.suppress(RuntimeError):  # the server has stopped: nobody is watching
            self._loop.call_soon_threadsafe(function, *args)

    def call_and_wait(self, function: Callable[..., object], *args: object) -> None:
        """Call `function(*args)` on the server's event loop, from another thread, and
        return once it has run (at once if the server has stopped)."""
        async def run() -> None:
            function(*args)

        with contextlib.suppress(RuntimeError):  # the server has stopped
            asyncio.run_coroutine_threadsafe(run(), self._loop).result()

    def stop(self) -> None:
        if not self._thread.is_alive():
            return
        self.bridge.listener = None
        self.call(self.app[HUB].close_all)
        self.call(self._loop.stop)
        self._thread.join(timeout=10)
        sys.setswitchinterval(self._switch_interval)
