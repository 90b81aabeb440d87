"""Issue 21's attack campaign on the page and its API, kept as tests (127.0.0.1 only,
bounded in count and time): every attack answered with a 4xx and at most one line in the
log, requests bounded and cancelled, idle and slow connections ended, a flood of them
leaving the scan loop its rate."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bgpi.web.bridge as bridge_module
import bgpi.web.server as server
from bgpi.shell.runner import TableRunner
from bgpi.web.bridge import Bridge
from bgpi.web.server import TOKEN_COOKIE, ErrorLog
from tests.web.conftest import start_live

OPENING = ({"dice": [3, 1]}, {"press": "white.turn"}, {"move": [8, 5]}, {"move": [6, 5]}, {"press": "white.turn"})


def raw(port: int, data: bytes, timeout: float = 10) -> tuple[int, bytes]:
    """Send `data` as it is; (status, body) of the answer, 0 if the connection just ended."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(data)
        answer = b""
        while b"\r\n\r\n" not in answer and (chunk := sock.recv(65536)):
            answer += chunk
        if not answer:
            return 0, b""
        head, _, body = answer.partition(b"\r\n\r\n")
        length = next((int(line.split(b":")[1]) for line in head.lower().split(b"\r\n")
                       if line.startswith(b"content-length:")), 0)
        while len(body) < length and (chunk := sock.recv(65536)):
            body += chunk
    return int(head.split()[1]), body


def post(path: str, body: bytes, *headers: str) -> bytes:
    lines = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {len(body)}", "Connection: close",
             *headers]
    return "\r\n".join(lines).encode("latin-1") + b"\r\n\r\n" + body


def get(path: str, *headers: str, host: str = "127.0.0.1") -> bytes:
    return "\r\n".join([f"GET {path} HTTP/1.1", f"Host: {host}", "Connection: close", *headers]).encode(
        "latin-1", "surrogateescape") + b"\r\n\r\n"


def quiet(capfd, most: int = 0) -> str:
    """The log since the last look: no traceback, at most `most` lines."""
    err = capfd.readouterr().err
    assert "Traceback" not in err and len(err.splitlines()) <= most, err
    return err


# -- 3: one request cannot hold the board's hands --------------------------------------------


def test_a_request_of_too_many_lines_or_too_much_board_time_is_refused(live):
    status, answer = live.act({"wait": 3600})
    assert status == 400 and "board time" in answer["problems"][0]
    status, answer = live.act(*[{"press": "hint"}] * (server.MAX_LINES + 1))
    assert status == 400 and f"at most {server.MAX_LINES}" in answer["problems"][0]
    assert live.act(*OPENING)[0] == 200  # and the board's hands are free


@pytest.mark.slow
def test_a_request_not_begun_in_time_is_cancelled_and_the_answer_says_so(live, monkeypatch):
    monkeypatch.setattr(server, "ANSWER_SECONDS", 0.3)
    first = threading.Thread(target=live.act, args=({"wait": 3},))
    first.start()
    time.sleep(0.3)
    status, answer = live.act(*OPENING)  # waits behind the first, longer than its own time
    assert status == 503 and answer["events"] == []
    assert answer["problems"] == ["line 1 and the lines after it were not carried out: "
                                  "the board did not get to them within 0.8 s"]
    first.join()
    time.sleep(1)
    assert "start" not in [event.kind for event in live.log]  # true: never carried out later


@pytest.mark.slow
def test_a_request_whose_asker_goes_away_carries_out_nothing_more(live):
    lines = b"\n".join(json.dumps(line).encode() for line in ({"wait": 1.5}, *OPENING))
    with socket.create_connection(("127.0.0.1", live.server.port)) as sock:
        sock.sendall(post("/api/actions", lines))
        time.sleep(0.3)
    time.sleep(2.5)
    assert "start" not in [event.kind for event in live.log]
    assert live.act(*OPENING)[0] == 200


def test_requests_beyond_the_pending_bound_are_told_the_board_is_busy(live, monkeypatch):
    monkeypatch.setattr(bridge_module, "MAX_PENDING", 1)
    first = threading.Thread(target=live.act, args=({"wait": 1},))
    first.start()
    time.sleep(0.2)
    status, answer = live.act(*OPENING)
    first.join()
    assert status == 503 and "busy" in answer["error"]
    assert live.act(*OPENING)[0] == 200


# -- 4: no 500s, no log flood ----------------------------------------------------------------


