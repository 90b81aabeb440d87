"""The game in words and the play list, from table-log events."""

from __future__ import annotations

import pytest

from bgpi.web.words import SENTENCES, Story, prompt_words, say


@pytest.mark.parametrize("event, sentence", [
    ({"event": "play", "player": "white", "dice": [3, 1], "move": "8/5 6/5"}, "White plays 8/5 6/5"),
    ({"event": "play", "player": "black", "dice": [6, 6], "move": ""}, "Black cannot move"),
    ({"event": "rejected", "player": "white", "reason": "point 13 is blocked: black holds it", "points": [13]},
     "Illegal: point 13 is blocked: black holds it"),
    ({"event": "rejected", "player": None, "reason": "set up the board first", "points": [1]},
     "Set up the board first"),
    ({"event": "double", "player": "black", "cube": 2}, "Black doubles to 2: white, take or drop"),
    ({"event": "take", "player": "white", "cube": 2}, "White takes: the cube is on 2"),
    ({"event": "drop", "player": "white", "cube": 1}, "White drops"),
    ({"event": "opening", "white": 3, "black": 5, "starts": "black", "cube": 1},
     "Opening roll: white 3, black 5: Black starts with 53"),
    ({"event": "roll", "player": "black", "dice": [6, 4]}, "Black rolls 64"),
    ({"event": "step", "player": "black", "from": 1, "to": 7, "hit": True}, "Black moves 24/18*"),
    ({"event": "step", "player": "white", "from": "bar:white", "to": 22, "hit": False}, "White moves bar/22"),
    ({"event": "step", "player": "white", "from": 3, "to": "off:white", "hit": False}, "White moves 3/off"),
    ({"event": "game_over", "winner": "white", "result": "gammon", "points": 2, "score": {"white": 2, "black": 0}},
     "White wins a gammon, 2 points. Score: white 2, black 0"),
    ({"event": "match_over", "winner": "black", "score": {"white": 3, "black": 5}}, "Black wins the match 3-5"),
    ({"event": "hint", "player": "white", "dice": [3, 1], "move": "8/5 6/5", "position_id": "sGfwATDgc/ABMA",
      "equity": 0.123}, "Hint for white: 8/5 6/5 (equity +0.123)"),
    ({"event": "hint", "player": "black", "advice": "take", "equities": {}}, "Hint for black: take"),
    ({"event": "computer_play", "player": "black", "dice": [6, 4], "move": "24/18 13/9", "equity": -0.1},
     "The computer (black) plays 24/18 13/9: move its checkers as the lights show"),
    ({"event": "computer_cube", "player": "black", "decision": "no double", "equities": {}},
     "The computer (black): no double"),
    ({"event": "mismatch", "missing": {"8": 1}, "extra": {"9": 1}},
     "The board does not show the game: put back a checker on point 8; take away a checker from point 9. Play pauses"),
    ({"event": "session", "config": {"match": 5}},
     "New session: a match to 5. Set up the board and press a turn button"),
])
def test_events_in_words(event, sentence):
    assert say(event) == sentence


@pytest.mark.parametrize("kind", ["state", "lights", "anything new"])
def test_events_that_say_nothing(kind):
    assert say({"event": kind}) is None


def test_the_play_list_is_the_games_plays_and_cube_actions():
    story = Story.of([
        {"event": "session", "config": {}},
        {"event": "start", "position_id": "4HPwATDgc/ABMA"},
        {"event": "opening", "white": 3, "black": 1, "starts": "white", "cube": 1},
        {"event": "step", "player": "white", "from": 8, "to": 5, "hit": False},
        {"event": "play", "player": "white", "dice": [3, 1], "move": "8/5 6/5"},
        {"event": "double", "player": "black", "cube": 2},
        {"event": "take", "player": "white", "cube": 2},
    ])
    assert story.as_dict()["plays"] == [
        {"player": "white", "kind": "play", "dice": [3, 1], "move": "8/5 6/5"},
        {"player": "black", "kind": "double", "cube": 2},
        {"player": "white", "kind": "take", "cube": 2},
    ]
    assert story.as_dict()["words"][-2:] == ["Black doubles to 2: white, take or drop", "White takes: the cube is on 2"]
    story.hear({"event": "start", "position_id": "4HPwATDgc/ABMA"})
    assert story.plays == []  # a new game, a new list


def test_the_story_keeps_the_recent_sentences():
    story = Story.of({"event": "roll", "player": "white", "dice": [n % 6 + 1, 1]} for n in range(SENTENCES + 5))
    assert len(story.sentences) == SENTENCES
    assert story.sentences[-1] == f"White rolls {(SENTENCES + 4) % 6 + 1}1"


@pytest.mark.parametrize("prompt, words", [
    ({"asks": "move", "side": "white", "answers": {"white.turn": "commit"}},
     "White: To move, then commit. Press White turn to commit."),
    ({"asks": "doubled", "side": "black",
      "answers": {"black.turn": "take", "black.cube": "drop (press twice)", "hold black.cube": "beaver"}},
     "Black: Doubled: take or drop. Press Black turn to take; Black cube to drop (press twice); "
     "hold Black cube to beaver."),
    ({"asks": "opening", "side": None, "answers": {"white.turn": "opening roll", "black.turn": "opening roll",
                                                   "white.cube": "new session", "black.cube": "new session"}},
     "Ready for the opening roll. Press White turn or Black turn for the opening roll; "
     "White cube or Black cube for a new session."),
    ({"asks": "mismatch", "side": None, "answers": {}}, "Put the checkers right."),
])
def test_prompts_in_words(prompt, words):
    assert prompt_words(prompt) == words
    assert "white.turn" not in words and " = " not in words
