"""The controller driven directly: ambiguity, resuming from events, what the lights say."""

from __future__ import annotations

import pytest

from bgpi.board.profile import Geometry
from bgpi.rules.ids import position_id
from bgpi.rules.position import Position, Side
from bgpi.table import events as ev
from bgpi.table.advice import GIVE_UP, RETRY
from bgpi.table.controller import Table
from bgpi.table.inputs import Advised, ComputerUnavailable, Press, Rolled, Sensed, Tick
from bgpi.table.tracker import Sensing
from tests.rules.boards import result

W = Side.WHITE


def started(sensing: Sensing, white: int, black: int) -> tuple[Table, list[ev.Event]]:
    """A table after the opening roll, the board showing the start."""
    table, events = Table.new(sensing, {})
    events += table.handle(Sensed(sensing.of(Position.start())))
    events += table.handle(Press("white.turn"))
    assert table.wants_roll == "opening"
    events += table.handle(Rolled(white, black))
    return table, events


def test_two_plays_the_switches_cannot_tell_apart_are_offered_to_choose():
    # One switch a point: 8/6 8/4 and 8/4 6/4 both leave 8, 6 and 4 occupied.
    sensing = Sensing(Geometry(point_slots=1, bar_slots=1))
    table, _ = started(sensing, 4, 2)
    board = result(Position.start(), W, [(8, 6), (8, 4)])
    table.handle(Sensed(sensing.of(board)))
    (asked,) = table.handle(Press("white.turn"))
    assert isinstance(asked, ev.Ambiguous) and sorted(asked.candidates) == ["8/4 6/4", "8/6 8/4"]
    assert table.phase == "choose"
    first = table.lighting().roles
    table.handle(Press("white.cube"))  # the next candidate
    assert table.lighting().roles != first
    *steps, play = table.handle(Press("white.turn"))
    assert isinstance(play, ev.Play) and play.move == asked.candidates[1]
    # The steps the switches could not see are logged before the play.
    assert [step.kind for step in steps] == ["step", "step"]


def test_the_other_player_cannot_choose():
    sensing = Sensing(Geometry(point_slots=1, bar_slots=1))
    table, _ = started(sensing, 4, 2)
    table.handle(Sensed(sensing.of(result(Position.start(), W, [(8, 6), (8, 4)]))))
    table.handle(Press("white.turn"))
    (refused,) = table.handle(Press("black.turn"))  # said (issue 19, item 21), and nothing changes
    assert isinstance(refused, ev.Rejected) and "white's turn" in refused.reason and table.phase == "choose"


def test_a_journal_of_events_resumes_the_same_table():
    sensing = Sensing(Geometry())
    table, events = started(sensing, 3, 1)
    events += table.handle(Sensed(sensing.of(result(Position.start(), W, [(8, 5), (6, 5)]))))
    events += table.handle(Press("white.turn"))
    events += table.handle(Press("black.turn"))
    events += table.handle(Rolled(6, 6))
    again = Table.resume(events, sensing)
    assert again.state_event() == table.state_event()
    assert again.phase == "move" and again.dice == table.dice and again.position == table.position


def test_a_knocked_checker_pauses_play_after_the_grace_period_and_resumes_when_put_back():
    sensing = Sensing(Geometry())
    table, _ = started(sensing, 3, 1)
    table.handle(Press("white.turn"))  # nothing to commit yet: refused
    knocked = list(sensing.of(Position.start()))
    knocked[sensing.index[12]] -= 1  # a black checker knocked off its point
    knocked[sensing.index[11]] += 1
    table.handle(Sensed(tuple(knocked)))
    assert table.handle(Tick(1.0)) == []
    (mismatch,) = table.handle(Tick(2.0))
    assert mismatch == ev.Mismatch({12: 1}, {11: 1})
    assert mismatch.to_json() == {"event": "mismatch", "missing": {"12": 1}, "extra": {"11": 1}}
    assert table.lighting().roles == {12: "missing", 11: "extra"}
    (restored,) = table.handle(Sensed(sensing.of(Position.start())))
    assert restored == ev.Restored()


