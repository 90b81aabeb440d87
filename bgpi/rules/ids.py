"""GNU Backgammon's Position ID and Match ID, bit-exact with gnubg.

Both IDs are a little-endian bit string (the *key*) written in base64 with
gnubg's alphabet (the standard one, no padding).

**Position ID** (gnubg positionid.c, ``oldPositionKey`` / ``oldPositionFromKey``):
gnubg's board ``anBoard`` holds two sides of 25 counts, each in its own count
(index i is point i + 1, index 24 the bar): ``anBoard[0]`` is the player *not*
on roll, ``anBoard[1]`` the player on roll.  The key walks ``anBoard[0]`` then
``anBoard[1]``, writing for each location as many 1 bits as it holds checkers
and then a 0 bit; the 80-bit key is padded with 0 bits and written as 14
characters.  The same board therefore has a different ID for each player on roll.
The batch command writes one ID per legal play, so the encoder works in a few
calls into C: the key is written as a binary numeral, last location first, from
a table of a location's bits by its count (or of two locations' bits by a byte of
packed counts), and `int(bits, 2)` reads it in one call.

**Match ID** (gnubg matchid.c, ``MatchID`` / ``MatchFromKey``): a 66-bit key of
fixed-width fields (`MatchKey`), written as 12 characters.  White is gnubg's
player 0, black its player 1.
"""

from __future__ import annotations

import binascii
from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import IntEnum

from bgpi.exc import MatchIdError, PositionIdError
from bgpi.rules.position import CHECKERS, Checkers, Position, Side

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

POSITION_ID_LENGTH = 14
MATCH_ID_LENGTH = 12
_POSITION_KEY_BITS = 80
_POSITION_KEY_BYTES = _POSITION_KEY_BITS // 8
_POSITION_KEY_FORMAT = f"0{_POSITION_KEY_BITS}b"
_LOCATIONS = 25

GnubgBoard = tuple[Checkers, Checkers]
"""gnubg's anBoard: [0] the player not on roll, [1] the player on roll, each in its own count."""


def _to_base64(key: bytes, length: int) -> str:
    """gnubg's base64 of a key: the standard encoding without its padding."""
    return binascii.b2a_base64(key, newline=False)[:length].decode("ascii")


def _from_base64(text: str, length: int, what: str, error: type[ValueError]) -> bytes:
    """The bytes that the base64 `text` writes, filled up with zero bits to whole
    bytes (the 14 characters of a Position ID write its 10 bytes, 4 spare bits and
    a zero byte).

    :raises error: for a malformed text (the caller's error: a Position ID's or a Match ID's).
    """
    if len(text) != length:
        raise error(
            f"{what} {text!r} has {len(text)} characters, expected {length}"
        )
    if "=" not in text:  # binascii reads "=" as padding: gnubg writes none
        try:
            # Strict: a character outside the alphabet is refused, not skipped; "A" is 0.
            return binascii.a2b_base64(text + "A" * (-length % 4), strict_mode=True)
        except ValueError:  # binascii.Error, or a character beyond ASCII
            pass
    index, char = next((i, c) for i, c in enumerate(text) if c not in _ALPHABET)
    raise error(
        f"{what} {text!r}: character {char!r} at position {index + 1} is not base64 "
        "(A-Z, a-z, 0-9, +, /)"
    )


# --- Position ID -------------------------------------------------------------------


def position_id(position: Position, on_roll: Side) -> str:
    """The 14-character gnubg Position ID of `position` with `on_roll` to play.

    :raises PositionIdError: for a position that cannot occur (see `Position.problems`).
    """
    problems = position.problems()
    if problems:
        raise PositionIdError(
            "cannot encode a position that cannot occur: " + "; ".join(problems)
        )
    return board_id((position.checkers(on_roll.opponent), position.checkers(on_roll)))


def board_id(board: GnubgBoard) -> str:
    """The Position ID of gnubg's anBoard (the caller vouches for a valid board)."""
    waiting, moving = board
    return _key_id(_side_bits(moving) + _side_bits(waiting))


