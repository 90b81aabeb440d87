"""The page's HTTP API on a live simulated board: every endpoint, the token, the 403s and 400s."""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.request

import pytest

from bgpi.hardware.profile import load_profile
from bgpi.web.bridge import Bridge
from bgpi.web.server import SWITCH_INTERVAL, WebServer
from tests.web.conftest import start_live

OPENING = ({"dice": [3, 1]}, {"press": "white.turn"}, {"move": [8, 5]}, {"move": [6, 5]}, {"press": "white.turn"})


def kinds(events: list[dict]) -> list[str]:
    return [event["event"] for event in events]


def test_state_is_the_state_event_with_the_view(live):
    status, state = live.request("GET", "/api/state")
    assert status == 200
    assert state["event"] == "state"
    assert state["phase"] == "setup" and state["turn"] is None
    assert state["position_id"] == "4HPwATDgc/ABMA"
    assert state["score"] == {"white": 0, "black": 0}
    assert state["board"] == "sim" and state["actions"] is True
    assert state["checkers"]["6"] == {"count": 5, "colour": "white"}
    assert state["checkers"]["1"] == {"count": 2, "colour": "black"}
    assert state["cube"] == {"value": 1, "owner": None, "offered": None, "doubler": None}
    assert state["match_length"] == 0
    assert len(state["leds"]["targets"]["die:1"]) == 7


def test_actions_play_the_opening_and_answer_with_the_events(live):
    status, answer = live.act(*OPENING)
    assert status == 200
    assert kinds(answer["events"]) == ["start", "opening", "step", "step", "play"]
    play = answer["events"][-1]
    assert play["player"] == "white" and play["dice"] == [3, 1] and play["move"] == "8/5 6/5"
    _, state = live.request("GET", "/api/state")
    assert state["turn"] == "black" and state["phase"] == "roll"
    assert state["checkers"]["5"] == {"count": 2, "colour": "white"}
    assert state["plays"] == [{"player": "white", "kind": "play", "dice": [3, 1], "move": "8/5 6/5"}]
    assert "White plays 8/5 6/5" in state["words"]


def test_a_lifted_checker_lights_its_destinations(live):
    live.act({"dice": [3, 1]}, {"press": "white.turn"}, {"lift": 8})
    _, state = live.request("GET", "/api/state")
    roles = {location: look["role"] for location, look in state["lights"].items()}
    assert roles == {"8": "source", "7": "destination", "5": "destination", "4": "destination"}
    assert state["lights"]["8"]["period"] == 1.0  # the source blinks
    assert state["lights"]["7"]["colour"] == "#00ff00"


def test_an_illegal_placement_is_answered_and_lit_red(live):
    status, answer = live.act({"dice": [3, 1]}, {"press": "white.turn"}, {"move": [8, 2]})
    assert status == 200
    rejected = answer["events"][-1]
    assert rejected["event"] == "rejected" and rejected["points"] == [2]
    _, state = live.request("GET", "/api/state")
    assert state["lights"]["2"]["role"] == "rejected"
    assert state["lights"]["2"]["colour"] == "#ff0000" and state["lights"]["2"]["period"] == 0.25
    assert state["words"][-1].startswith("Illegal: no die moves a checker from point 8 to point 2")


def test_a_refusal_in_blacks_turn_names_the_points_in_blacks_count(live):
    status, answer = live.act({"dice": [1, 3]}, {"press": "white.turn"}, {"move": [17, 22]})  # black's 8 to its 3
    assert status == 200
    assert answer["events"][-1]["points"] == [22]  # the table log keeps the board's own numbering
    _, state = live.request("GET", "/api/state")
    assert state["words"][-1] == "Illegal: no die moves a checker from point 8 to point 3 (dice left: 3 and 1)"


def test_a_request_of_the_wrong_shape_leaves_the_session_alone(live):
    live.act({"dice": [3, 1]}, {"press": "white.turn"})
    for body in ('{"match": -3}', '{"config": {"match": 3}, "other": 1}', '[]', '{"config": 3}', '{}'):
        status, answer = live.request("POST", "/api/session", body)
        assert status == 400, body
        assert len(answer["problems"]) == 1 and "config" in answer["problems"][0], body
    assert [event.kind for event in live.log].count("session") == 1
    assert live.request("GET", "/api/state")[1]["phase"] == "move"


