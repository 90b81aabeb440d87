"""A chouette's and a pair session's board scripts: their settings refused before anything
happens when they cannot be (2 or 8 players, an unknown option, a chouette with a match),
and the lines of a latecomer and of a player leaving."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bgpi.shell.script import Seating, format_line, parse_script
from bgpi.shell.words import ASKS, say
from bgpi.table import events as ev
from bgpi.table.lights import PROMPTS
from tests.shell.test_script import problem

THREE = '"players": ["Ann", "Bob", "Cat"]'


@pytest.mark.parametrize("text, message", [
    ('{"config": {"chouette": {"players": ["Ann", "Bob"]}}}', "line 1: chouette: players: 3 to 7 names, not 2"),
    ('{"config": {"chouette": {"players": ["A", "B", "C", "D", "E", "F", "G", "H"]}}}',
     "line 1: chouette: players: 3 to 7 names, not 8"),
    ('{"config": {"chouette": {' + THREE + ', "beaver": true}}}', "line 1: chouette: unknown option 'beaver'"),
    ('{"config": {"chouette": {' + THREE + '}, "match": 5}}',
     "line 1: chouette: a chouette is money play at one board: not with match"),
    ('{"config": {"pairs": {"white": ["Ann", "Bob"], "black": ["Cat", "Dan"], "rolls": "each"}}}',
     "line 1: pairs: rolls: one of first, alternate, not 'each'"),
    ('{"join": 7}', "line 1: expected a player's name, got 7"),
    ('{"board": "position", "position_id": "4HPwATDgc/ABMA", "turn": "white", "match_id": "AQHgADAAKAAA"}\n'
     '{"config": {"chouette": {' + THREE + '}}}', "line 1: chouette: a chouette is money play"),
])
def test_a_chouette_that_cannot_be_is_refused_naming_the_line(text, message):
    assert problem(text).startswith(message)


def test_a_latecomer_and_a_leaver_are_lines_of_their_own():
    script = parse_script('{"config": {"chouette": {' + THREE + '}}}\n{"join": "Dan"}\n{"leave": "Ann"}\n')
    assert script.lines == (Seating("Dan", True, line=2), Seating("Ann", False, line=3))
    assert [format_line(line) for line in script.lines] == ['{"join": "Dan"}', '{"leave": "Ann"}']


def test_every_question_and_every_chouette_event_is_said_in_words():
    """The page and the terminal simulator say each prompt, and a chouette's events, in words."""
    assert set(ASKS) == set(PROMPTS)
    scenario = Path(__file__).parents[1] / "scenarios" / "chouette_cube_round.log.jsonl"
    events = [ev.parse(json.loads(line)) for line in scenario.read_text().splitlines()]
    chouette = [event for event in events if event.kind in ("roll_off", "line", "seat_double", "seat_take",
                                                           "seat_drop", "seat_beaver", "captain", "chouette_over",
                                                           "seat_resign_offered", "seat_resign_accepted")]
    assert len({event.kind for event in chouette}) == 10
    assert all(say(event) for event in chouette)
    assert say(events[0]) == "New chouette: Ann, Bob, Cat and Dan. Press a turn button for the roll-off"