def result_ids(results: Iterable[tuple[int, Checkers]]) -> list[str]:
    """The Position IDs of the positions a roll's plays lead to, the mover on roll.

    `results` holds (the mover's counts, the opponent's counts) after each play, as
    `movegen.packed_results` gives them: the mover's counts packed in an integer,
    4 bits a location from point 1 (the lowest) to the bar.  The batch command
    writes one ID per legal play, so the mover's half of the key is read two
    locations a byte, and each distinct opponent's half is written once: most plays
    hit no blot and leave the opponent as it was, the others share the few blots.
    """
    opponent_bits: dict[Checkers, str] = {}
    ids = []
    for own, opponent in results:
        bits = opponent_bits.get(opponent)
        if bits is None:
            bits = opponent_bits[opponent] = _side_bits(opponent)
        # 13 bytes hold the 25 locations and, above the bar, an empty one: a leading 0 bit.
        ids.append(_key_id("".join([_PAIR_RUNS[pair] for pair in own.to_bytes(13, "big")]) + bits))
    return ids


# A location's run of key bits by its count, most significant bit first: its 0
# bit, then a 1 bit per checker (80 bits hold 30 checkers).
_RUNS = tuple("0" + "1" * count for count in range(2 * CHECKERS + 1))
# The runs of two locations by a byte of packed counts (4 bits each, the higher location first).
_PAIR_RUNS = tuple(_RUNS[pair >> 4] + _RUNS[pair & 15] for pair in range(256))


def _side_bits(side: Checkers) -> str:
    """The key bits of one side of anBoard as a binary numeral: last location first,
    so that `int(bits, 2)` reads the little-endian key in one call."""
    return "".join([_RUNS[count] for count in side[::-1]])


def _key_id(bits: str) -> str:
    """The Position ID of a key written by `_side_bits`, the player on roll's half first."""
    return _to_base64(int(bits, 2).to_bytes(_POSITION_KEY_BYTES, "little"), POSITION_ID_LENGTH)


def decode_position_id(text: str) -> GnubgBoard:
    """gnubg's anBoard for a Position ID: (player not on roll, player on roll).

    Stricter than gnubg, which reads what it can: raises PositionIdError naming the
    fault for a wrong length, a character outside base64, bits beyond the key,
    a key that runs past 80 bits, and a position that cannot occur (gnubg's
    CheckPosition: more than 15 checkers a side, both colours on one point,
    both players on the bar against closed boards).
    """
    written = _from_base64(text, POSITION_ID_LENGTH, "position ID", PositionIdError)
    if any(written[_POSITION_KEY_BYTES:]):  # the spare bits of the last character
        raise PositionIdError(
            f"position ID {text!r}: its last character {text[-1]!r} sets bits beyond the 80-bit key"
        )
    key = int.from_bytes(written[:_POSITION_KEY_BYTES], "little")
    bits = format(key, _POSITION_KEY_FORMAT)[::-1]  # character i is bit i
    runs = bits.split("0")
    if len(runs) <= 2 * _LOCATIONS:
        raise PositionIdError(
            f"position ID {text!r}: the checkers run past the 80-bit key "
            "(more than 30 checkers in play)"
        )
    if any(runs[2 * _LOCATIONS :]):
        raise PositionIdError(
            f"position ID {text!r}: trailing garbage, bits set after the last location"
        )
    board = (tuple(map(len, runs[:_LOCATIONS])), tuple(map(len, runs[_LOCATIONS : 2 * _LOCATIONS])))
    problems = board_problems(board)
    if problems:
        raise PositionIdError(f"position ID {text!r}: " + "; ".join(problems))
    return board


def position_from_id(text: str, on_roll: Side) -> Position:
    """The Position for a Position ID encoded with `on_roll` to play.

    >>> position_from_id("4HPwATDgc/ABMA", Side.WHITE) == Position.start()
    True

    :raises PositionIdError: as `decode_position_id` does.
    """
    opponent, own = decode_position_id(text)
    return Position.of(on_roll, own, opponent)


