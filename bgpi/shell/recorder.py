"""The sensor recorder behind ``bgpi run --record FILE``.

A recorded sensor log from a real board is a board script of ``slot`` and ``wait`` lines
(with ``press`` / ``hold`` for the buttons), so any field bug can be replayed with
``bgpi replay`` and kept as a test.  The log starts from the switches as they are:
``{"board": "empty"}``, then a ``slot`` line for every switch already closed.

Board time in a script: each line other than ``wait`` lets `LINE_SECONDS` pass after it
happens, and ``wait`` lines add the rest.  The recorder keeps the script's board time in
whole milliseconds and writes before each event the wait that brings it to the event's
time, so rounding and lines that cannot fit between two close events never add up to a
drift: a late line is followed by a shorter wait.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Iterable
from typing import TextIO

from bgpi.board.locations import LOCATIONS, Location
from bgpi.board.profile import Switch
from bgpi.exc import ServiceError
from bgpi.shell.script import (
    LINE_SECONDS,
    MAX_WAIT,
    Hold,
    ScriptLine,
    SetDice,
    ShortPress,
    Slot,
    StartingBoard,
    Wait,
    format_line,
)

_LINE_MS = round(LINE_SECONDS * 1000)


class Recorder:
    """Writes debounced switch changes and button presses as a board script.

    `write` is called with each line of text (newline included) as soon as it is known;
    given a text file instead, each line is written and fsync'd, so a power cut loses
    nothing already seen, and a line the file refuses (a full disk) is ServiceError,
    one line naming the file.  `closed` are the switches closed at `start_s`, the time
    recording starts (seconds, on the same clock as the events').  Events must come in
    time order; one that comes earlier than the script can place it (the lines before it
    already took the time) is written at once, with no wait.
    """

    def __init__(self, write: Callable[[str], None] | TextIO, closed: Iterable[Switch] = (),
                 start_s: float = 0.0) -> None:
        self._write = write if callable(write) else _durable(write)
        self._board_ms = 0
        """Board time of the next line, in the script being written."""
        self._emit(StartingBoard("empty"))
        order = {location: number for number, location in enumerate(LOCATIONS)}
        for switch in sorted(closed, key=lambda switch: (order[switch.location], switch.slot)):
            self._emit(Slot(switch.location, switch.slot, True))
        # Board time when the script shows the switches as they were at start_s.
        self._origin_ms = self._board_ms - round(start_s * 1000)

    def switch_changed(self, time_s: float, location: Location, index: int, closed: bool) -> None:
        """Switch `index` (0 = outermost) under `location` closed or opened at `time_s`."""
        self._at(time_s, Slot(location, index, closed))

    def button(self, time_s: float, name: str, long: bool = False) -> None:
        """Button `name` was pressed at `time_s`: a long press (a ``hold`` line) if `long`."""
        self._at(time_s, Hold(name) if long else ShortPress(name))

    def dice(self, time_s: float, first: int, second: int) -> None:
        """The dice rolled at `time_s` showed `first` and `second` (a ``dice`` line, so
        that the recording replays with the same rolls)."""
        self._at(time_s, SetDice(first, second))

    def _at(self, time_s: float, line: Slot | ShortPress | Hold | SetDice) -> None:
        wait_ms = self._origin_ms + round(time_s * 1000) - self._board_ms
        while wait_ms > 0:
            chunk = min(wait_ms, round(MAX_WAIT * 1000))  # a long pause is several lines
            self._emit(Wait(chunk / 1000))
            wait_ms -= chunk
        self._emit(line)

    def _emit(self, line: ScriptLine) -> None:
        self._write(format_line(line) + "\n")
        self._board_ms += round(line.seconds * 1000) if isinstance(line, Wait) else _LINE_MS


def _durable(file: TextIO) -> Callable[[str], None]:
    """A writer that gets each line onto the disk before returning.  It writes past the
    file's buffer, so that a line refused is not left there to fail again when the file
    is closed; a pipe or a terminal (``--record /dev/stdout``) has nothing to sync."""
    def write(text: str) -> None:
        try:
            data = memoryview(text.encode("utf-8"))
            while data:
                data = data[os.write(file.fileno(), data):]
            _sync(file.fileno())
        except OSError as error:
            raise ServiceError(f"--record: cannot write {file.name}: {error.strerror or error}") from None
    return write


def _sync(fd: int) -> None:
    try:
        os.fsync(fd)
    except OSError as error:
        if error.errno != errno.EINVAL:  # EINVAL: a pipe, a terminal, a device: nothing to sync
            raise