def test_bad_lines_are_refused_with_every_problem_listed(live):
    status, answer = live.request("POST", "/api/actions", '{"lift": 30}\n{"press": "white.roll"}\nnot json')
    assert status == 400
    problems = answer["problems"]
    assert len(problems) == 3
    assert problems[0].startswith("line 1:") and "30" in problems[0]
    assert problems[1].startswith("line 2:") and "white.roll" in problems[1]
    assert problems[2].startswith("line 3: not JSON")
    _, state = live.request("GET", "/api/state")
    assert state["phase"] == "setup"  # nothing was carried out


@pytest.mark.parametrize("body, problem", [
    ('{"board": "empty"}\n{"lift": 8}', "a board line"),
    ('{"config": {"match": 3}}\n{"lift": 8}', "a config line"),
    ("", "no lines"),
])
def test_lines_that_are_not_hands_are_refused(live, body, problem):
    status, answer = live.request("POST", "/api/actions", body)
    assert status == 400
    assert any(problem in text for text in answer["problems"])


def test_a_line_the_board_cannot_carry_out_stops_the_request(live):
    status, answer = live.act({"press": "white.turn"}, {"lift": 9}, {"press": "white.turn"})
    assert status == 409
    assert answer["problems"] == ["line 2: cannot lift 1 from point 9: there is no checker there"]
    assert kinds(answer["events"]) == ["start", "opening"]


def test_show_lines_answer_with_their_event(live):
    status, answer = live.act({"show": "state"}, {"show": "lights"})
    assert status == 200
    assert kinds(answer["events"]) == ["state", "lights"]


def test_a_real_board_refuses_hands_from_the_page(tmp_path):
    live, close = start_live(tmp_path, kind="board")
    try:
        status, answer = live.act({"move": [8, 5]})
        assert status == 403
        assert "real board" in answer["error"]
        _, state = live.request("GET", "/api/state")
        assert state["actions"] is False and state["board"] == "pi"
    finally:
        close()


def test_the_stream_sends_the_state_then_events_as_they_happen(live):
    url = f"http://127.0.0.1:{live.server.port}/api/events"
    with urllib.request.urlopen(url, timeout=30) as stream:
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        first = _next_message(stream)
        assert first["event"] == "state" and first["phase"] == "setup"
        live.act(*OPENING)
        seen = []
        while "play" not in seen:
            seen.append(_next_message(stream)["event"])
        assert [kind for kind in seen if kind != "state"] == ["start", "opening", "step", "step", "play"]


def _next_message(stream) -> dict:
    while True:
        line = stream.readline()
        if line.startswith(b"data: "):
            return json.loads(line[len(b"data: "):])


def test_the_cube_on_offer_and_taken(live):
    live.act(*OPENING, {"press": "black.cube"})
    _, state = live.request("GET", "/api/state")
    assert state["cube"] == {"value": 1, "owner": None, "offered": 2, "doubler": "black"}
    assert state["words"][-1] == "Black doubles to 2: white, take or drop"
    assert state["prompt"]["asks"] == "doubled" and state["prompt"]["side"] == "white"
    assert state["asking"].startswith("Doubled: take or drop")
    live.act({"press": "white.turn"})
    _, state = live.request("GET", "/api/state")
    assert state["cube"] == {"value": 2, "owner": "white", "offered": None, "doubler": None}
    assert [entry["kind"] for entry in state["plays"]] == ["play", "double", "take"]


def test_a_new_session_starts_a_match_with_its_settings(live):
    live.act(*OPENING)
    status, answer = live.request("POST", "/api/session", json.dumps({"config": {"match": 5}}))
    assert status == 200
    assert answer["events"] == [{"event": "session", "config": {"match": 5}}]
    _, state = live.request("GET", "/api/state")
    assert state["match_length"] == 5 and state["phase"] == "setup" and state["plays"] == []
    assert "5" not in state["checkers"]  # the simulated board is set up again
    assert state["checkers"]["6"] == {"count": 5, "colour": "white"}
    status, answer = live.act({"press": "white.turn"})
    assert kinds(answer["events"])[:2] == ["start", "opening"]


@pytest.mark.parametrize("body", ['{"config": {"match": -1}}', '{"config": {"match": 3, "beavers": true}}',
                                  '{"config": 5}', "nonsense"])
def test_bad_session_settings_are_refused(live, body):
    status, answer = live.request("POST", "/api/session", body)
    assert status == 400
    assert answer["problems"]


