"""The sentences players read for the events of issue 19's fixes."""

from bgpi.shell.words import say


def test_a_play_that_may_have_a_checker_in_hand_is_asked_about_in_the_movers_count():
    sentence = say({"event": "ambiguous", "player": "black", "candidates": ["13/6"], "in_hand": 12})
    assert sentence == ("Black: is a checker from 13 still in hand? Put it down, or press turn again "
                        "to commit 13/6 (its last checker hidden on a full point)")


def test_rolls_are_written_high_die_first():
    assert say({"event": "roll", "player": "black", "dice": [1, 2]}) == "Black rolls 21"
    assert say({"event": "opening", "white": 1, "black": 6, "starts": "black"}).endswith("Black starts with 61")