@pytest.mark.parametrize(("point", "change", "role", "words"), [
    (12, -1, "missing", "a checker should stand on point 12: push it onto a mark there"),
    (17, +1, "extra", "one checker too many on point 17: if none was put there, one stands between two marks"),
])
def test_one_checker_short_or_over_says_which_point_to_push_it_on(point, change, role, words):
    sensing = Sensing(Geometry())
    table, _ = started(sensing, 3, 1)
    read = list(sensing.of(Position.start()))
    read[sensing.index[point]] += change  # a checker between two marks: no slot closed, or two
    table.handle(Sensed(tuple(read)))
    assert table.handle(Tick(1.0)) == []
    (mismatch,) = table.handle(Tick(2.0))
    assert isinstance(mismatch, ev.Mismatch) and mismatch.hint is not None and mismatch.hint.startswith(words)
    assert table.lighting().roles == {point: role}


def test_lifting_a_checker_lights_its_source_and_where_it_may_go():
    sensing = Sensing(Geometry())
    table, _ = started(sensing, 3, 1)
    lifted = list(sensing.of(Position.start()))
    lifted[sensing.index[8]] -= 1
    table.handle(Sensed(tuple(lifted)))
    lighting = table.lighting()
    assert lighting.roles == {8: "source", 7: "destination", 5: "destination", 4: "destination"}
    assert lighting.combined == frozenset({4})  # 8/4 takes both dice: dimmer


def test_bearing_off_into_a_sensed_tray():
    sensing = Sensing(Geometry(trays_sensed=True))
    start = Position(tuple([0, 0, 1, 0, 0, 2] + [0] * 19), tuple([0] * 23 + [3, 0]))
    table, _ = Table.new(sensing, {}, position_id(start, W), W)
    table.handle(Sensed(sensing.of(start)))
    table.handle(Press("white.turn"))  # set up: the game starts, white to roll
    table.handle(Press("white.turn"))
    table.handle(Rolled(6, 3))
    after = result(start, W, [(6, 0), (3, 0)])
    steps = table.handle(Sensed(sensing.of(after)))
    assert [step.to for step in steps if isinstance(step, ev.Step)] == ["off:white", "off:white"]
    assert all(isinstance(step, ev.Step) for step in steps)
    (play,) = table.handle(Press("white.turn"))
    assert isinstance(play, ev.Play) and play.move == "6/off 3/off"


def test_the_lights_are_worked_out_again_only_after_an_input_that_may_change_them():
    sensing = Sensing(Geometry())
    table, _ = started(sensing, 3, 1)
    knocked = list(sensing.of(Position.start()))
    knocked[sensing.index[12]] -= 1
    knocked[sensing.index[11]] += 1
    table.handle(Sensed(tuple(knocked)))
    shown = table.lighting()
    assert table.handle(Tick(1.0)) == []
    assert table.lighting() is shown  # a tick that says nothing changes nothing
    table.handle(Tick(2.0))  # the grace period is over: play pauses
    assert table.lighting().roles == {12: "missing", 11: "extra"}


def test_the_computers_retry_after_a_failed_engine_is_a_deadline():
    """The shell skips the ticks before `next_deadline`: the retry must be one of them."""
    sensing = Sensing(Geometry())
    table, _ = Table.new(sensing, {"opponent": "gnubg"}, position_id(Position.start(), Side.BLACK), Side.BLACK)
    table.handle(Sensed(sensing.of(Position.start())))
    table.handle(Press("black.turn"))
    table.handle(Rolled(3, 1))
    request = table.wants_advice
    assert request["for"] == "computer" and table.next_deadline() is None
    table.handle(Tick(1.0))
    table.handle(Advised(request, None, "gnubg did not answer in time"))
    deadline = table.next_deadline()
    assert deadline == 1.0 + RETRY
    assert table.handle(Tick(deadline - 0.01)) == [] and table.wants_advice is None
    table.handle(Tick(deadline))
    assert table.wants_advice == request  # asked again


