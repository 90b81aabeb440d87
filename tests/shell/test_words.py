"""The sentences players read for the events of issue 19's fixes."""

from bgpi.rules.position import Side
from bgpi.shell.words import say
from bgpi.table import events as ev

W, B = Side.WHITE, Side.BLACK


def test_a_play_that_may_have_a_checker_in_hand_is_asked_about_in_the_movers_count():
    sentence = say(ev.Ambiguous(B, ("13/6",), 12))
    assert sentence == ("Black: is a checker from 13 still in hand? Put it down, or press turn again "
                        "to commit 13/6 (its last checker hidden on a full point)")


def test_rolls_are_written_high_die_first():
    assert say(ev.Roll(B, (1, 2))) == "Black rolls 21"
    assert say(ev.Opening(1, 6, B, 1)).endswith("Black starts with 61")


def test_the_mismatch_sentence_counts_checkers_in_plain_english():
    # Issue 19, item 20: the two sentences the issue quotes, as they read now.
    assert say(ev.Mismatch({2: 4}, {})) == (
        "The board does not show the game: put back 4 checkers on point 2. Play pauses")
    assert say(ev.Mismatch({1: 1, 12: 2, 13: 1}, {2: 1, 3: 1, 9: 1, 14: 2})) == (
        "The board does not show the game: put back 2 checkers on point 12 and a checker each on "
        "points 1 and 13; take away 2 checkers from point 14 and a checker each from points 2, 3 "
        "and 9. Play pauses")
    assert say(ev.Mismatch({"bar:black": 1}, {})) == (
        "The board does not show the game: put back a checker on bar:black. Play pauses")