def test_the_session_downloads_as_a_mat_file(live):
    status, answer = live.request("GET", "/api/session.mat")
    assert status == 404 and "no games" in answer["error"]
    live.act(*OPENING, {"press": "black.cube"}, {"press": "white.cube"})  # black doubles, white drops
    url = f"http://127.0.0.1:{live.server.port}/api/session.mat"
    with urllib.request.urlopen(url, timeout=30) as response:
        assert "attachment" in response.headers["Content-Disposition"]
        text = response.read().decode()
    assert "31: 8/5 6/5" in text
    assert "Doubles => 2" in text
    with urllib.request.urlopen(url.replace(".mat", ".sgf"), timeout=30) as response:
        assert 'filename="bgpi-session.sgf"' in response.headers["Content-Disposition"]
        sgf = response.read().decode()
    assert sgf.startswith("(;") and "GM[6]" in sgf


def test_the_page_and_its_files_are_served(live):
    with urllib.request.urlopen(live.url, timeout=30) as response:
        assert b'<svg id="board"' in response.read()
    for name in ("board.js", "board.css"):
        with urllib.request.urlopen(f"{live.url}static/{name}", timeout=30) as response:
            assert response.status == 200
    for name in ("..%2Fserver.py", "missing.js", "index.html"):
        with pytest.raises(urllib.error.HTTPError, match="404"):
            urllib.request.urlopen(f"{live.url}static/{name}", timeout=30)


def test_without_a_token_only_loopback_names_are_answered(live):
    status, answer = live.request("GET", "/api/state", headers={"Host": "rebound.example:8700"})
    assert status == 403 and "127.0.0.1" in answer["error"]
    status, _ = live.request("GET", "/api/state", headers={"Host": f"localhost:{live.server.port}"})
    assert status == 200


def test_a_post_from_another_sites_page_is_refused(live):
    status, _ = live.act({"press": "white.turn"}, headers={"Origin": "http://evil.example"})
    assert status == 403
    status, _ = live.act({"show": "state"}, headers={"Origin": f"http://127.0.0.1:{live.server.port}"})
    assert status == 200


@pytest.fixture
def guarded(tmp_path):
    board, close = start_live(tmp_path, token="s3cret-token")
    yield board
    close()


def test_with_a_token_every_request_needs_it(guarded):
    for method, path in (("GET", "/"), ("GET", "/api/state"), ("GET", "/api/events"),
                         ("POST", "/api/actions"), ("POST", "/api/session"), ("GET", "/api/session.mat"),
                         ("GET", "/static/board.js")):
        status, answer = guarded.request(method, path)
        assert status == 401, path
        assert "token" in answer["error"]
    status, _ = guarded.request("GET", "/api/state", headers={"Authorization": "Bearer wrong-token!"})
    assert status == 401
    status, _ = guarded.request("GET", "/api/state?token=s3cret-tokeN")
    assert status == 401


def test_the_token_is_taken_from_the_header_the_address_or_its_cookie(guarded):
    assert guarded.request("GET", "/api/state", headers={"Authorization": "Bearer s3cret-token"})[0] == 200
    url = f"http://127.0.0.1:{guarded.server.port}/?token=s3cret-token"
    with urllib.request.urlopen(url, timeout=30) as response:
        cookie = response.headers["Set-Cookie"]
    assert "bgpi_token=s3cret-token" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert guarded.request("GET", "/api/state", headers={"Cookie": "bgpi_token=s3cret-token"})[0] == 200
    status, answer = guarded.act({"press": "white.turn"}, headers={"Authorization": "Bearer s3cret-token"})
    assert status == 200 and kinds(answer["events"])[0] == "start"
    with urllib.request.urlopen(f"http://127.0.0.1:{guarded.server.port}/api/events?token=s3cret-token",
                                timeout=30) as stream:
        assert _next_message(stream)["event"] == "state"


def test_the_url_printed_carries_the_token(guarded):
    assert guarded.url.endswith("/?token=s3cret-token")


def test_listening_beyond_loopback_needs_a_token():
    with pytest.raises(ValueError, match="token"):
        WebServer(Bridge(), load_profile().geometry, host="0.0.0.0")


def test_the_server_shortens_the_switch_interval_while_it_serves():
    before = sys.getswitchinterval()
    server = WebServer(Bridge(), load_profile().geometry, port=0)
    server.start()
    try:
        assert sys.getswitchinterval() == min(before, SWITCH_INTERVAL)
    finally:
        server.stop()
    assert sys.getswitchinterval() == before
