"""`bgpi run` stopped by systemd (SIGTERM): the journal whole, the LEDs off, exit 0
within the 2 s the unit gives it (TimeoutStopSec is larger, but a board that takes
longer would hold up every shutdown)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from bgpi.board.colours import DARK
from bgpi.cli import main
from bgpi.hardware import board as board_module
from bgpi.hardware.leds import SimulatedPixels
from bgpi.shell.journal import journal_path, read_journal

STOP_SECONDS = 2


def test_sigterm_ends_the_run_with_status_0_within_2_s_and_the_journal_whole(tmp_path):
    command = [sys.executable, "-m", "bgpi", "run", "--board", "sim", "--state", str(tmp_path),
               "--no-page", "--seed", "4"]
    with subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True,
                          env=os.environ | {"NOTIFY_SOCKET": ""}) as service:
        service.stdout.readline()  # the board is up: its first event is out
        service.send_signal(signal.SIGTERM)
        assert service.wait(timeout=STOP_SECONDS) == 0
    journal = read_journal(tmp_path)
    assert journal.events and journal.damaged is None and not journal.problems
    assert journal_path(tmp_path).read_bytes().endswith(b"\n")


def test_sigterm_turns_the_leds_off(tmp_path, monkeypatch):
    shown_at_close = []
    close = board_module.BoardDevices.close
    show = SimulatedPixels.show

    def closing(board):
        shown_at_close.append(board.leds.pixels.shown)
        close(board)
        shown_at_close.append(board.leds.pixels.shown)

    def showing(pixels):
        show(pixels)
        if set(pixels.shown) != {DARK}:  # lit (the setup guidance): now systemd stops it
            os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(board_module.BoardDevices, "close", closing)
    monkeypatch.setattr(SimulatedPixels, "show", showing)
    handlers = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGINT)}
    try:
        status = main(["run", "--board", "sim", "--state", str(tmp_path), "--no-page"])
    finally:
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
    assert status == 0
    lit, shown = shown_at_close
    assert set(lit) != {DARK}
    assert set(shown) == {DARK}