@pytest.mark.parametrize(("request_bytes", "expected"), [
    (post("/api/actions", b'{"press":"\xff"}'), 400),
    (post("/api/actions", b'{"press": "hint"}', "Content-Type: application/json; charset=bogus"), 415),
    (post("/api/actions", '{"press": "hint"}'.encode("utf-16"), "Content-Type: application/json; charset=utf-16"),
     415),
    (post("/api/session", b"\xfe\xff{}"), 400),
    (post("/api/session", b"[" * 50_000), 400),
    (post("/api/session", b'{"config": ' + b"[" * 50_000 + b"}"), 400),
    (post("/api/actions", b'{"press": ' + b"[" * 50_000 + b"}"), 400),
    (post("/api/actions", b"x", "Content-Length: 1000000000"), 400),  # two lengths: aiohttp refuses it
    (post("/api/actions", b"", "Content-Length: 1000000000")[:-4].replace(b"Content-Length: 0\r\n", b"")
     + b"\r\n\r\n", 413),
    (get("/static/" + "a" * 300 + ".js"), 404),
    (get("/static/..%2fserver.py"), 404),
], ids=["bad-bytes", "bogus-charset", "utf-16", "not-utf-8", "nested-session", "nested-config", "nested-action",
        "two-lengths", "a-gigabyte", "long-static-name", "traversal"])
def test_each_trigger_is_a_4xx_with_nothing_in_the_log(live, capfd, request_bytes, expected):
    capfd.readouterr()
    status, _ = raw(live.server.port, request_bytes)
    assert status == expected
    quiet(capfd)


def test_a_bad_host_port_is_no_500(live, capfd):
    capfd.readouterr()
    status, _ = raw(live.server.port, get("/api/state", host="localhost:99999"))
    assert status == 200  # a loopback name; the port is nobody's business here
    quiet(capfd)


def test_a_flood_of_bad_bodies_writes_nothing(live, capfd):
    capfd.readouterr()
    for _ in range(200):
        assert raw(live.server.port, post("/api/actions", b'{"press":"\xff"}'))[0] == 400
    quiet(capfd)


@pytest.fixture
def guarded(tmp_path):
    board, close = start_live(tmp_path, token="RIGHT-TOKEN-0123456789")
    yield board
    close()


@pytest.mark.parametrize("header", ["Authorization: Bearer \udcff", "Cookie: bgpi_token=\udcff",
                                    "Authorization: Bearer \udcff\udcfe x"])
def test_bad_bytes_in_a_token_are_a_401_before_anything_else(guarded, capfd, header):
    capfd.readouterr()
    assert raw(guarded.server.port, get("/api/state", header))[0] == 401
    quiet(capfd)


def test_an_unexpected_error_writes_one_line_at_most_every_few_seconds(capsys):
    now = [0.0]
    log = ErrorLog(clock=lambda: now[0])

    class Asked:
        method, path = "GET", "/api/state"

    for _ in range(100):
        log.say(Asked, KeyError("x"))
    now[0] += server.ERROR_LOG_SECONDS
    log.say(Asked, KeyError("y"))
    lines = capsys.readouterr().err.splitlines()
    assert lines == ["bgpi run: the page: GET '/api/state': KeyError: 'x'",
                     "bgpi run: the page: GET '/api/state': KeyError: 'y' (and 99 more since the last line)"]


def test_an_unexpected_error_in_a_handler_is_a_500_and_one_line(live, capfd, monkeypatch):
    def broken(*args, **kwargs):
        raise KeyError("broken")

    monkeypatch.setattr(server, "parse_script", broken)
    capfd.readouterr()
    for _ in range(20):
        assert live.act({"press": "hint"})[0] == 500
    assert len(quiet(capfd, most=1).splitlines()) == 1


# -- 5: idle and slow connections; connection and stream caps ----------------------------------


@pytest.fixture
def strict(tmp_path, monkeypatch):
    """A live board with short limits, so that the tests of them take seconds."""
    monkeypatch.setattr(server, "IDLE_SECONDS", 1.0)
    monkeypatch.setattr(server, "BODY_SECONDS", 1.0)
    monkeypatch.setattr(server, "MAX_CONNECTIONS", 8)
    monkeypatch.setattr(server, "MAX_STREAMS", 3)
    monkeypatch.setattr(server, "KEEPALIVE_SECONDS", 0.5)
    board, close = start_live(tmp_path)
    yield board
    close()


def ended_within(sock: socket.socket, seconds: float) -> bool:
    sock.settimeout(seconds)
    try:
        while sock.recv(4096):
            pass
    except TimeoutError:
        return False
    except ConnectionError:
        pass
    return True


def test_a_silent_connection_and_slow_headers_are_closed(strict):
    with socket.create_connection(("127.0.0.1", strict.server.port)) as silent, \
            socket.create_connection(("127.0.0.1", strict.server.port)) as slow:
        started = time.monotonic()
        with pytest.raises(OSError):  # ended while it was still sending its headers, a byte at a time
            for byte in b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n":
                slow.sendall(bytes([byte]))
                time.sleep(0.3)
        assert time.monotonic() - started < 4
        assert ended_within(silent, 1)


