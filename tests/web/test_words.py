"""The game in words and the play list, from table-log events."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bgpi.rules.position import Side
from bgpi.rules.result import ResultKind
from bgpi.table import events as ev
from bgpi.table.phases import CubeWord, Phase
from bgpi.web.words import SENTENCES, Story, prompt_words, say

W, B = Side.WHITE, Side.BLACK


AFTER = "sGfwATDgc/ABMA"
MATCH_ID = "cAkAAAAAAAAA"


@pytest.mark.parametrize("event, sentence", [
    (ev.Play(W, (3, 1), "8/5 6/5", AFTER, MATCH_ID), "White plays 8/5 6/5"),
    (ev.Play(B, (6, 6), "", AFTER, MATCH_ID), "Black cannot move"),
    (ev.Rejected(W, "point 13 is blocked: black holds it", (13,)), "Illegal: point 13 is blocked: black holds it"),
    (ev.Rejected(None, "set up the board first", (1,)), "Set up the board first"),
    (ev.Double(B, 2), "Black doubles to 2: white, take or drop"),
    (ev.Take(W, 2), "White takes: the cube is on 2"),
    (ev.Drop(W, 1), "White drops"),
    (ev.Opening(3, 5, B, 1), "Opening roll: white 3, black 5: Black starts with 53"),
    (ev.Roll(B, (6, 4)), "Black rolls 64"),
    (ev.Step(B, 1, 7, True), "Black moves 24/18*"),
    (ev.Step(W, "bar:white", 22, False), "White moves bar/22"),
    (ev.Step(W, 3, "off:white", False), "White moves 3/off"),
    (ev.GameOver(W, ResultKind.GAMMON, 2, {"white": 2, "black": 0}, 1, False),
     "White wins a gammon, 2 points. Score: white 2, black 0"),
    (ev.MatchOver(B, {"white": 3, "black": 5}), "Black wins the match 3-5"),
    (ev.Hint(W, (3, 1), "8/5 6/5", AFTER, 0.123), "Hint for white: 8/5 6/5 (equity +0.123)"),
    (ev.CubeHint(B, CubeWord.TAKE, {}), "Hint for black: take"),
    (ev.ComputerPlay(B, (6, 4), "24/18 13/9", AFTER, -0.1),
     "The computer (black) plays 24/18 13/9: move its checkers as the lights show"),
    (ev.ComputerCube(B, CubeWord.NO_DOUBLE, {}), "The computer (black): no double"),
    (ev.Mismatch({8: 1}, {9: 1}),
     "The board does not show the game: put back a checker on point 8; take away a checker from point 9. Play pauses"),
    (ev.NewSession({"match": 5}), "New session: a match to 5"),
])
def test_events_in_words(event, sentence):
    assert say(event) == sentence


@pytest.mark.parametrize("event", [
    ev.State(Phase.SETUP, None, None, "4HPwATDgc/ABMA", None, {"white": 0, "black": 0}), ev.Lights({}),
    ev.Unknown({"event": "anything new"}),
])
def test_events_that_say_nothing(event):
    assert say(event) is None


def test_the_play_list_is_the_games_plays_and_cube_actions():
    story = Story.of([
        ev.NewSession({}),
        ev.Start("4HPwATDgc/ABMA"),
        ev.Opening(3, 1, W, 1),
        ev.Step(W, 8, 5, False),
        ev.Play(W, (3, 1), "8/5 6/5", AFTER, MATCH_ID),
        ev.Double(B, 2),
        ev.Take(W, 2),
    ])
    assert story.as_dict()["plays"] == [
        {"player": "white", "kind": "play", "dice": [3, 1], "move": "8/5 6/5"},
        {"player": "black", "kind": "double", "cube": 2},
        {"player": "white", "kind": "take", "cube": 2},
    ]
    assert story.as_dict()["words"][-2:] == ["Black doubles to 2: white, take or drop", "White takes: the cube is on 2"]
    story.hear(ev.Start("4HPwATDgc/ABMA"))
    assert story.plays == []  # a new game, a new list


def test_the_story_keeps_the_recent_sentences():
    story = Story.of(ev.Roll(W, (n % 6 + 1, 1)) for n in range(SENTENCES + 5))
    assert len(story.sentences) == SENTENCES
    assert story.sentences[-1] == f"White rolls {(SENTENCES + 4) % 6 + 1}1"


@pytest.mark.parametrize("prompt, words", [
    (ev.Lights({}, "move", W, {"white.turn": "commit"}), "White: To move, then commit. Press White turn to commit."),
    (ev.Lights({}, "doubled", B,
               {"black.turn": "take", "black.cube": "drop (press twice)", "hold black.cube": "beaver"}),
     "Black: Doubled: take or drop. Press Black turn to take; Black cube to drop (press twice); "
     "hold Black cube to beaver."),
    (ev.Lights({}, "opening", None, {"white.turn": "opening roll", "black.turn": "opening roll",
                                     "white.cube": "new session", "black.cube": "new session"}),
     "Ready for the opening roll. Press White turn or Black turn for the opening roll; "
     "White cube or Black cube for a new session."),
    (ev.Lights({}, "mismatch"), "Put the checkers right."),
])
def test_prompts_in_words(prompt, words):
    assert prompt_words(prompt) == words
    assert "white.turn" not in words and " = " not in words


def test_prompts_name_the_choice_the_pips_show_and_the_computer():
    chooser = ev.Lights({}, "new_session", None, {"white.cube": "next choice", "white.turn": "start it"}, number=3)
    assert prompt_words(chooser).startswith("Choose the next session: a match to 3. Press White cube for the next")
    assert prompt_words(replace(chooser, number=0)).startswith("Choose the next session: money play.")
    resigning = ev.Lights({}, "resigning", W, {"white.cube": "single, gammon, backgammon", "white.turn": "offer",
                                              "hold white.cube": "back"}, number=2)
    words = prompt_words(resigning, resigning=ResultKind.GAMMON)
    assert words.startswith("White: Resign a gammon (2 points at stake)? Press")
    assert "hold White cube to go back" in words and "?." not in words
    offered = ev.Lights({}, "resign_offered", B, {"black.turn": "accept", "black.cube": "decline"}, number=1)
    assert prompt_words(offered, resigning=ResultKind.SINGLE).startswith(
        "Black: White offers to resign a single game (1 point): accept or decline. Press Black turn to accept")
    drop = ev.Lights({}, "confirm_drop", B, {"black.cube": "drop", "black.turn": "back"})
    assert prompt_words(drop) == ("Black: Drop? Press cube again within 3 s. Press Black cube to drop; "
                                  "Black turn to go back.")
    computer = ev.Lights({}, "move", B, {"black.turn": "commit"})
    words = prompt_words(computer, computers={B})
    assert words.startswith("Black (the computer): To move, then commit. The computer's play shows in blue")
    assert "Press" not in words and "it commits itself" in words
    assert prompt_words(replace(computer, asks="roll"), computers={B}) == (
        "Black (the computer): To roll. The computer decides.")


def test_the_match_over_prompt_says_what_the_cube_chooses():
    over = ev.Lights({}, "match_over", W, {"white.turn": "new match", "white.cube": "choose session"}, number=3)
    assert prompt_words(over) == "Match over. Press White turn for a new match; White cube to choose a new session."
