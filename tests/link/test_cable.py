"""A cable pulled mid-turn and plugged back: play pauses, the board is read whole
again, and the game goes on with nothing lost (the same table log as without the pull)."""

from __future__ import annotations

from bgpi.board.profile import Profile
from bgpi.link.board import open_pty_board
from bgpi.shell.hands import TableHands
from bgpi.shell.runner import TableRunner
from bgpi.shell.sinks import FunctionSink
from bgpi.table import events as ev
from bgpi.table.controller import Table
from bgpi.table.tracker import Sensing

LINE = 0.1


def play(profile: Profile, pull: bool) -> tuple[list[dict], list[str]]:
    """White's opening 31 as 8/5 6/5, the cable pulled (if `pull`) with a checker in hand."""
    table, opening = Table.new(Sensing(profile.geometry), {})
    events: list[ev.Event] = [*opening]
    statuses: list[str] = []
    board = open_pty_board(profile)
    runner = TableRunner(table, board, seed=0, sinks=[FunctionSink(events.append)])
    hands = TableHands(runner)
    runner.status = statuses.append
    try:
        hands.set_position(table.position)
        runner.advance(LINE)
        runner.dice.add(3, 1)
        hands.press("white.turn")
        runner.advance(LINE)
        hands.lift(8)
        runner.advance(LINE)
        if pull:
            board.pico.unplug()
            runner.scan()
            frames = runner.frames
            hands.place(5)  # the hand goes on while the cable is out
            for _ in range(20):
                runner.scan()
            assert runner.paused and runner.frames == frames  # board time stood still
            board.pico.plug()
        else:
            hands.place(5)
        runner.advance(LINE)  # returns once the link is back and 0.1 s has passed
        hands.lift(6)
        runner.advance(LINE)
        hands.place(5)
        runner.advance(LINE)
        hands.press("white.turn")
        runner.advance(LINE)
        events.append(table.state_event())
        return events, statuses
    finally:
        runner.close()


def test_a_cable_pulled_mid_turn_loses_nothing(profile) -> None:
    events, _ = play(profile, pull=False)
    pulled, statuses = play(profile, pull=True)
    assert pulled == events
    assert any(isinstance(event, ev.Play) and event.move == "8/5 6/5" for event in pulled)
    assert len(statuses) == 2
    assert "not connected" in statuses[0] and statuses[1].startswith("co-processor on") and "connected (" in statuses[1]
