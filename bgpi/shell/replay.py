"""`bgpi replay`: run a board script on the simulated board and print the table log.

The contract is docs/board-script.md.  With a state directory the
journal is kept there, and a second replay with the same directory resumes the
game where the first stopped, the board still showing what it showed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from bgpi.board.locations import BARS
from bgpi.board.profile import Profile
from bgpi.exc import ReplayError, UnknownLinkError
from bgpi.hardware.board import BoardDevices
from bgpi.link.board import PTY, open_pty_board
from bgpi.shell.advisor import open_advisor
from bgpi.shell.recovery import JOURNAL_ALERT_S, Opened, open_state
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
from bgpi.shell.simtable import SimulatedTable
from bgpi.table import events as ev
from bgpi.table.controller import Table
from bgpi.table.tracker import Sensing


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

    sim: SimulatedTable | None = None

    def emit(event: ev.Event) -> None:
        if journal is not None and state_dir is not None:
            journal.append(event)  # on the disk before it is shown
            if sim is not None:
                sim.save_board(state_dir)  # the checkers as they stand with this event
        write(event)

    try:
        for note in opened.notes if opened is not None else ():
            warn(note)
        resumed = opened.table if opened is not None else None
        table, opening = (resumed, []) if resumed is not None else _new_table(script, sensing)
        sim = SimulatedTable(profile, table, emit, seed, board=_board(profile, link))
        _put_checkers(sim, script, opened, state_dir)
        advisor = open_advisor(table.config) if engine else None
        if advisor is not None:
            sim.advise = advisor
        if opened is not None:
            opening += opened.opening()
        for event in opening:
            emit(event)
        try:
            sim.advance(LINE_SECONDS)
            for line in script.lines:
                _perform(sim, line, emit)
            emit(table.state_event())
            if state_dir is not None:
                sim.save_board(state_dir)
        finally:
            sim.close()
            if advisor is not None:
                advisor.close()
    finally:
        if journal is not None:
            journal.close()


def _put_checkers(sim: SimulatedTable, script: Script, opened: Opened | None, state_dir: Path | None) -> None:
    """The checkers of a resumed table as the last replay left them (as the journal did, if
    it was damaged, the damage shown on the lights); of a new one as the script's board says."""
    if opened is not None and opened.table is not None and state_dir is not None:
        if opened.damaged is None:
            sim.restore_board(state_dir)
        else:
            sim.set_position(sim.table.position)  # the checkers as the journal left them
    elif isinstance(script.board, BoardPosition):
        sim.set_position(script.board.position)
    elif script.board.kind == "start":
        sim.set_position(sim.table.position)
    if opened is not None and opened.damaged is not None:
        sim.alert(BARS, JOURNAL_ALERT_S)


def _board(profile: Profile, link: str | None) -> BoardDevices | None:
    if link is None:
        return None
    if link != PTY:
        raise UnknownLinkError(f"unknown link {link!r}: expected {PTY}")
    return open_pty_board(profile)


def _new_table(script: Script, sensing: Sensing) -> tuple[Table, list[ev.Event]]:
    board = script.board
    if isinstance(board, BoardPosition):
        return Table.new(sensing, dict(script.config), board.position_id, board.turn, board.match_id)
    return Table.new(sensing, dict(script.config))


def _perform(sim: SimulatedTable, line: Action, emit: ev.Emit) -> None:
    """Do what one script line says, letting its board time pass."""
    try:
        _carry_out(sim, line, emit)
    except ValueError as error:
        raise ReplayError(f"line {line.line}: {format_line(line)}: {error}") from None


def perform(sim: SimulatedTable, line: Action, emit: ev.Emit) -> None:
    """Do what one script line says on `sim`, letting its board time pass (ReplayError if it cannot)."""
    _perform(sim, line, emit)


def _carry_out(sim: SimulatedTable, line: Action, emit: ev.Emit) -> None:
    if isinstance(line, Wait):
        sim.advance(line.seconds)
    elif isinstance(line, Await):
        await_other(sim)
    elif isinstance(line, Move):
        # Lift, then place: the board sees the checker in hand in between, as at a table.
        sim.lift(line.source)
        sim.advance(LINE_SECONDS / 2)
        sim.place(line.destination)
        sim.advance(LINE_SECONDS / 2)
    else:
        shown = sim.act(line)
        if shown is not None:
            emit(shown)
        sim.advance(LINE_SECONDS)


def await_other(sim: SimulatedTable, seconds: float = AWAIT_SECONDS) -> None:
    """Scan on (board time passing with the clock) until the other board of a remote game
    has fed its next decision or dice (`OtherBoard.awaited`); ValueError after `seconds`."""
    other = sim.other
    if other is None:
        raise ValueError("an await line is for a board in a remote game (bgpi run --remote)")
    give_up = time.monotonic() + seconds
    while not other.awaited():
        if time.monotonic() > give_up:
            raise ValueError(f"nothing came from the other board within {seconds:g} s")
        sim.advance(sim.period)
        time.sleep(sim.period)  # a scan period of the clock: the broker's thread and the other board meanwhile