def board_problems(board: GnubgBoard) -> list[str]:
    """Why gnubg's CheckPosition refuses `board`: [] when it accepts it."""
    names = ("the player not on roll", "the player on roll")
    found = [
        f"{name} has {sum(side)} checkers, more than {CHECKERS}"
        for name, side in zip(names, board, strict=True)
        if sum(side) > CHECKERS
    ]
    waiting, moving = board
    found += [
        f"point {24 - i} of the player on roll holds checkers of both players"
        for i in range(24)
        if waiting[i] and moving[23 - i]
    ]
    # Neither player could ever have entered, so the position cannot arise.
    if waiting[24] and moving[24] and all(waiting[i] >= 2 and moving[i] >= 2 for i in range(6)):
        found.append("both players are on the bar against closed boards")
    return found


# --- Match ID ----------------------------------------------------------------------


class GameState(IntEnum):
    """gnubg's gamestate."""

    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


class Resignation(IntEnum):
    """The resignation on offer, if any."""

    NONE = 0
    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


MAX_CUBE_LOG = 15  # a 4-bit field
MAX_MATCH_LENGTH = 64  # gnubg's MAXSCORE: MatchFromKey refuses longer matches
MAX_SCORE = (1 << 15) - 1  # a 15-bit field
_CENTRED = 3  # cube owner bits 11

# (field, first bit, width) as gnubg's MatchID writes them.
_CUBE = (0, 4)
_CUBE_OWNER = (4, 2)
_DICE_OWNER = (6, 1)
_CRAWFORD = (7, 1)
_GAME_STATE = (8, 3)
_TURN = (11, 1)
_DOUBLED = (12, 1)
_RESIGNED = (13, 2)
_DIE_1 = (15, 3)
_DIE_2 = (18, 3)
_MATCH_LENGTH = (21, 15)
_SCORE_0 = (36, 15)
_SCORE_1 = (51, 15)
_EXTENDED_JACOBY = (66, 1)  # written only by gnubg builds with USE_EXTENDEDMATCHID
_MATCH_KEY_BYTES = 9


