"""The runner's ports: sinks behind the journal's gate, opponents asked between inputs."""

from __future__ import annotations

import doctest
from collections.abc import Sequence

import pytest

import bgpi.hardware.board
import bgpi.shell.boardfile
import bgpi.shell.rolling
import bgpi.shell.sinks
from bgpi.hardware.board import open_sim_board
from bgpi.hardware.profile import load_profile
from bgpi.shell.hands import TableHands
from bgpi.shell.opponents import Computer
from bgpi.shell.runner import TableRunner
from bgpi.shell.sinks import FunctionSink
from bgpi.table import events as ev
from bgpi.table.controller import Table
from bgpi.table.inputs import Input, Rolled
from bgpi.table.tracker import Sensing

PROFILE = load_profile()


class Gate:
    """A journal that keeps what it is told to, and notes every event it is asked to keep."""

    def __init__(self, heard: list[str], keep: bool = True) -> None:
        self.heard, self.keeping = heard, keep

    def keep(self, event: ev.Event) -> bool:
        self.heard.append(f"journal {event.kind}")
        return self.keeping


class Other:
    """An opponent that makes the dice: "not yet" when asked, then through its queue; it
    notes what it hears and fails the test if it is called while it is being called."""

    def __init__(self, heard: list[str]) -> None:
        self.heard = heard
        self.queue: list[Input] = []
        self.busy = False
        self.asked = 0

    def _enter(self) -> None:
        assert not self.busy, "the opponent was called back while it was being called"
        self.busy = True

    def take(self, table: Table) -> Input | None:
        self._enter()
        try:
            return self.queue.pop(0) if self.queue else None
        finally:
            self.busy = False

    def hear(self, events: Sequence[ev.Event], table: Table) -> None:
        self._enter()
        try:
            self.heard.append("opponent " + " ".join(event.kind for event in events))
        finally:
            self.busy = False

    def roll(self) -> tuple[int, int] | None:
        self._enter()
        self.asked += 1
        self.busy = False
        return None


def runner(heard: list[str], gate: Gate | None = None) -> tuple[TableRunner, TableHands]:
    table, _ = Table.new(Sensing(PROFILE.geometry), {})
    board = TableRunner(table, open_sim_board(PROFILE), seed=1, gate=gate,
                        sinks=[FunctionSink(lambda event: heard.append(f"page {event.kind}")),
                               FunctionSink(lambda event: heard.append(f"console {event.kind}"))])
    hands = TableHands(board)
    hands.set_position(table.position)
    board.advance(0.1)
    return board, hands


def test_each_event_is_journaled_then_heard_by_each_sink_in_order_then_by_the_opponents():
    heard: list[str] = []
    board, _ = runner(heard, Gate(heard))
    board.join(Other(heard))
    board.dice.add(3, 1)
    board.press("white.turn")
    # The press's events, then the roll's: each journaled, then shown in order, then heard
    # by the opponent, an input's events at once.
    assert heard == ["journal start", "page start", "console start", "opponent start",
                     "journal opening", "page opening", "console opening", "opponent opening"]
    board.close()


def test_an_event_the_journal_cannot_keep_is_shown_nowhere():
    heard: list[str] = []
    board, _ = runner(heard, Gate(heard, keep=False))
    other = Other(heard)
    board.join(other)
    board.press("white.turn")
    assert heard and all(line.startswith("journal ") for line in heard)
    board.close()


def test_the_dice_of_an_opponent_come_through_its_queue_without_calling_it_back():
    heard: list[str] = []
    board, _ = runner(heard)
    other = Other(heard)
    board.join(other, dice=other)
    board.press("white.turn")
    assert board.table.wants_roll is not None and other.asked  # "not yet"
    other.queue.append(Rolled(5, 2))
    board.scan()  # taken between inputs, rolled as the board's own
    assert board.table.wants_roll is None
    assert "opponent opening" in heard
    board.close()


def test_the_computer_answers_the_tables_request_through_the_same_port():
    asked = []

    def advise(request):
        asked.append(request)
        return None, "the engine is out for lunch"

    table, _ = Table.new(Sensing(PROFILE.geometry), {})
    events: list[ev.Event] = []
    board = TableRunner(table, open_sim_board(PROFILE), seed=1, computer=Computer(advise),
                        sinks=[FunctionSink(events.append)])
    TableHands(board).set_position(table.position)
    board.advance(0.1)
    board.dice.add(3, 1)
    board.press("white.turn")
    board.press("hint")
    assert len(asked) == 1 and asked[0].purpose.value == "hint"
    assert isinstance(events[-1], ev.Rejected) and events[-1].reason == "the engine is out for lunch"
    board.close()


def test_a_real_board_has_no_script_hands():
    table, _ = Table.new(Sensing(PROFILE.geometry), {})
    board = open_sim_board(PROFILE)
    board.hands = None  # as a real board: its checkers move under real hands
    with pytest.raises(ValueError, match="real hands"):
        TableHands(TableRunner(table, board))
    board.close()


@pytest.mark.parametrize("module", [bgpi.hardware.board, bgpi.shell.sinks, bgpi.shell.rolling, bgpi.shell.boardfile],
                         ids=lambda module: module.__name__)
def test_the_examples_in_the_docstrings_hold(module):
    results = doctest.testmod(module)
    assert results.attempted and not results.failed
