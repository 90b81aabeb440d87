"""The simulated board's checkers kept between runs, as a real board keeps its own.

A real board's checkers stay where hands left them when the program stops; a simulated
board's live in memory.  So `bgpi run` and `bgpi replay` write them to `BOARD_FILE` in
the state directory with each journaled event (`BoardFile`, a sink) and put them back
on the next start (`restore_board`), where a damaged or missing file gives way to the
table's position.  The file is replaced in one rename: a kill at any moment leaves the
old checkers or the new ones, never half of them.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from bgpi.board.locations import LOCATIONS, Location, checkers_on, parse_location
from bgpi.hardware.board import Hands
from bgpi.rules.position import Position
from bgpi.table import events as ev

BOARD_FILE = "board.json"
"""In a state directory: the checkers on the simulated board when it stopped."""


def position_checkers(position: Position) -> dict[Location, int]:
    """How many checkers stand on each location of the board in `position`.

    >>> position_checkers(Position.start())[6], position_checkers(Position.start())["bar:white"]
    (5, 0)
    """
    return {location: checkers_on(position, location) for location in LOCATIONS}


def put_position(hands: Hands, position: Position) -> None:
    """Put the checkers of `position` on the board (trays included), nothing else."""
    hands.clear()
    for location, count in position_checkers(position).items():
        if count:
            hands.set_checkers(location, count)


def save_board(hands: Hands, state_dir: Path) -> None:
    """Write the checkers on the board to `BOARD_FILE`, readable by its owner only (as the journal)."""
    checkers = {str(location): hands.checkers(location) for location in LOCATIONS if hands.checkers(location)}
    path = Path(state_dir) / BOARD_FILE
    partial = path.with_name(BOARD_FILE + ".new")
    with os.fdopen(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as file:
        file.write(json.dumps(checkers) + "\n")
    partial.replace(path)


def load_board(hands: Hands, state_dir: Path) -> bool:
    """Put back the checkers `save_board` wrote; False if there are none to read."""
    path = Path(state_dir) / BOARD_FILE
    try:
        saved = json.loads(path.read_text())
        checkers = {parse_location(location): int(count) for location, count in saved.items()}
    except (OSError, ValueError, AttributeError):
        return False
    hands.clear()
    for location, count in checkers.items():
        hands.set_checkers(location, count)
    return True


def restore_board(hands: Hands, state_dir: Path, position: Position) -> None:
    """Put back the checkers of the last run, or, without them, those of `position`."""
    if not load_board(hands, state_dir):
        put_position(hands, position)


class BoardFile:
    """A sink: the checkers as they stand with each event, saved to `state_dir`."""

    def __init__(self, hands: Hands, state_dir: Path) -> None:
        self.hands = hands
        self.state_dir = state_dir

    def hear(self, event: ev.Event) -> None:
        with contextlib.suppress(OSError):  # the next event saves them again
            save_board(self.hands, self.state_dir)
