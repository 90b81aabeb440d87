"""The commands through the link: `bgpi replay --link pty`, `bgpi diag --board pty`,
and `bgpi run --board serial:DEVICE` against the simulated Pico running by the clock,
its cable pulled and plugged back."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

from bgpi.hardware.profile import load_profile
from bgpi.link.simpico import PicoHands, SimPico
from bgpi.shell.boardfile import position_checkers
from bgpi.table.controller import Table
from bgpi.table.tracker import Sensing

SCENARIOS = Path(__file__).parent.parent / "scenarios"
WAIT_S = 20.0


def bgpi(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bgpi", *argv], capture_output=True, text=True,
                          timeout=60, check=False)


def test_replay_through_the_link_prints_the_same_table_log() -> None:
    script = SCENARIOS / "opening_31.jsonl"
    done = bgpi("replay", "--link", "pty", "--seed", "0", str(script))
    assert done.returncode == 0, done.stderr
    expected = script.with_name("opening_31.log.jsonl").read_text()
    assert [json.loads(line) for line in done.stdout.splitlines()] == \
        [json.loads(line) for line in expected.splitlines()]


def test_diag_checks_the_board_through_the_firmware() -> None:
    done = bgpi("diag", "--check", "--board", "pty")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.endswith("check passed\n")


def test_run_refuses_a_board_it_cannot_run() -> None:
    for board, words in (("pty", "is for `bgpi replay --link pty`"), ("usb", "invalid board_kind value")):
        done = bgpi("run", "--board", board, "--state", "/nonexistent/never-used")
        assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr, done.stderr


class Lines:
    """The lines a stream gives, read by a thread: `wait` for one that contains some words."""

    def __init__(self, stream) -> None:
        self.lines: queue.SimpleQueue[str] = queue.SimpleQueue()
        self.seen: list[str] = []
        threading.Thread(target=lambda: [self.lines.put(line) for line in stream], daemon=True).start()

    def wait(self, *words: str) -> str:
        """The next line with any of `words` in it."""
        while True:
            try:
                line = self.lines.get(timeout=WAIT_S)
            except queue.Empty:
                raise AssertionError(f"no line with {words!r} in {self.seen}") from None
            self.seen.append(line)
            if any(word in line for word in words):
                return line


def test_run_on_a_co_processor_pauses_while_its_cable_is_out(tmp_path) -> None:
    profile = load_profile()
    with SimPico(tmp_path, realtime=True) as pico:
        hands = PicoHands(profile, pico)
        table, _ = Table.new(Sensing(profile.geometry), {})
        for location, count in position_checkers(table.position).items():
            if count:
                hands.set_checkers(location, count)
        run = subprocess.Popen(
            [sys.executable, "-m", "bgpi", "run", "--board", f"serial:{pico.port}", "--state",
             str(tmp_path / "state"), "--no-page", "--seed", "0"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            out, err = Lines(run.stdout), Lines(run.stderr)
            err.wait("connected (firmware 1.0.0)")
            for _ in range(50):  # until the table has taken in the checkers set up
                pico.press("white.turn")
                if '"opening"' in out.wait('"opening"', '"rejected"'):
                    break
            else:
                raise AssertionError(f"no opening roll: {out.seen}")
            pico.unplug()
            err.wait("not connected")
            pico.plug()
            err.wait("connected (firmware")
            pico.press("black.cube")  # the board answers again after the cable is back
            out.wait('"event"')
        finally:
            run.send_signal(signal.SIGTERM)
            assert run.wait(timeout=WAIT_S) == 0
