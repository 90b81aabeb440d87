"""Commit and reveal (bgpi/remote/dice.py)."""

from __future__ import annotations

from collections import Counter

import pytest

from bgpi.exc import DiceCheatError
from bgpi.remote.dice import check_reveal, commitment, dice_of
from bgpi.rules.position import Side

SECRET = bytes(range(32))


def test_a_commitment_binds_the_secret_and_shows_nothing_of_it():
    assert commitment(SECRET) == commitment(bytes(range(32)))
    assert commitment(SECRET) != commitment(bytes(range(1, 33)))
    assert len(commitment(SECRET)) == 64 and SECRET.hex() not in commitment(SECRET)


def test_a_reveal_is_checked_against_its_commitment():
    check_reveal(3, SECRET, commitment(SECRET))
    with pytest.raises(DiceCheatError, match=r"^the other board's \(black\) dice secret for roll 3 does not match "
                                             r"its commitment$"):
        check_reveal(3, bytes(32), commitment(SECRET), Side.BLACK)
    with pytest.raises(DiceCheatError):
        check_reveal(3, SECRET[:16], commitment(SECRET[:16]))  # a short secret is no secret


def test_the_dice_depend_on_both_secrets_the_game_and_the_roll():
    other = bytes(range(50, 82))
    roll = dice_of("g", 1, SECRET, other)
    assert all(1 <= die <= 6 for die in roll)
    assert roll == dice_of("g", 1, SECRET, other)
    variants = {dice_of("g", 1, other, SECRET), dice_of("h", 1, SECRET, other), dice_of("g", 2, SECRET, other)}
    assert variants != {roll}


def test_every_face_comes_up_about_as_often():
    faces = Counter(die for k in range(1, 3001) for die in dice_of("g", k, SECRET, bytes(32)))
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert all(850 <= count <= 1150 for count in faces.values())  # 1000 each expected; 6000 dice
