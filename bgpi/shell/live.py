"""The live board: `bgpi run` scanning in real time, on the Pi or on the simulated board.

The loop paces scans by the clock (the profile's scan rate), feeds the core
through a `TableRunner`, journals every event before it is shown, tells systemd
it is alive, and, on the simulated board at a terminal, takes hands from the
keyboard (`bgpi.shell.console`) and draws the board with its lights after each move.
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Callable

from bgpi.shell import sdnotify
from bgpi.shell.console import HELP, Console, console_turn
from bgpi.shell.simtable import TableRunner

WATCHDOG_SECONDS = 5.0
"""How often systemd hears that the loop is alive (the unit's WatchdogSec is larger)."""


def run_live(
    runner: TableRunner,
    stop: threading.Event,
    console: Console | None = None,
    after_scan: Callable[[TableRunner], None] | None = None,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """Scan at the profile's rate until `stop` is set (or the console quits).

    `after_scan` is called after every scan, on this thread (the web page's bridge);
    it must return at once.
    """
    # Everything loaded so far lives as long as the board: keeping it out of the
    # collector's reach keeps its pauses short (a full collection of it costs
    # milliseconds here, and some 15 times more on a Pi Zero 2 W).
    gc.freeze()
    sdnotify.ready()
    started = clock()
    last_watchdog = started
    if console is not None:
        print(HELP, file=console.out)
        console.draw(runner.table)
    while not stop.is_set():
        due = started + (runner.frames + 1) * runner.period
        wait = due - clock()
        if wait > 0:
            sleep(wait)
        runner.scan()
        if after_scan is not None:
            after_scan(runner)
        if console is not None and not console_turn(runner, console):
            break
        if console is not None and console.redraw_at is not None and runner.frames >= console.redraw_at:
            console.redraw_at = None
            console.draw(runner.table)
        if clock() - last_watchdog >= WATCHDOG_SECONDS:
            sdnotify.watchdog()
            last_watchdog = clock()
    sdnotify.stopping()
