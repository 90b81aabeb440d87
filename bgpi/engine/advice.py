"""What bgpi asks an engine and what it answers, in the rules' own terms.

A `Situation` is everything an engine needs besides the dice: the position with
the player on roll (the *mover*), the cube, the score and the session's rules.
It is engine-neutral; `Situation.query` turns it into the plain JSON-able
request (`Query`) that both engine backends understand (see `bgpi.engine.engine`).

The answers are checked against the rules before anyone sees them: a play the
engine names must be a legal play (`find_play`), or the answer is an `EngineError`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypedDict

from bgpi.exc import EngineError, MatchIdError, PlayNotationError, StrengthError
from bgpi.rules.ids import (
    GameState,
    MatchKey,
    board_id,
    decode_match_id,
    decode_position_id,
    match_id,
)
from bgpi.rules.notation import find_play
from bgpi.rules.play import Dice, Play
from bgpi.rules.position import Position, Side
from bgpi.rules.reference import legal_plays


@dataclass(frozen=True, slots=True)
class Strength:
    """How hard the engine thinks: gnubg's look-ahead in plies and its noise.

    Noise (gnubg's, deterministic per position) blurs the evaluations: the
    standard deviation added to each, which makes a weaker player.
    """

    plies: int = 0
    noise: float = 0.0

    def __post_init__(self) -> None:
        if self.plies not in (0, 1, 2):
            raise StrengthError(f"plies must be 0, 1 or 2, not {self.plies!r}")
        if not 0.0 <= self.noise <= 1.0:
            raise StrengthError(f"noise must be from 0 to 1, not {self.noise!r}")


# gnubg's own names for its predefined players (gnubg's "set player N" menu), weakest first.
LEVELS: dict[str, Strength] = {
    "beginner": Strength(0, 0.060),
    "casual": Strength(0, 0.050),
    "intermediate": Strength(0, 0.040),
    "advanced": Strength(0, 0.015),
    "expert": Strength(0, 0.0),
    "worldclass": Strength(2, 0.0),
}
DEFAULT_LEVEL = "expert"
"""The computer opponent's level unless one is chosen: 0-ply, quick on a Pi."""
DEFAULT_HINT_LEVEL = "worldclass"
"""The hint button's level unless `hint_level` says otherwise: gnubg's 2-ply, the answer a
player checks a hint against (0-ply differs from it in ordinary positions)."""


def parse_level(text: str) -> Strength:
    """A strength from a level name (`LEVELS`) or a number of plies 0..2.

    :raises StrengthError: for anything else.
    """
    name = text.strip().lower()
    if name in LEVELS:
        return LEVELS[name]
    if name in ("0", "1", "2"):
        return Strength(int(name))
    raise StrengthError(
        f"unknown engine level {text!r}: expected 0, 1, 2 (plies) or one of " + ", ".join(LEVELS)
    )


def parse_opponent(text: str) -> Strength:
    """The strength of a computer opponent "gnubg" or "gnubg:LEVEL" (see `parse_level`).

    :raises StrengthError: for anything else.
    """
    engine, _, level = str(text).partition(":")
    if engine != "gnubg":
        raise StrengthError(f"unknown opponent {text!r}: expected gnubg or gnubg:LEVEL")
    return parse_level(level) if level else LEVELS[DEFAULT_LEVEL]


class Query(TypedDict):
    """The request both backends answer (`Situation.query`), as JSON to gnubg: the
    position seen from the mover, who is gnubg's player 0."""

    position_id: str
    """The Position ID with the mover on roll."""
    match_id: str
    """The Match ID with the mover on roll, holding the dice when given."""
    cube: list[int | list[int]]
    """[value, owner (-1 centred, 0 the mover, 1 the opponent), match length,
    [the mover's score, the opponent's], Crawford 0/1]."""
    dice: list[int] | None
    jacoby: bool
    beavers: bool
    plies: int
    noise: float


@dataclass(frozen=True, slots=True)
class Situation:
    """A position with the mover on roll, its cube and score, as the engine sees it.

    `position` is absolute (white and black); `mover` is the player on roll.
    `cube_owner` None is a centred cube.  `score` is (white, black); `match_length`
    0 is money play, where `jacoby` and `beavers` apply.
    """

    position: Position
    mover: Side
    cube_value: int = 1
    cube_owner: Side | None = None
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    jacoby: bool = True
    beavers: bool = False

    @classmethod
    def from_ids(cls, position_id: str, match_text: str | None = None) -> tuple[Situation, Dice | None]:
        """A situation from gnubg IDs (the Position ID encoded for the player on roll)
        and the dice the Match ID holds (None before the roll, or without a Match ID).

        Without a Match ID, white is on roll in money play with a centred cube.
        :raises PositionIdError: for a malformed Position ID.
        :raises MatchIdError: for a malformed Match ID, or one not of a game in play.
        """
        waiting, moving = decode_position_id(position_id)
        if not match_text:
            return cls(Position.of(Side.WHITE, moving, waiting), Side.WHITE), None
        key = decode_match_id(match_text)
        if key.game_state is not GameState.PLAYING:
            raise MatchIdError(f"match ID {match_text!r} is not of a game in play")
        mover = key.dice_owner
        situation = cls(
            Position.of(mover, moving, waiting),
            mover,
            cube_value=key.cube_value,
            cube_owner=key.cube_owner,
            match_length=key.match_length,
            score=key.score,
            crawford=key.crawford,
        )
        return situation, (Dice(*key.dice) if key.dice[0] else None)

    def query(self, dice: Dice | None, strength: Strength) -> Query:
        """The request both backends answer, seen from the mover as gnubg's player 0."""
        opponent = self.mover.opponent
        if self.cube_owner is None:
            owner = -1
        else:
            owner = 0 if self.cube_owner is self.mover else 1
        score = (self.score[self.mover], self.score[opponent])
        key = MatchKey(
            cube_value=self.cube_value,
            cube_owner=None if owner < 0 else Side(owner),
            crawford=self.crawford,
            dice=(dice.first, dice.second) if dice is not None else (0, 0),
            match_length=self.match_length,
            score=score,
        )
        return {
            "position_id": _mover_id(self.position, self.mover),
            "match_id": match_id(key),
            "cube": [self.cube_value, owner, self.match_length, list(score), int(self.crawford)],
            "dice": list(dice) if dice else None,
            "jacoby": bool(self.jacoby and not self.match_length),
            "beavers": bool(self.beavers and not self.match_length),
            "plies": strength.plies,
            "noise": strength.noise,
        }


@dataclass(frozen=True, slots=True)
class RankedPlay:
    """One play the engine considered: its notation (in the mover's count), the
    resulting position's ID with the mover still encoded as on roll (as
    `bgpi rules plays` writes it), and its equity for the mover."""

    play: Play
    move: str
    position_id: str
    equity: float

    def as_json(self) -> dict[str, str | float]:
        return {"move": self.move, "position_id": self.position_id, "equity": round(self.equity, 4)}


def rank_plays(situation: Situation, dice: Dice, answers: list[dict[str, Any]]) -> list[RankedPlay]:
    """The engine's answers [{"move", "equity"}], best first, as legal plays.

    :raises EngineError: when the engine names a play the rules do not allow, or no
        play of a roll that can be played.
    """
    mover = situation.mover
    legal = legal_plays(situation.position, mover, dice)
    ranked = []
    for answer in answers:
        try:
            play = find_play(situation.position, mover, dice, answer["move"], among=legal)
        except PlayNotationError:
            raise EngineError(f"the engine suggests {answer['move']!r}, which is not a legal play of {dice}") from None
        ranked.append(RankedPlay(play, answer["move"], _mover_id(play.position, mover), float(answer["equity"])))
    if ranked:
        return ranked
    # A roll that cannot be played has one "play": none.  The engine may leave it out.
    try:
        forfeit = find_play(situation.position, mover, dice, "", among=legal)
    except PlayNotationError:
        raise EngineError(f"the engine named no play for {dice}") from None
    return [RankedPlay(forfeit, "", _mover_id(situation.position, mover), 0.0)]


def _mover_id(position: Position, mover: Side) -> str:
    """The Position ID with `mover` encoded as on roll."""
    return board_id((position.checkers(mover.opponent), position.checkers(mover)))


@dataclass(frozen=True, slots=True)
class CubeAdvice:
    """The cube decision before the mover rolls, as gnubg's cubeful equities for the
    mover (normalised to the cube's value: a dropped double is +1.0).

    `no_double`: the mover rolls without doubling; `double_take`: the mover doubles
    and the opponent takes; `double_drop`: the opponent drops.
    """

    no_double: float
    double_take: float
    double_drop: float
    beavers: bool = False

    @property
    def action(self) -> str:
        """What the mover should do: "double", "no double", or "too good" to double
        (play on for the gammon)."""
        if min(self.double_take, self.double_drop) > self.no_double:
            return "double"
        return "too good" if self.no_double >= self.double_drop else "no double"

    @property
    def response(self) -> str:
        """What the opponent should answer a double with: "take", "drop" or "beaver"."""
        if self.double_take >= self.double_drop:
            return "drop"
        if self.beavers and self.double_take < 0:  # the taker is the favourite: redouble at once
            return "beaver"
        return "take"

    def as_json(self) -> dict[str, str | float]:
        return {
            "action": self.action,
            "response": self.response,
            "no_double": round(self.no_double, 4),
            "double_take": round(self.double_take, 4),
            "double_drop": round(self.double_drop, 4),
        }


@dataclass(frozen=True, slots=True)
class Outcomes:
    """The mover's cubeless chances before the roll, as gnubg gives them: winning (any
    kind), winning a gammon (or more), a backgammon; losing a gammon (or more), a
    backgammon.  The table weighs them to resign (`bgpi.table.resigning`)."""

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float

    def as_json(self) -> dict[str, float]:
        return {"win": self.win, "win_gammon": self.win_gammon, "win_backgammon": self.win_backgammon,
                "lose_gammon": self.lose_gammon, "lose_backgammon": self.lose_backgammon}
