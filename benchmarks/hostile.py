"""Issue 33's hostile load on a board's page, from another process, and the board it
loads (`board_with_page`); shared by the benchmarks.

`hostile_load` starts a process of `clients` threads that, until `seconds` have passed,
each pick at random, again and again: a POST whose body is cut off (headers and 4 bytes
of a 100-byte body, then the connection closed), an event stream opened and dropped
after its first message, a flood of 50 hint presses in one /api/actions request, a
lift from a random point, a new session of a random match length, and a 60,000-byte
body that is no board script.  It prints one JSON line when done: how many requests of
each kind were made and how they were answered (the HTTP status, or "cut" for a body
cut off by the client, "refused" for a connection the page closed or refused).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bgpi.hardware.board import SIM
from bgpi.hardware.profile import Profile
from bgpi.shell.service import BoardService, ServiceSettings, SessionSetup
from bgpi.web.page import BoardPage, PageSettings


@contextmanager
def board_with_page(profile: Profile, state: Path, seed: int) -> Iterator[tuple[BoardService, BoardPage]]:
    """A `bgpi run --board sim` board in this process, with its page on a free port and
    its words thrown away: the service (not yet running) and its page."""
    settings = ServiceSettings(SIM, profile, state, SessionSetup({}), seed=seed)
    page = BoardPage(PageSettings(port=0), profile.geometry, state)
    with open(os.devnull, "w") as out, BoardService(settings, threading.Event(), page, out=out) as service:
        yield service, page


HOSTILE = textwrap.dedent("""
    import collections, json, random, socket, sys, threading, time, urllib.error, urllib.request
    base, port, seconds, clients = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
    sys.stdin.readline()  # started ahead (starting a process stalls the board's): go when told
    end = time.monotonic() + seconds
    CUT = b'POST /api/actions HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nContent-Length: 100\\r\\n\\r\\n{"pr'
    answers = collections.Counter()
    def post(path, body):
        request = urllib.request.Request(base + path, data=body.encode())
        with urllib.request.urlopen(request, timeout=20) as answer:
            answer.read()
            return answer.status
    def cut():
        with socket.create_connection(("127.0.0.1", port)) as sock:
            sock.sendall(CUT)
            time.sleep(0.05)
        return "cut"
    def stream():
        with urllib.request.urlopen(base + "api/events", timeout=5) as events:
            events.readline()
            return events.status
    kinds = {"cut body": cut, "event stream": stream,
             "50 hints": lambda: post("api/actions", "\\n".join([json.dumps({"press": "hint"})] * 50)),
             "lift": lambda: post("api/actions", json.dumps({"lift": random.randint(1, 24)})),
             "new session": lambda: post("api/session", json.dumps({"config": {"match": random.randint(1, 9)}})),
             "60 KB junk": lambda: post("api/actions", "x" * 60000)}
    def client(number):
        rng = random.Random(number)
        names = sorted(kinds)
        while time.monotonic() < end:
            name = rng.choice(names)
            try:
                answer = kinds[name]()
            except urllib.error.HTTPError as error:
                answer = error.code
            except OSError:
                answer = "refused"
            answers[f"{name} {answer}"] += 1
    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(json.dumps(dict(sorted(answers.items()))))
""")


class HostileLoad:
    """The load's process, started ahead: `go` begins it, `wait` returns its answers."""

    def __init__(self, url: str, seconds: float, clients: int = 20) -> None:
        port = int(url.rsplit(":", 1)[1].split("/")[0])
        self.seconds = seconds
        self.process = subprocess.Popen(
            [sys.executable, "-c", HOSTILE, url, str(port), str(seconds), str(clients)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def go(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("go\n")
        self.process.stdin.flush()

    def wait(self) -> dict[str, int]:
        """How the page answered each kind of request (see the module docstring)."""
        out, _ = self.process.communicate(timeout=self.seconds + 120)
        return json.loads(out) if out.strip() else {}

