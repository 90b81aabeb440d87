"""The terminal simulator at a terminal (a pty, as a person types): each hand's answer,
its events and the board it leaves are printed before the next prompt (issue 32, item 9)."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

PROMPT = "] > "
WAIT = 60.0
"""How long a hand's answer may take on a loaded machine before the test gives up (not a timing assert)."""


class Terminal:
    """`bgpi run` behind a pty: `type` a line, get what it printed up to the next prompt."""

    def __init__(self, master: int) -> None:
        self.master = master

    def read_to_prompt(self) -> str:
        out = b""
        deadline = time.monotonic() + WAIT
        while not out.decode(errors="replace").endswith(PROMPT):
            if time.monotonic() > deadline:
                raise AssertionError(f"no prompt after: {out.decode(errors='replace')[-600:]}")
            ready, _, _ = select.select([self.master], [], [], 0.5)
            if ready:
                out += os.read(self.master, 65536)
        return out.decode(errors="replace").replace("\r\n", "\n")

    def type(self, line: str) -> str:
        os.write(self.master, (line + "\n").encode())
        return self.read_to_prompt().removeprefix(line + "\n")


@contextmanager
def terminal(tmp_path) -> Iterator[Terminal]:
    master, slave = pty.openpty()
    command = [sys.executable, "-m", "bgpi", "run", "--board", "sim", "--state", str(tmp_path), "--no-page",
               "--seed", "1"]
    with subprocess.Popen(command, stdin=slave, stdout=slave, stderr=slave, close_fds=True) as service:
        os.close(slave)
        try:
            console = Terminal(master)
            console.read_to_prompt()
            yield console
            os.write(master, b"q\n")
            service.wait(timeout=WAIT)
        finally:
            if service.poll() is None:
                service.kill()
            os.close(master)


def board_rows(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("|")]


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="no pty here")
def test_each_hand_is_answered_before_the_next_prompt(tmp_path):
    with terminal(tmp_path) as console:
        console.type("d 3 1")
        rolled = console.type("p wt")
        assert "White starts with 31" in rolled
        assert rolled.splitlines()[-1].startswith("[move, white on turn, dice 31")
        assert "To move, then commit (white: wt = commit)" in rolled  # the buttons as typed, not white.turn
        lifted = console.type("l 8")
        lights = next(row for row in board_rows(lifted) if "S" in row)
        assert "D" in lights  # the source and its destinations, lit at once
        put = console.type("u 7")
        assert put.index("White moves 8/7") < put.index("+---")  # said, then the board drawn after it
        assert "not on the board" not in put
        wrong = console.type("p zz")
        assert "unknown button 'zz': expected wt, wc, bt, bc or hint" in wrong and "white.turn" not in wrong
        helped = console.type("?")
        assert "m FROM TO" in helped and "Doubled: take or drop" in helped and "Which play was it?" in helped
