"""`bgpi run` serves the page: it says where in its first line, and the page can start a session."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from bgpi.cli import main
from bgpi.web.page import TOKEN_FILE

ENV = os.environ | {"NOTIFY_SOCKET": ""}


@contextmanager
def running(tmp_path: Path, *options: str):
    command = [sys.executable, "-m", "bgpi", "run", "--board", "sim", "--state", str(tmp_path), "--seed", "3",
               "--port", "0", *options]
    with subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, env=ENV) as service:
        try:
            yield service, service.stderr.readline()
        finally:
            service.send_signal(signal.SIGTERM)
            service.wait(timeout=20)
    assert service.returncode == 0


def get(url: str, path: str = "api/state", **request) -> dict:
    with urllib.request.urlopen(urllib.request.Request(url.split("?")[0] + path, **request), timeout=30) as answer:
        return json.loads(answer.read())


def test_run_serves_the_page_and_says_where_first(tmp_path):
    with running(tmp_path) as (service, first):
        found = re.fullmatch(r"bgpi run: the simulated board is running; its page: (http://127\.0\.0\.1:\d+/)\n", first)
        assert found, first
        url = found.group(1)
        assert json.loads(service.stdout.readline()) == {"event": "session", "config": {}}
        assert get(url)["board"] == "sim"
        answer = get(url, "api/session", method="POST", data=json.dumps({"config": {"match": 3}}).encode())
        assert answer["events"] == [{"event": "session", "config": {"match": 3}}]
        assert get(url)["match_length"] == 3
    # The page's new session set the old journal aside, as --new does.
    assert (tmp_path / "journal.1.jsonl").exists()
    assert '"match": 3' in (tmp_path / "journal.jsonl").read_text()


def test_listening_on_an_address_needs_the_token_it_prints(tmp_path):
    with running(tmp_path, "--listen", "127.0.0.1") as (_, first):
        url = re.search(r"its page: (\S+)", first).group(1)
        token = (tmp_path / TOKEN_FILE).read_text().strip()
        assert url.endswith(f"/?token={token}") and len(token) >= 20
        assert stat.S_IMODE((tmp_path / TOKEN_FILE).stat().st_mode) == 0o600
        with pytest.raises(urllib.error.HTTPError, match="401"):
            get(url)
        assert get(url, headers={"Authorization": f"Bearer {token}"})["phase"] == "setup"
    with running(tmp_path, "--listen", "127.0.0.1") as (_, again):
        assert again.rstrip().endswith(f"?token={token}")  # kept: a bookmark survives a restart


def test_a_port_in_use_serves_the_page_on_the_next_free_port(tmp_path):
    # Issue 19, item 22: not the other board's page, and not no page at all.
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with running(tmp_path, "--port", str(port)) as (service, first):
            assert first.startswith("bgpi run: the simulated board is running; its page: http://127.0.0.1:")
            assert f"(port {port} is in use, so the page is on port " in first
            assert json.loads(service.stdout.readline())["event"] == "session"


def test_a_bad_port_is_one_line_and_exit_2(tmp_path, capsys):
    assert main(["run", "--board", "sim", "--state", str(tmp_path), "--port", "70000"]) == 2
    error = capsys.readouterr().err
    assert error == "bgpi run: cannot serve the page: port 70000: a port is a number from 0 to 65535\n"


def test_no_page_serves_nothing(tmp_path):
    with running(tmp_path, "--no-page") as (_, first):
        assert first == "bgpi run: the simulated board is running\n"


def test_a_settings_file_serves_the_page_only_if_it_says_so(tmp_path):
    quiet = tmp_path / "quiet.toml"
    quiet.write_text('board = "sim"\n')
    with running(tmp_path, "--settings", str(quiet)) as (_, first):
        assert first == "bgpi run: the simulated board is running\n"
    shown = tmp_path / "shown.toml"
    shown.write_text('board = "sim"\n[page]\nenabled = true\nlisten = "127.0.0.1"\nport = 0\n')
    with running(tmp_path, "--settings", str(shown)) as (_, first):
        assert "its page: http://127.0.0.1:" in first and "?token=" in first


def test_a_resumed_session_tells_its_story_from_the_journal(tmp_path):
    lines = "\n".join(json.dumps(line) for line in (
        {"dice": [3, 1]}, {"press": "white.turn"}, {"move": [8, 5]}, {"move": [6, 5]}, {"press": "white.turn"}))
    with running(tmp_path) as (_, first):
        url = re.search(r"its page: (\S+)", first).group(1)
        get(url, "api/actions", method="POST", data=lines.encode())
    with running(tmp_path) as (_, first):
        url = re.search(r"its page: (\S+)", first).group(1)
        state = get(url)
    assert state["plays"] == [{"player": "white", "kind": "play", "dice": [3, 1], "move": "8/5 6/5"}]
    assert state["turn"] == "black" and state["checkers"]["5"] == {"count": 2, "colour": "white"}


def test_the_issues_cut_off_bodies_and_malformed_requests_leave_the_boards_log_as_it_was(tmp_path):
    """Issue 33: headers and part of a body, then the connection closed (alone, then a burst
    of 100), and requests aiohttp cannot parse: `bgpi run`'s log gets no line of them."""
    cut_off = b'POST /api/actions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{"pr'
    malformed = [b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n",
                 b"POST /api/actions HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
                 b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"]
    command = [sys.executable, "-m", "bgpi", "run", "--board", "sim", "--state", str(tmp_path), "--port", "0"]
    with subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True, env=ENV) as service:
        first = service.stderr.readline()
        url = first.split()[-1]
        port = int(re.search(r"127\.0\.0\.1:(\d+)/", url).group(1))
        for request in [cut_off] * 101 + malformed * 10:
            with socket.create_connection(("127.0.0.1", port)) as sock:
                sock.sendall(request)
                sock.settimeout(0.05)
                with contextlib.suppress(OSError):  # an answer, or none yet: the client goes either way
                    sock.recv(1)
        assert get(url)["phase"] == "setup"  # still serving, after all of them
        service.send_signal(signal.SIGTERM)
        rest = service.stderr.read()
    assert service.returncode == 0 and first.startswith("bgpi run: the simulated board is running")
    assert rest == ""  # no line since the first, traceback or other
