"""The wire's messages (bgpi/remote/messages.py): each kind round trip, and every way a message is refused."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgpi.exc import MessageError
from bgpi.remote.messages import MAX_BYTES, Action, Bye, Commit, Disagree, Hello, Reveal, parse, shared_session
from bgpi.rules.position import Side
from bgpi.table import events as ev

WHITE, BLACK = Side.WHITE, Side.BLACK
PLAY = ev.Play(BLACK, (6, 5), "24/13", "4HPwATDgc/ABMA", "cAkAAAAAAAAA")
EVERY_KIND = [
    Hello("club-7_a", WHITE, 1, 0, {"match": 5}, 0),
    Action("g", BLACK, 9, PLAY, 14, "cAkAAAAAAAAA", "4HPwATDgc/ABMA"),
    Action("g", WHITE, 2, ev.Double(WHITE, 2), 3, None, "4HPwATDgc/ABMA"),
    Commit("g", WHITE, 3, 1, "0f" * 32),
    Reveal("g", BLACK, 4, 1, bytes(range(32))),
    Bye("g", BLACK, 5),
    Disagree("g", WHITE, 6, "the boards' match IDs differ before black's double: here a, there b"),
]


@pytest.mark.parametrize("message", EVERY_KIND, ids=lambda message: message.kind)
def test_every_kind_reads_back_as_written(message):
    assert parse(message.to_bytes()) == message


def test_the_wire_form():
    assert json.loads(Commit("g", WHITE, 3, 1, "0f" * 32).to_bytes()) == {
        "v": 1, "game": "g", "from": "white", "seq": 3, "kind": "commit", "roll": 1, "hash": "0f" * 32}


def test_the_session_shared_leaves_out_each_boards_own_keys():
    assert shared_session({"match": 5, "jacoby": True, "engine": "gnubg", "hint_level": "expert", "coach": 0.1,
                           "remote": "black", "opponent": "gnubg", "opponent_side": "black"}) == {
        "match": 5, "jacoby": True}


def wire(**changes) -> bytes:
    data = json.loads(Commit("g", WHITE, 3, 1, "0f" * 32).to_bytes()) | changes
    return json.dumps({key: value for key, value in data.items() if value is not ...}).encode()


def action(event: dict) -> bytes:
    data = json.loads(EVERY_KIND[1].to_bytes())
    data["event"] = event
    return json.dumps(data).encode()


@pytest.mark.parametrize(("raw", "line"), [
    (b"x" * (MAX_BYTES + 1), f"a message of {MAX_BYTES + 1} bytes from the other board: at most {MAX_BYTES} are read"),
    (b"{not json", "a message from the other board that is not JSON"),
    (b"\xff\xfe", "a message from the other board that is not JSON"),
    (b"[" * 4000 + b"]" * 4000, "a message from the other board that is not JSON"),  # too deep to read
    (b"[1, 2]", "a message from the other board that is not a JSON object"),
    (wire(v=2), "a message of version 2 from the other board: this board reads version 1"),
    (wire(v=...), "a message of version None from the other board: this board reads version 1"),
    (wire(kind="shout"), "a message of unknown kind 'shout' from the other board"),
    (wire(game="a/b"), "a malformed commit message from the other board (game 'a/b' is not of the form "
                       "[A-Za-z0-9_-]{1,64})"),
    (wire(game="g" * 65), "a malformed commit message from the other board (game '" + "g" * 65 + "' is not of the "
                          "form [A-Za-z0-9_-]{1,64})"),
    (wire(seq=0), "a malformed commit message from the other board (seq must be a whole number >= 1, not 0)"),
    (wire(seq=True), "a malformed commit message from the other board (seq must be a whole number >= 1, not True)"),
    (wire(seq=...), "a malformed commit message from the other board (no 'seq')"),
    (wire(**{"from": "red"}), "a malformed commit message from the other board (from must be 'white' or 'black', "
                              "not 'red')"),
    (wire(hash="0F" * 32), "a malformed commit message from the other board (hash '" + "0F" * 32 + "' is not of the "
                           "form [0-9a-f]{64})"),
    (wire(roll=0), "a malformed commit message from the other board (roll must be a whole number >= 1, not 0)"),
    (json.dumps(json.loads(EVERY_KIND[-1].to_bytes()) | {"line": "two\nlines"}).encode(),
     "a malformed disagree message from the other board (line must be one printable line of at most 500 "
     "characters)"),
    (action({"event": "step", "player": "black"}), "a malformed action message from the other board (the event "
                                                   "'step' is not a player's decision)"),
    (action({"event": "double", "player": "white", "cube": 2}), "a malformed action message from the other board "
                                                                "(a double of white, sent by black)"),
    (action({"event": "play", "player": "black"}), "a malformed action message from the other board (a malformed "
                                                   "play event (missing 'dice'): {'event': 'play', 'player': "
                                                   "'black'})"),
])
def test_anything_else_is_refused_with_one_line(raw, line):
    with pytest.raises(MessageError) as refused:
        parse(raw)
    assert str(refused.value) == line


@given(st.binary(max_size=300))
def test_any_bytes_are_a_message_or_one_line(raw):
    try:
        parse(raw)
    except MessageError as error:
        assert "\n" not in str(error)


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                    max_leaves=8)


@given(st.sampled_from(EVERY_KIND), st.dictionaries(st.sampled_from(["v", "game", "from", "seq", "kind", "seen",
                                                                     "session", "at", "event", "match_id",
                                                                     "position_id", "roll", "hash", "secret", "line"]),
                                                    JSON, max_size=3))
def test_a_message_with_any_of_its_values_changed_is_a_message_or_one_line(message, changes):
    try:
        parse(json.dumps(json.loads(message.to_bytes()) | changes).encode())
    except MessageError as error:
        assert "\n" not in str(error)