@dataclass(frozen=True, slots=True)
class MatchKey:
    """The fields of gnubg's Match ID.

    `cube_owner` None is a centred cube.  `dice_owner` is gnubg's fMove: the
    player on roll, or who did roll.  `turn` is fTurn: who acts now (after a
    double, the player who must take or drop).  `dice` is (0, 0) before the
    roll; it is kept larger die first, as gnubg writes it.  `match_length` 0 is
    money play.  `score` is indexed by Side: (player 0, player 1).

    :raises MatchIdError: for values the ID cannot hold or gnubg refuses.
    """

    cube_value: int = 1
    cube_owner: Side | None = None
    dice_owner: Side = Side.WHITE
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    turn: Side = Side.WHITE
    double_offered: bool = False
    resignation: Resignation = Resignation.NONE
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        cube = self.cube_value
        if (
            not _is_int(cube)
            or cube < 1
            or cube & (cube - 1)
            or cube > 1 << MAX_CUBE_LOG
        ):
            raise MatchIdError(
                f"cube value {cube!r} is not a power of two from 1 to {1 << MAX_CUBE_LOG}"
            )
        dice = tuple(self.dice)
        if len(dice) != 2 or not all(_is_int(die) and 0 <= die <= 6 for die in dice):
            raise MatchIdError(
                f"dice {self.dice!r}: two dice of 1 to 6, or (0, 0) before the roll"
            )
        if (dice[0] == 0) != (dice[1] == 0):
            raise MatchIdError(f"dice {self.dice!r}: both dice are rolled, or neither")
        object.__setattr__(self, "dice", (max(dice), min(dice)))
        length = self.match_length
        if not _is_int(length) or not 0 <= length <= MAX_MATCH_LENGTH:
            raise MatchIdError(
                f"match length {length!r} is not 0 (money) to {MAX_MATCH_LENGTH}"
            )
        score = tuple(self.score)
        limit = length or MAX_SCORE
        if len(score) != 2 or not all(_is_int(s) and 0 <= s <= limit for s in score):
            raise MatchIdError(f"score {self.score!r}: two scores from 0 to {limit}")
        object.__setattr__(self, "score", score)
        if self.crawford and not length:
            raise MatchIdError("there is no Crawford game in money play")

    @property
    def cube_log(self) -> int:
        """log2 of the cube value, as the ID stores it."""
        return self.cube_value.bit_length() - 1

    def after_play(self) -> MatchKey:
        """The key once the player on roll has played: the opponent on roll, before its roll.

        >>> key = MatchKey(dice_owner=Side.WHITE, turn=Side.WHITE, dice=(3, 1)).after_play()
        >>> key.dice_owner, key.turn, key.dice
        (<Side.BLACK: 1>, <Side.BLACK: 1>, (0, 0))
        """
        opponent = self.dice_owner.opponent
        return replace(self, dice_owner=opponent, turn=opponent, dice=(0, 0))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def match_id(key: MatchKey) -> str:
    """The 12-character gnubg Match ID of `key`."""
    owner = _CENTRED if key.cube_owner is None else int(key.cube_owner)
    fields = (
        (_CUBE, key.cube_log),
        (_CUBE_OWNER, owner),
        (_DICE_OWNER, int(key.dice_owner)),
        (_CRAWFORD, int(key.crawford)),
        (_GAME_STATE, int(key.game_state)),
        (_TURN, int(key.turn)),
        (_DOUBLED, int(key.double_offered)),
        (_RESIGNED, int(key.resignation)),
        (_DIE_1, key.dice[0]),
        (_DIE_2, key.dice[1]),
        (_MATCH_LENGTH, key.match_length),
        (_SCORE_0, key.score[0]),
        (_SCORE_1, key.score[1]),
    )
    bits = 0
    for (start, _width), value in fields:
        bits |= value << start
    return _to_base64(bits.to_bytes(_MATCH_KEY_BYTES, "little"), MATCH_ID_LENGTH)


def decode_match_id(text: str) -> MatchKey:
    """The MatchKey of a gnubg Match ID.

    :raises MatchIdError: naming the fault: wrong length, a character outside
    base64, a cube owner, game state or die the key cannot mean, a match
    longer than gnubg allows, a score past the match length, a Crawford game
    in money play, or bits set past the key.  Bit 66, the Jacoby flag some gnubg
    builds add, is accepted and ignored.
    """
    bits = int.from_bytes(_from_base64(text, MATCH_ID_LENGTH, "match ID", MatchIdError), "little")

    def field(spec: tuple[int, int]) -> int:
        start, width = spec
        return bits >> start & ((1 << width) - 1)

    if bits >> (_EXTENDED_JACOBY[0] + 1):
        raise MatchIdError(
            f"match ID {text!r}: trailing garbage, bits set past the 67-bit key"
        )
    owner = field(_CUBE_OWNER)
    if owner == 2:
        raise MatchIdError(
            f"match ID {text!r}: cube owner bits 10 mean no one (00, 01 or 11)"
        )
    state = field(_GAME_STATE)
    if state > max(GameState):
        raise MatchIdError(f"match ID {text!r}: game state {state} is not 0 to 4")
    try:
        return MatchKey(
            cube_value=1 << field(_CUBE),
            cube_owner=None if owner == _CENTRED else Side(owner),
            dice_owner=Side(field(_DICE_OWNER)),
            crawford=bool(field(_CRAWFORD)),
            game_state=GameState(state),
            turn=Side(field(_TURN)),
            double_offered=bool(field(_DOUBLED)),
            resignation=Resignation(field(_RESIGNED)),
            dice=(field(_DIE_1), field(_DIE_2)),
            match_length=field(_MATCH_LENGTH),
            score=(field(_SCORE_0), field(_SCORE_1)),
        )
    except ValueError as error:
        raise MatchIdError(f"match ID {text!r}: {error}") from None
