"""eXtreme Gammon's XGID: a position with its cube, dice, score and match.

``XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10`` has ten fields split by ':'.

1. The board, 26 characters, numbered in the count of XG's *bottom* player:
   character 0 is the top player's bar, characters 1..24 points 1..24, character
   25 the bottom player's bar.  '-' is empty; 'A'..'P' are 1..16 checkers of the
   bottom player, 'a'..'p' of the top player.
2. log2 of the cube value.
3. The cube: 0 centred, 1 owned by the bottom player, -1 by the top player.
4. Turn: 1 the bottom player, -1 the top player.  The player whose turn it is:
   the player on roll, and during a cube action the player who doubled (XG's
   definition; gnubg's ``set xgid`` agrees).  Who must act then is `XGID.to_act`.
5. Dice: '00' not rolled, 'D' doubled, 'B' beavered, 'R' raccooned, else the
   two dice rolled ('52').
6. / 7. Score of the bottom / top player.
8. Match play: 1 in the Crawford game.  Money play: bit 0 Jacoby, bit 1 beavers.
9. Match length, 0 for money play.
10. log2 of the largest cube allowed.

**Sides**: the bottom player (uppercase, turn 1, cube 1) is white and the top
player (lowercase, turn -1, cube -1) is black.  XG's point numbers are then the
board's absolute numbers (white's count, docs/rules.md §1): 'E' at character 6 is
five white checkers on absolute point 6, 'e' at character 19 five black ones
on absolute point 19, black's own 6-point.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from bgpi.exc import XgidError
from bgpi.rules.ids import MatchKey, decode_match_id, match_id, position_id
from bgpi.rules.position import POINTS, Position, Side

PREFIX = "XGID="
_FIELDS = 10
_BOARD_LENGTH = 26
_MAX_LOG = 15
_INTEGER = re.compile(r"-?[0-9]+")
_TOP_BAR, _BOTTOM_BAR = 0, 25
_SIDE_OF_SIGN = {1: Side.WHITE, -1: Side.BLACK}
_SIGN_OF_SIDE = {Side.WHITE: 1, Side.BLACK: -1}


class CubeAction(Enum):
    """A cube action XG writes in place of the dice."""

    NONE = "00"
    DOUBLED = "D"
    BEAVERED = "B"
    RACCOONED = "R"


@dataclass(frozen=True, slots=True)
class XGID:
    """A decoded XGID, with XG's players mapped to sides (bottom white, top black).

    `turn` is the player whose turn it is: on roll, or who doubled during a
    cube action (`to_act` is who must answer).
    `dice` is (0, 0) when not rolled, and always when `cube_action` is not NONE.
    `score` is indexed by Side.  `match_length` 0 is money play, where
    `jacoby` and `beavers` apply; `crawford` applies to match play only.
    Cube values are the values themselves; the XGID stores their log2.

    :raises XgidError: for a position that cannot occur or inconsistent fields.
    """

    position: Position
    turn: Side = Side.WHITE
    dice: tuple[int, int] = (0, 0)
    cube_action: CubeAction = CubeAction.NONE
    cube_value: int = 1
    cube_owner: Side | None = None
    score: tuple[int, int] = (0, 0)
    match_length: int = 0
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False
    max_cube: int = 1 << 10

    def __post_init__(self) -> None:
        problems = self.position.problems()
        if problems:
            raise XgidError("position cannot occur: " + "; ".join(problems))
        for name in ("cube_value", "max_cube"):
            _log2(getattr(self, name), name.replace("_", " "))
        if self.cube_value > self.max_cube:
            raise XgidError(
                f"cube value {self.cube_value} exceeds the maximum cube {self.max_cube}"
            )
        rolled = self.dice != (0, 0)
        if rolled and not all(_is_int(die) and 1 <= die <= 6 for die in self.dice):
            raise XgidError(
                f"dice {self.dice!r}: two dice of 1 to 6, or (0, 0) before the roll"
            )
        if rolled and self.cube_action is not CubeAction.NONE:
            raise XgidError(
                f"dice {self.dice!r} cannot be rolled during a cube action"
            )
        if self.match_length < 0:
            raise XgidError(f"match length {self.match_length} is negative")
        for side in Side:
            score = self.score[side]
            if score < 0 or (self.match_length and score >= self.match_length):
                raise XgidError(
                    f"{side.label}'s score {score} is outside 0 to {self.match_length - 1}"
                    if self.match_length
                    else f"{side.label}'s score {score} is negative"
                )
        if self.match_length and (self.jacoby or self.beavers):
            raise XgidError("the Jacoby rule and beavers are for money play only")
        if not self.match_length and self.crawford:
            raise XgidError("there is no Crawford game in money play")


    @property
    def to_act(self) -> Side:
        """The player who acts now.

        The player on roll; after a double or a raccoon the doubler's opponent,
        who must answer it; after a beaver the doubler, who must answer that.
        """
        if self.cube_action in (CubeAction.DOUBLED, CubeAction.RACCOONED):
            return self.turn.opponent
        return self.turn


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _log2(value: int, name: str) -> int:
    if not _is_int(value) or value < 1 or value & (value - 1) or value > 1 << _MAX_LOG:
        raise XgidError(
            f"{name} {value!r} is not a power of two from 1 to {1 << _MAX_LOG}"
        )
    return value.bit_length() - 1


# --- encoding ----------------------------------------------------------------------


def xgid(record: XGID) -> str:
    """The XGID text of `record`, with the ``XGID=`` prefix."""
    none = record.cube_action is CubeAction.NONE
    dice = f"{record.dice[0]}{record.dice[1]}" if none else record.cube_action.value
    # Match play: the Crawford game; money play: bit 0 Jacoby, bit 1 beavers.
    rules = int(record.crawford) if record.match_length else int(record.jacoby) | int(record.beavers) << 1
    fields = (
        _board_text(record.position),
        _log2(record.cube_value, "cube value"),
        0 if record.cube_owner is None else _SIGN_OF_SIDE[record.cube_owner],
        _SIGN_OF_SIDE[record.turn],
        dice,
        record.score[Side.WHITE],
        record.score[Side.BLACK],
        rules,
        record.match_length,
        _log2(record.max_cube, "max cube"),
    )
    return PREFIX + ":".join(str(field) for field in fields)


def _board_text(position: Position) -> str:
    chars = ["-"] * _BOARD_LENGTH
    chars[_TOP_BAR] = _count_char(position.on_bar(Side.BLACK), upper=False)
    chars[_BOTTOM_BAR] = _count_char(position.on_bar(Side.WHITE), upper=True)
    for absolute in range(1, POINTS + 1):
        side, count = position.at(absolute)
        if side is not None:
            chars[absolute] = _count_char(count, upper=side is Side.WHITE)
    return "".join(chars)


def _count_char(count: int, upper: bool) -> str:
    if not count:
        return "-"
    return chr((ord("A") if upper else ord("a")) + count - 1)


# --- decoding ----------------------------------------------------------------------


def decode_xgid(text: str) -> XGID:
    """Decode an XGID, with or without the ``XGID=`` prefix.

    :raises XgidError: naming the field at fault.
    """
    body = text.strip()
    if body.upper().startswith(PREFIX):
        body = body[len(PREFIX) :]
    fields = body.split(":")
    if len(fields) != _FIELDS:
        raise XgidError(f"XGID {text!r} has {len(fields)} fields, expected {_FIELDS}")
    board, cube, owner, turn, dice, bottom, top, rules, length, max_cube = fields
    try:
        match_length = _integer(length, "match length", 0, 1 << 15)
        rule_bits = _integer(
            rules, "Crawford/Jacoby flags", 0, 1 if match_length else 3
        )
        dice_pair, action = _dice(dice)
        return XGID(
            position=_position(board),
            turn=_SIDE_OF_SIGN[_integer(turn, "turn", allowed={-1, 1})],
            dice=dice_pair,
            cube_action=action,
            cube_value=1 << _integer(cube, "cube value (log2)", 0, _MAX_LOG),
            cube_owner=_SIDE_OF_SIGN.get(
                _integer(owner, "cube position", allowed={-1, 0, 1})
            ),
            score=(_integer(bottom, "bottom score"), _integer(top, "top score")),
            match_length=match_length,
            crawford=bool(match_length and rule_bits),
            jacoby=bool(not match_length and rule_bits & 1),
            beavers=bool(not match_length and rule_bits & 2),
            max_cube=1 << _integer(max_cube, "max cube (log2)", 0, _MAX_LOG),
        )
    except ValueError as error:
        raise XgidError(f"XGID {text!r}: {error}") from None


def _integer(
    text: str,
    name: str,
    low: int = 0,
    high: int | None = None,
    allowed: set[int] | None = None,
) -> int:
    if not _INTEGER.fullmatch(text):
        raise XgidError(f"{name} {text!r} is not an integer")
    value = int(text)
    if allowed is not None:
        if value not in allowed:
            raise XgidError(
                f"{name} {value} is not " + " or ".join(map(str, sorted(allowed)))
            )
    elif value < low or (high is not None and value > high):
        bounds = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise XgidError(f"{name} {value} is not {bounds}")
    return value


def _dice(text: str) -> tuple[tuple[int, int], CubeAction]:
    for action in CubeAction:
        if text == action.value:
            return (0, 0), action
    if len(text) != 2 or not all(char in "123456" for char in text):
        raise XgidError(
            f"dice {text!r} are not '00', 'D', 'B', 'R' or two dice 1 to 6"
        )
    return (int(text[0]), int(text[1])), CubeAction.NONE


def _position(board: str) -> Position:
    if len(board) != _BOARD_LENGTH:
        raise XgidError(
            f"board {board!r} has {len(board)} characters, expected {_BOARD_LENGTH}"
        )
    white, black = [0] * 25, [0] * 25
    for index, char in enumerate(board):
        if char == "-":
            continue
        if "A" <= char <= "P":
            side, count = Side.WHITE, ord(char) - ord("A") + 1
        elif "a" <= char <= "p":
            side, count = Side.BLACK, ord(char) - ord("a") + 1
        else:
            raise XgidError(
                f"board character {char!r} at {index} is not '-', A-P or a-p"
            )
        if index in (_TOP_BAR, _BOTTOM_BAR):
            bar_side = Side.BLACK if index == _TOP_BAR else Side.WHITE
            if side is not bar_side:
                raise XgidError(
                    f"character {index} is {bar_side.label}'s bar, not {side.label}'s"
                )
            (white if side is Side.WHITE else black)[24] = count
        elif side is Side.WHITE:
            white[index - 1] = count
        else:
            black[24 - index] = count
    position = Position(tuple(white), tuple(black))
    problems = position.problems()
    if problems:
        raise XgidError("; ".join(problems))
    return position


def gnubg_ids(record: XGID) -> tuple[str, str]:
    """gnubg's Position ID (encoded for the player whose turn it is) and Match ID of an
    XGID: the cube, the score, the match, the dice and a double on offer carried over.
    The Jacoby and beaver settings of money play are not in a Match ID (`XGID` has them).
    """
    key = MatchKey(
        cube_value=record.cube_value, cube_owner=record.cube_owner, dice_owner=record.turn,
        crawford=record.crawford, turn=record.to_act,
        double_offered=record.cube_action is not CubeAction.NONE,
        dice=(max(record.dice), min(record.dice)), match_length=record.match_length, score=record.score)
    return position_id(record.position, record.turn), match_id(key)


@dataclass(frozen=True, slots=True)
class PositionIds:
    """A position as a user writes it, in gnubg's IDs (`read_ids`).

    `position_id` is encoded for the player on roll; `match_id` is None when the text has
    none (an XGID always gives one); `money` holds an XGID of money play's Jacoby and beaver
    settings, which a Match ID cannot hold (empty otherwise).
    """

    position_id: str
    match_id: str | None = None
    money: Mapping[str, bool] = field(default_factory=dict, hash=False)

    @property
    def key(self) -> MatchKey | None:
        """The Match ID decoded: the cube, the score, the match and who is on roll (None
        without one).

        :raises MatchIdError: as `decode_match_id` does.
        """
        return decode_match_id(self.match_id) if self.match_id else None


def read_ids(text: str) -> PositionIds:
    """A position as a user writes it: a gnubg Position ID, ``ID:MATCHID``, or an
    ``XGID=...``.  The one reader of `bgpi run --position`, `bgpi hint` and `bgpi rules
    show`; a board script's ``xgid`` key is read as its XGID is (`xgid_ids`).  The IDs it
    gives are decoded where they are used (`position_from_id`, `decode_match_id`, `key`),
    which name their faults.

    >>> read_ids("4HPwATDgc/ABMA:MIEFAAAAAAAA")
    PositionIds(position_id='4HPwATDgc/ABMA', match_id='MIEFAAAAAAAA', money={})
    >>> read_ids("XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10")
    PositionIds(position_id='4HPwATDgc/ABMA', match_id='MIEFAAAAAAAA', money={'jacoby': False, 'beavers': False})

    :raises XgidError: for an XGID that cannot be read.
    """
    if text.strip().upper().startswith(PREFIX):  # as `decode_xgid` reads it
        return xgid_ids(text)
    position_text, _, match_text = text.partition(":")
    return PositionIds(position_text, match_text or None)


def xgid_ids(text: str) -> PositionIds:
    """An XGID, with or without its prefix, in gnubg's IDs (`gnubg_ids`), with the
    Jacoby and beaver settings of money play.

    :raises XgidError: for an XGID that `decode_xgid` refuses.
    """
    record = decode_xgid(text)
    money = {} if record.match_length else {"jacoby": record.jacoby, "beavers": record.beavers}
    return PositionIds(*gnubg_ids(record), money)
