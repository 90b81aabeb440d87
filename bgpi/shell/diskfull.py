"""Journaling through a full disk: play pauses, the write is retried, play goes on.

Every event is journaled before it is shown.  When the disk refuses a line (full, over
quota, over a file size limit) the board must neither lose the event nor show it
unjournaled, and must not stop: `append_patiently` keeps the event, shows the error
pattern on the LEDs (`DISK_FULL`: every point and the bar red), keeps
systemd's watchdog fed, and tries again every `RETRY_S` until the line is on the disk.
The journal leaves no part of a refused line behind (`Journal.append`), so the retry
writes it whole, once.  The wire's journal of a remote game (``remote.jsonl``) waits the
same way (`Patience`): nothing is published or acted on before it is written.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from bgpi.board.locations import BARS, POINTS
from bgpi.board.profile import LedConfig
from bgpi.exc import JournalError
from bgpi.hardware.leds import Leds
from bgpi.shell import sdnotify
from bgpi.table.lights import Lighting, colours

RETRY_S = 1.0
"""Seconds between two tries of a refused write."""

DISK_FULL = Lighting(roles=dict.fromkeys((*POINTS, *BARS), "rejected"))
"""The error pattern while play waits for the disk."""


Patience = Callable[[Callable[[], None]], bool]
"""A way to make a journal write (a function that appends one line, JournalError if the
disk refuses it): True once the line is on the disk, False if it never will be (the
board is stopping).  `append_patiently` with the service's pause, or `at_once`."""


def append_patiently(
    write: Callable[[], None],
    stop: threading.Event,
    pause: Callable[[JournalError], None],
    go_on: Callable[[], None],
    sleep: Callable[[float], None] = time.sleep,
) -> bool:
    """Make the journal write `write` (``lambda: journal.append(event)``), trying again
    every `RETRY_S` for as long as the disk refuses it.

    `pause(error)` is called at the first refusal (show the pattern, say why), `go_on()`
    once the line is on the disk after one.  Returns True once the line is on the disk;
    False if `stop` was set while waiting (the line is then neither journaled nor to be
    acted on: the board stops as if it had never happened).
    """
    paused = False
    while True:
        try:
            write()
        except JournalError as error:
            if not paused:
                pause(error)
                paused = True
            sdnotify.watchdog()  # paused on purpose, not hung
            if stop.is_set():
                return False
            sleep(RETRY_S)
            continue
        if paused:
            go_on()
        return True


def at_once(write: Callable[[], None]) -> bool:
    """A `Patience` that waits for nothing: a refused write raises its JournalError (where
    nobody waits for the disk: `bgpi replay`, a test)."""
    write()
    return True


def show_disk_full(leds: Leds, config: LedConfig) -> None:
    """The error pattern, held while play waits: every point and the bar red."""
    leds.show(colours(DISK_FULL, config, 0.0))
