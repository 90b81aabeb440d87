"""Debian's GNU Backgammon as a persistent headless process behind the bridge.

One `gnubg -t -q -p bridge.py` process answers every request (starting gnubg
and loading its networks takes longer than a hint).  Every request has a time
limit: past it the process is killed and `EngineTimeoutError` raised, and the next
request starts a fresh one.  A process that died between requests (or while
answering) is restarted and the request asked once more.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shutil
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from bgpi.exc import EngineError, EngineTimeoutError, NoEngineError

BRIDGE = Path(__file__).with_name("bridge.py")
DEBIAN_GNUBG = "/usr/games/gnubg"  # Debian installs games outside a service's usual PATH
START_TIMEOUT = 20.0  # seconds for gnubg to load its networks and bearoff databases


def find_gnubg() -> str | None:
    """The gnubg executable: on PATH, or where Debian installs it; None if missing."""
    found = shutil.which("gnubg")
    if found:
        return found
    return DEBIAN_GNUBG if os.access(DEBIAN_GNUBG, os.X_OK) else None


def gnubg_command(executable: str) -> list[str]:
    """The command line of a headless gnubg running the bridge."""
    return [executable, "-t", "-q", "-p", str(BRIDGE)]


class _Died(Exception):
    """The process ended before answering."""


class ProcessBackend:
    """Answers requests through one gnubg process, started on first use."""

    name = "gnubg"

    def __init__(self, command: Sequence[str], start_timeout: float = START_TIMEOUT) -> None:
        self.command = list(command)
        self.start_timeout = start_timeout
        self._process: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self._lock = threading.Lock()

    @property
    def pid(self) -> int | None:
        """The running gnubg's process id (None before the first request)."""
        return self._process.pid if self._process else None

    def ask(self, request: Mapping[str, Any], timeout: float) -> dict[str, Any]:
        """The bridge's answer to `request`; EngineError (NoEngineError, EngineTimeoutError) if none."""
        with self._lock:
            for attempt in (1, 2):
                if self._process is None or self._process.poll() is not None:
                    self._start()
                try:
                    self._write(json.dumps(request) + "\n")
                    answer: dict[str, Any] = json.loads(self._read_line(time.monotonic() + timeout))
                except _Died:
                    self._stop()
                    if attempt == 2:
                        raise EngineError("gnubg stopped while answering, twice") from None
                    continue
                except EngineTimeoutError:
                    self._stop()
                    raise
                if "error" in answer:
                    raise EngineError(f"gnubg: {answer['error']}")
                return answer
        raise AssertionError("unreachable")

    def close(self) -> None:
        with self._lock:
            self._stop()

    def _start(self) -> None:
        self._stop()
        # C numbers in commands: a locale with decimal commas would misread "noise 0.015".
        environment = dict(os.environ, LC_ALL="C.UTF-8", BGPI_ENGINE_DIR=str(BRIDGE.parent))
        try:
            self._process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=environment,
            )
        except OSError as error:
            raise NoEngineError(f"no engine: cannot start {self.command[0]} ({error.strerror})") from None
        os.set_blocking(self._stdout().fileno(), False)
        deadline = time.monotonic() + self.start_timeout
        try:
            while True:  # gnubg's banner comes first
                line = self._read_line(deadline)
                if line.startswith("{") and json.loads(line).get("ready"):
                    return
        except _Died:
            self._stop()
            raise EngineError(f"gnubg exited while starting ({' '.join(self.command)})") from None
        except EngineTimeoutError:
            self._stop()
            raise EngineTimeoutError(f"gnubg did not start within {self.start_timeout:g} s") from None

    def _stdin(self) -> IO[bytes]:
        """The pipe to the running gnubg; _Died if there is none."""
        if self._process is None or self._process.stdin is None:
            raise _Died
        return self._process.stdin

    def _stdout(self) -> IO[bytes]:
        """The pipe from the running gnubg; _Died if there is none."""
        if self._process is None or self._process.stdout is None:
            raise _Died
        return self._process.stdout

    def _write(self, text: str) -> None:
        stdin = self._stdin()
        try:
            stdin.write(text.encode("utf-8"))
            stdin.flush()
        except (BrokenPipeError, OSError):
            raise _Died from None

    def _read_line(self, deadline: float) -> str:
        """The next line from gnubg; _Died at end of output, EngineTimeoutError past `deadline`."""
        stdout = self._stdout()
        with selectors.DefaultSelector() as selector:
            selector.register(stdout, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise EngineTimeoutError("gnubg did not answer in time")
                chunk = os.read(stdout.fileno(), 65536)
                if not chunk:
                    raise _Died
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", "replace").strip()

    def _stop(self) -> None:
        process, self._process, self._buffer = self._process, None, b""
        if process is None:
            return
        if process.poll() is None:
            process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):  # a broken pipe has nothing left to flush
                    stream.close()
