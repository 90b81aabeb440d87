"""A damaged journal read back: an event the game does not allow ends the trusted prefix
with an error of a known family; a fault of the program is never taken for damage."""

from __future__ import annotations

import re

import pytest

from bgpi.board.profile import Geometry
from bgpi.exc import CubeError, EventError, RulesError, SessionSettingsError
from bgpi.rules.position import Position, Side
from bgpi.table import events as ev
from bgpi.table.controller import Table
from bgpi.table.inputs import Press, Rolled, Sensed
from bgpi.table.state import TableState
from bgpi.table.tracker import Sensing
from tests.rules.boards import result

SENSING = Sensing(Geometry())


def first_play() -> list[ev.Event]:
    """A journal: a session, its opening 31 and white's 8/5 6/5."""
    table, events = Table.new(SENSING, {})
    events += table.handle(Sensed(SENSING.of(Position.start())))
    events += table.handle(Press("white.turn"))
    events += table.handle(Rolled(3, 1))
    events += table.handle(Sensed(SENSING.of(result(Position.start(), Side.WHITE, [(8, 5), (6, 5)]))))
    events += table.handle(Press("white.turn"))
    return events


@pytest.mark.parametrize(("damage", "error"), [
    (ev.Take(Side.BLACK, 2), CubeError),  # no double is on offer
    (ev.Roll(Side.BLACK, (9, 9)), RulesError),
])
def test_an_event_the_game_does_not_allow_ends_the_prefix_before_it(damage, error):
    events = first_play()
    damaged = [*events, damage, *events[1:]]
    with pytest.raises(error):
        Table.resume(damaged, SENSING)
    table, applied = Table.resume_prefix(damaged, SENSING)
    assert applied == len(events)
    assert table is not None and table.state_event() == Table.resume(events, SENSING).state_event()


def test_an_event_of_the_wrong_shape_is_refused_where_it_is_read():
    """A play without its dice and IDs never reaches the table: the journal's reader
    (`bgpi.table.events.parse`) refuses it, and the prefix ends before it."""
    with pytest.raises(EventError):
        ev.parse({"event": "play", "player": "white"})


@pytest.mark.parametrize(("config", "says"), [
    ({"opponent": "gnubg", "opponent_side": "purple"},
     "opponent_side: expected one of white, black, both, not 'purple'"),
    ({"remote": ["white"]}, "remote: expected one of white, black, not ['white']"),
    ({"match": -1}, "match: expected a whole number 0 or more, not -1"),
])
def test_a_session_whose_settings_the_rules_refuse_is_damage_not_a_crash(config, says):
    events: list[ev.Event] = [ev.NewSession(config)]
    with pytest.raises(SessionSettingsError, match=f"^{re.escape(says)}$"):
        Table.resume(events, SENSING)
    assert Table.resume_prefix(events, SENSING) == (None, 0)
    assert Table.resume_prefix([*first_play(), *events], SENSING)[1] == len(first_play())


def test_a_fault_of_the_program_while_applying_an_event_is_raised_not_taken_for_damage(monkeypatch):
    def broken(self: TableState, event: object) -> None:
        raise AttributeError("'NoneType' object has no attribute 'end_turn'")

    monkeypatch.setattr(TableState, "_played", broken)
    with pytest.raises(AttributeError):
        Table.resume_prefix(first_play(), SENSING)


@pytest.mark.parametrize("kind", ["single", "gammon"])
def test_a_journal_cut_between_an_accepted_resignation_and_its_game_over_owes_the_resigned_result(kind):
    """The position proves no result (nobody has borne off): the offer accepted does."""
    table = Table.resume(first_play(), SENSING)
    events = first_play()
    events += table.handle(Press("black.cube", long=True))
    if kind == "gammon":
        events += table.handle(Press("black.cube"))
    events += table.handle(Press("black.turn"))
    events += table.handle(Press("white.turn"))
    *cut, over = events
    assert isinstance(cut[-1], ev.ResignAccepted) and isinstance(over, ev.GameOver)
    resumed = Table.resume(cut, SENSING)
    assert resumed.owed() == [over]
    assert over.resigned and over.winner is Side.WHITE and over.points == (2 if kind == "gammon" else 1)
    assert resumed.state_event() == table.state_event()