def test_a_computer_without_an_engine_leaves_its_side_to_the_hands_unjournaled():
    """`ComputerUnavailable` (a resumed journal whose engine is gone): no event, no computer
    from then on, the "no engine" look on the lights; the journal's session keeps its opponent."""
    sensing = Sensing(Geometry())
    table, (session,) = Table.new(sensing, {"opponent": "gnubg"})
    table.handle(Tick(2.0))
    assert table.computers == frozenset({Side.BLACK})
    assert table.handle(ComputerUnavailable()) == []
    assert table.computers == frozenset() and table.state.advice.hint_failed == 2.0
    assert session.config == {"opponent": "gnubg"}
    table.handle(Sensed(sensing.of(Position.start())))
    table.handle(Press("black.turn"))
    table.handle(Rolled(3, 1))
    assert table.wants_advice is None  # black rolled and plays by hand


def test_an_engine_that_keeps_failing_leaves_the_computers_side_to_the_hands():
    """An engine installed but broken must not stall the game: after GIVE_UP failures in
    a row black is played by hand, for the rest of the session and after a resume."""
    sensing = Sensing(Geometry())
    table, log = Table.new(sensing, {"opponent": "gnubg"}, position_id(Position.start(), Side.BLACK), Side.BLACK)
    log += table.handle(Sensed(sensing.of(Position.start())))
    log += table.handle(Press("black.turn"))
    log += table.handle(Rolled(3, 1))
    now = 0.0
    for _ in range(GIVE_UP):
        request = table.wants_advice
        assert request is not None and request.purpose.value == "computer"
        log += table.handle(Advised(request, None, "gnubg: Segmentation fault"))
        now += RETRY
        log += table.handle(Tick(now))
    assert log[-1] == ev.ComputerStopped(Side.BLACK, "gnubg: Segmentation fault")
    assert table.computers == frozenset() and table.wants_advice is None
    after = result(Position.start(), Side.BLACK, [(8, 5), (6, 5)])
    table.handle(Sensed(sensing.of(after)))
    (play,) = [event for event in table.handle(Press("black.turn")) if isinstance(event, ev.Play)]
    assert play.move == "8/5 6/5"  # black's own hands, and black's own button
    resumed = Table.resume(log, sensing)
    assert resumed.computers == frozenset()


def test_the_hint_lights_the_whole_play_and_follows_the_player():
    # Issue 19, item 7: 31 hinted as 8/5 6/5 lights one checker's point (blinking) and 5;
    # once that checker stands on 5, the other one's.
    sensing = Sensing(Geometry())
    table, _ = started(sensing, 3, 1)
    table.handle(Press("hint"))
    request = table.wants_advice
    after = result(Position.start(), W, [(8, 5), (6, 5)])
    table.handle(Advised(request, {"move": "8/5 6/5", "position_id": position_id(after, W), "equity": 0.2}))
    lit = table.lighting()
    (first,) = lit.hint_from
    other = 14 - first  # 8 or 6
    assert first in (8, 6) and lit.roles == {first: "hint", 5: "hint"}
    table.handle(Sensed(sensing.of(result(Position.start(), W, [(first, 5)]))))
    lit = table.lighting()
    assert lit.roles == {other: "hint", 5: "hint"} and lit.hint_from == {other}


def test_a_hinted_run_lights_where_the_checker_ends_up():
    # 62 hinted as 24/16: 24 blinks and 16 is lit, not the 22 on the way.
    sensing = Sensing(Geometry())
    table, _ = started(sensing, 6, 2)
    table.handle(Press("hint"))
    after = result(Position.start(), W, [(24, 18), (18, 16)])
    table.handle(Advised(table.wants_advice, {"move": "24/16", "position_id": position_id(after, W),
                                              "equity": 0.0}))
    lit = table.lighting()
    assert lit.roles == {24: "hint", 16: "hint"} and lit.hint_from == {24}
