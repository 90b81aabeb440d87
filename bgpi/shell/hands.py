"""Hands at a simulated board: a board script's lines carried out on a running table.

`TableHands` moves the checkers of the runner's board through its `Hands` (mock pins, or
the simulated Pico's firmware), presses its buttons, and carries out a script's other
lines at once: the next dice, what to show, the other board's word, a chouette's
latecomer or leaver.  Board time is the
caller's business (`bgpi.shell.replay` lets a line's time pass, the live loop the
clock's).  A real board has no such hands: its checkers move under real ones.
"""

from __future__ import annotations

from bgpi.board.locations import Location
from bgpi.board.profile import Switch
from bgpi.exc import HandsError
from bgpi.hardware.board import Hands
from bgpi.rules.position import Position
from bgpi.shell import script
from bgpi.shell.boardfile import put_position
from bgpi.shell.runner import TableRunner
from bgpi.table import events as ev
from bgpi.table.inputs import LinkChanged, Remote, RollWanted


class TableHands:
    """The hands at `runner`'s board, which must be a simulated one (HandsError if not)."""

    def __init__(self, runner: TableRunner) -> None:
        hands = runner.board.hands
        if hands is None:
            raise HandsError("a real board's checkers move under real hands, not a script's")
        self.runner = runner
        self.board: Hands = hands

    def set_position(self, position: Position) -> None:
        """Put the checkers of `position` on the board (trays included), nothing else."""
        put_position(self.board, position)

    def lift(self, location: Location) -> None:
        self.board.lift(location)

    def place(self, location: Location) -> None:
        self.board.place(location)

    def set_switch(self, location: Location, index: int, closed: bool) -> None:
        self.board.set_switch(Switch(location, index), closed)

    def press(self, button: str, long: bool = False) -> None:
        """Press `button` (hold it, if `long`) through the board, whose report the runner
        takes at once (mock pins report it there and then, the simulated Pico's firmware
        with its next frames); or straight to the table where the board cannot (a hold
        on mock pins)."""
        straight = self.board.press(button, long)
        if straight is not None:
            self.runner.press(straight.name, straight.long)
        else:
            self.runner.take_presses()

    def act(self, line: script.Action) -> ev.State | ev.Lights | None:
        """Carry out one board-script action at once; the event a ``show`` line asks for,
        None for the others."""
        runner = self.runner
        if isinstance(line, script.Move):
            self.lift(line.source)
            self.place(line.destination)
        elif isinstance(line, script.Lift):
            self.lift(line.location)
        elif isinstance(line, script.Place):
            self.place(line.location)
        elif isinstance(line, script.Slot):
            self.set_switch(line.location, line.index, line.closed)
        elif isinstance(line, script.SetDice):
            runner.dice.add(line.first, line.second)
        elif isinstance(line, (script.ShortPress, script.Hold)):
            self.press(line.button, long=isinstance(line, script.Hold))
        elif isinstance(line, script.Show):
            return runner.lights_event() if line.what == "lights" else runner.table.state_event()
        elif isinstance(line, script.FromRemote):
            runner.feed(Remote(RollWanted() if line.event == "roll" else line.event))
        elif isinstance(line, script.LinkLine):
            runner.feed(LinkChanged(line.link))
        elif isinstance(line, script.Seating):
            runner.feed(line.input())
        return None
