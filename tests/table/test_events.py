"""The table log's events as values: the JSON form is the log's, byte for byte."""

from __future__ import annotations

import doctest
import json
import re
from pathlib import Path

import pytest

from bgpi.exc import EventError
from bgpi.rules.position import Side
from bgpi.table import events as ev
from bgpi.table.phases import CubeWord, Phase

LOGS = sorted((Path(__file__).parents[1] / "scenarios").glob("*.log.jsonl"))


@pytest.mark.parametrize("log", LOGS, ids=lambda path: path.name)
def test_every_event_of_a_table_log_reads_back_to_the_same_line(log):
    for line in log.read_text().splitlines():
        event = ev.parse(json.loads(line))
        assert json.dumps(event.to_json()) == line


def test_a_kind_it_does_not_know_is_kept_and_ignored():
    event = ev.parse({"event": "from the future", "x": 1})
    assert isinstance(event, ev.Unknown) and event.to_json() == {"event": "from the future", "x": 1}


def test_keys_it_does_not_know_are_allowed():
    assert ev.parse({"event": "restored", "later": True}) == ev.Restored()


@pytest.mark.parametrize("data, says", [
    ([1], "not a table-log event"),
    ({"event": "play"}, "a malformed play event (missing 'player')"),
    ({"event": "roll", "player": "red", "dice": [1, 2]}, "unknown side 'red'"),
    ({"event": "take", "player": "white", "cube": True}, "a malformed take event"),
])
def test_a_malformed_event_raises_event_error(data, says):
    with pytest.raises(EventError, match=re.escape(says)):
        ev.parse(data)


def test_the_examples_run():
    results = doctest.testmod(ev, optionflags=doctest.ELLIPSIS)
    assert results.attempted >= 3 and results.failed == 0


def test_the_kinds_that_make_a_game_are_a_property_of_the_types():
    assert {cls.kind for cls in ev.GAME_EVENTS} == {
        "start", "tie", "opening", "roll", "play", "double", "take", "drop", "beaver", "game_over",
        "resign_offered", "resign_accepted", "resign_declined", "claim", "match_over",
        # a chouette's (issue 31)
        "roll_off", "line", "seat_double", "seat_take", "seat_drop", "seat_beaver", "captain",
        "seat_resign_offered", "seat_resign_accepted", "seat_resign_declined", "chouette_over"}
    assert ev.is_game(ev.Roll(Side.WHITE, (3, 1))) and ev.is_game(ev.Start("4HPwATDgc/ABMA"))
    assert not ev.is_game(ev.Step(Side.WHITE, 8, 5, False)) and not ev.is_game(ev.Lights({}))
    assert not ev.is_game(ev.Unknown({"event": "from the future"}))


def test_a_field_with_a_default_or_that_may_be_none_may_be_missing():
    assert ev.parse({"event": "rejected", "reason": "no"}) == ev.Rejected(None, "no", ())
    assert ev.parse({"event": "session"}) == ev.NewSession({})
    assert ev.parse({"event": "lights", "roles": {"24": "source"}}) == ev.Lights({24: "source"})
    assert ev.parse({"event": "state", "phase": "game_over", "position_id": "4HPwATDgc/ABMA",
                     "score": {"white": 1, "black": 0}}) == \
        ev.State(Phase.OVER, None, None, "4HPwATDgc/ABMA", None, {"white": 1, "black": 0})


def test_the_kinds_a_classs_fields_alone_do_not_read():
    play = {"event": "hint", "player": "white", "dice": [3, 1], "move": "8/5 6/5", "position_id": "sGfwATDgc/ABMA",
            "equity": 0}
    assert ev.parse(play) == ev.Hint(Side.WHITE, (3, 1), "8/5 6/5", "sGfwATDgc/ABMA", 0)
    assert json.dumps(ev.parse(play).to_json()) == json.dumps(play)  # an equity of 0 stays 0
    cube = {"event": "hint", "player": "black", "advice": "take", "equities": {"take": 0.1}}
    assert ev.parse(cube) == ev.CubeHint(Side.BLACK, CubeWord.TAKE, {"take": 0.1})
    # A session's practice fields count only with a position, which needs a turn.
    assert ev.parse({"event": "session", "config": {}, "turn": "black", "match_id": "x"}) == ev.NewSession({})
    practice = {"event": "session", "config": {}, "position_id": "4HPwATDgc/ABMA", "turn": "black", "match_id": ""}
    assert ev.parse(practice) == ev.NewSession({}, "4HPwATDgc/ABMA", Side.BLACK, None)
    with pytest.raises(EventError, match=re.escape("a malformed session event (missing 'turn')")):
        ev.parse({"event": "session", "position_id": "4HPwATDgc/ABMA"})


def test_the_shells_own_events_are_typed_and_logged_as_before():
    fault = ev.SensorFault("point 6 slot 2", 6, 2, "flapping", 21, 2.005)
    line = ('{"event": "sensor_fault", "switch": "point 6 slot 2", "location": "6", "slot": 2, '
            '"fault": "flapping", "changes": 21, "seconds": 2.005}')
    assert json.dumps(fault.to_json()) == line and ev.parse(json.loads(line)) == fault
    asked = ev.Lights({13: "missing"}, "mismatch")
    line = '{"event": "lights", "roles": {"13": "missing"}, "asks": "mismatch", "side": null, "answers": {}}'
    assert json.dumps(asked.to_json()) == line and ev.parse(json.loads(line)) == asked
