"""`bgpi replay`: run a board script on the simulated board and print the table log.

The contract is docs/board-script.md.  With a state directory the
journal is kept there, and a second replay with the same directory resumes the
game where the first stopped, the board still showing what it showed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from bgpi.board.locations import BARS
from bgpi.board.profile import Profile
from bgpi.exc import BoardKindError, ReplayError, UnknownLinkError
from bgpi.hardware.board import PTY, SIM, BoardKind, board_kind
from bgpi.link.board import open_board
from bgpi.shell.advisor import open_advisor
from bgpi.shell.boardfile import BoardFile, restore_board, save_board
from bgpi.shell.hands import TableHands
from bgpi.shell.opponents import Computer
from bgpi.shell.recovery import JOURNAL_ALERT_S, Opened, open_state
from bgpi.shell.runner import TableRunner
from bgpi.shell.script import (
    AWAIT_SECONDS,
    LINE_SECONDS,
    Action,
    Await,
    BoardPosition,
    Move,
    Script,
    Wait,
    format_line,
)
from bgpi.shell.sinks import FunctionSink, Journaled, Sink
from bgpi.table import events as ev
from bgpi.table.controller import Table
from bgpi.table.tracker import Sensing


class Awaited(Protocol):
    """The other board of a remote game, as a script's ``await`` line waits for it
    (`bgpi.remote.game.RemoteGame`)."""

    def awaited(self) -> bool:
        """True, once each, for each decision or dice it gave the table."""
        ...


def replay(
    script: Script,
    profile: Profile,
    write: ev.Emit,
    state_dir: Path | None = None,
    seed: int | None = None,
    warn: Callable[[str], None] = lambda message: None,
    link: str | None = None,
    engine: bool = False,
) -> None:
    """Run `script`; every table-log event goes to the journal (if any), then to `write`.

    `link` "pty": the simulated switches, buttons and LEDs live in the real firmware
    on the other end of a pseudo-terminal, reached through the serial link (the table
    log is the same).  With `engine`, the hint button and a computer opponent ask the
    engine the session's config names (`bgpi.shell.advisor.open_advisor`); without,
    there is none.  Raises `bgpi.link.simpico.SimPicoError`,
    `bgpi.link.board.LinkUnavailableError` or `bgpi.link.link.FirmwareRefusedError` if that fails."""
    sensing = Sensing(profile.geometry)
    opened = open_state(state_dir, sensing) if state_dir is not None else None
    journal = opened.journal if opened is not None else None
    try:
        for note in opened.notes if opened is not None else ():
            warn(note)
        resumed = opened.table if opened is not None else None
        table, opening = (resumed, []) if resumed is not None else _new_table(script, sensing)
        advisor = open_advisor(table.config) if engine else None
        runner = TableRunner(table, open_board(profile, _linked(link)), seed=seed,
                             gate=Journaled(journal) if journal is not None else None,
                             computer=Computer(advisor) if advisor is not None else None)
        hands = TableHands(runner)
        runner.sinks += _sinks(hands, state_dir, write)
        _put_checkers(hands, script, opened, state_dir)
        if opened is not None:
            opening += opened.opening()
        for event in opening:
            runner.tell(event)
        try:
            runner.advance(LINE_SECONDS)
            for line in script.lines:
                _perform(hands, line, runner.tell)
            runner.tell(table.state_event())
            if state_dir is not None:
                save_board(hands.board, state_dir)
        finally:
            runner.close()
            if advisor is not None:
                advisor.close()
    finally:
        if journal is not None:
            journal.close()


def _sinks(hands: TableHands, state_dir: Path | None, write: ev.Emit) -> list[Sink]:
    """The board's checkers with each event (with a state directory), then `write`."""
    sinks: list[Sink] = [] if state_dir is None else [BoardFile(hands.board, state_dir)]
    return [*sinks, FunctionSink(write)]


def _put_checkers(hands: TableHands, script: Script, opened: Opened | None, state_dir: Path | None) -> None:
    """The checkers of a resumed table as the last replay left them (as the journal did, if
    it was damaged, the damage shown on the lights); of a new one as the script's board says."""
    table = hands.runner.table
    if opened is not None and opened.table is not None and state_dir is not None:
        if opened.damaged is None:
            restore_board(hands.board, state_dir, table.position)
        else:
            hands.set_position(table.position)  # the checkers as the journal left them
    elif isinstance(script.board, BoardPosition):
        hands.set_position(script.board.position)
    elif script.board.kind == "start":
        hands.set_position(table.position)
    if opened is not None and opened.damaged is not None:
        hands.runner.alert(BARS, JOURNAL_ALERT_S)


def _linked(link: str | None) -> BoardKind:
    """The simulated board `link` names: behind the link (pty), or on mock pins (None)."""
    if link is None:
        return SIM
    try:
        kind = board_kind(link)
    except BoardKindError:
        kind = SIM
    if not (kind.simulated and kind.pico):
        raise UnknownLinkError(f"unknown link {link!r}: expected {PTY}")
    return kind


def _new_table(script: Script, sensing: Sensing) -> tuple[Table, list[ev.Event]]:
    board = script.board
    if isinstance(board, BoardPosition):
        return Table.new(sensing, dict(script.config), board.position_id, board.turn, board.match_id)
    return Table.new(sensing, dict(script.config))


def _perform(hands: TableHands, line: Action, emit: Callable[[ev.Event], object],
             other: Awaited | None = None) -> None:
    """Do what one script line says, letting its board time pass."""
    try:
        _carry_out(hands, line, emit, other)
    except ValueError as error:
        raise ReplayError(f"line {line.line}: {format_line(line)}: {error}") from None


def perform(hands: TableHands, line: Action, emit: Callable[[ev.Event], object],
            other: Awaited | None = None) -> None:
    """Do what one script line says with `hands`, letting its board time pass (ReplayError
    if it cannot); `emit` hears what a ``show`` line shows, an ``await`` line waits for
    `other` (the other board of a remote game)."""
    _perform(hands, line, emit, other)


def _carry_out(hands: TableHands, line: Action, emit: Callable[[ev.Event], object],
               other: Awaited | None) -> None:
    runner = hands.runner
    if isinstance(line, Wait):
        runner.advance(line.seconds)
    elif isinstance(line, Await):
        await_other(runner, other)
    elif isinstance(line, Move):
        # Lift, then place: the board sees the checker in hand in between, as at a table.
        hands.lift(line.source)
        runner.advance(LINE_SECONDS / 2)
        hands.place(line.destination)
        runner.advance(LINE_SECONDS / 2)
    else:
        shown = hands.act(line)
        if shown is not None:
            emit(shown)
        runner.advance(LINE_SECONDS)


def await_other(runner: TableRunner, other: Awaited | None, seconds: float = AWAIT_SECONDS) -> None:
    """Scan on (board time passing with the clock) until `other`, the other board of a
    remote game, has given its next decision or dice (`Awaited.awaited`); ValueError
    after `seconds`."""
    if other is None:
        raise ValueError("an await line is for a board in a remote game (bgpi run --remote)")
    give_up = time.monotonic() + seconds
    while not other.awaited():
        if time.monotonic() > give_up:
            raise ValueError(f"nothing came from the other board within {seconds:g} s")
        runner.advance(runner.period)
        time.sleep(runner.period)  # a scan period of the clock: the broker's thread and the other board meanwhile