def test_a_body_that_never_comes_is_a_408(strict):
    head = b"POST /api/actions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\nConnection: close\r\n\r\n{"
    status, _ = raw(strict.server.port, head)
    assert status == 408


def test_connections_beyond_the_cap_are_closed_and_the_board_still_answers(strict):
    sockets = [socket.create_connection(("127.0.0.1", strict.server.port)) for _ in range(12)]
    try:
        assert sum(ended_within(sock, 0.5) for sock in sockets) >= 4
    finally:
        for sock in sockets:
            sock.close()
    time.sleep(0.2)
    assert strict.request("GET", "/api/state")[0] == 200


@pytest.mark.slow
def test_streams_beyond_the_cap_are_refused_and_a_stream_outlives_the_idle_timeout(strict):
    streams = [socket.create_connection(("127.0.0.1", strict.server.port)) for _ in range(3)]
    try:
        for sock in streams:
            sock.sendall(get("/api/events").replace(b"Connection: close", b"Connection: keep-alive"))
            assert b"200 OK" in sock.recv(4096)
        assert raw(strict.server.port, get("/api/events"))[0] == 503
        time.sleep(2.5)  # past the idle timeout: a stream is never idle, it says keep-alive
        streams[0].settimeout(2)
        assert b"keep-alive" in streams[0].recv(65536) + streams[0].recv(65536)
    finally:
        for sock in streams:
            sock.close()


@pytest.mark.slow
def test_slowloris_and_a_stream_flood_leave_the_scan_loop_its_rate(tmp_path, monkeypatch):
    scans = [0]
    after_scan = Bridge.after_scan

    def counted(self, runner):
        scans[0] += 1
        after_scan(self, runner)

    monkeypatch.setattr(Bridge, "after_scan", counted)
    # Never idle: the loop would scan an untouched board at its idle rate (bgpi.shell.live).
    monkeypatch.setattr(TableRunner, "quiet_until", property(lambda self: None))
    live, close = start_live(tmp_path)
    try:
        attackers = []
        for n in range(60):
            sock = socket.create_connection(("127.0.0.1", live.server.port))
            sock.sendall(get("/api/events") if n % 2 else b"GET /api/state HTTP/1.1\r\nHo")
            attackers.append(sock)
        stop = threading.Event()

        def drip() -> None:
            while not stop.wait(0.2):
                for sock in attackers[::2]:
                    with contextlib.suppress(OSError):  # closed by the server: fine
                        sock.sendall(b"s")

        dripper = threading.Thread(target=drip, daemon=True)
        dripper.start()
        before, started = scans[0], time.monotonic()
        time.sleep(3)
        scanned, seconds = scans[0] - before, time.monotonic() - started
        stop.set()
        dripper.join()
        expected = seconds / live.runner.period
        assert scanned >= 0.8 * expected, (scanned, expected)
        assert live.request("GET", "/api/state")[0] == 200
    finally:
        for sock in attackers:
            sock.close()
        close()


# -- 6: a right token anywhere wins ---------------------------------------------------------


def test_a_right_token_in_the_address_wins_over_an_old_cookie(guarded):
    status, body = raw(guarded.server.port, get("/api/state?token=RIGHT-TOKEN-0123456789",
                                                f"Cookie: {TOKEN_COOKIE}=OLD"))
    assert status == 200
    status, _ = raw(guarded.server.port, get("/api/state", f"Cookie: {TOKEN_COOKIE}=OLD",
                                             "Authorization: Bearer RIGHT-TOKEN-0123456789"))
    assert status == 200
    assert raw(guarded.server.port, get("/api/state?token=WRONG", f"Cookie: {TOKEN_COOKIE}=OLD"))[0] == 401


# -- fuzz: /api/actions and /api/session bodies --------------------------------------------

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12)
LINE = st.dictionaries(st.sampled_from(["press", "lift", "place", "move", "dice", "wait", "config", "board", "x"]),
                       JSON, min_size=1, max_size=2)
ANSWERS = {200, 400, 403, 409, 413, 415, 503}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.one_of(st.binary(max_size=200), st.lists(LINE, max_size=4).map(
    lambda lines: "\n".join(json.dumps(line) for line in lines).encode())))
def test_fuzzed_action_bodies_are_never_a_500(live, capfd, body):
    assert raw(live.server.port, post("/api/actions", body))[0] in ANSWERS
    quiet(capfd)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.one_of(st.binary(max_size=200), st.dictionaries(st.sampled_from(["config", "x"]), JSON).map(
    lambda value: json.dumps(value).encode())))
def test_fuzzed_session_bodies_are_never_a_500(live, capfd, body):
    assert raw(live.server.port, post("/api/session", body))[0] in ANSWERS
    quiet(capfd)
