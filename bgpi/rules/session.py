"""Matches, money sessions and the game in progress (docs/rules.md §3, §8, §9).

`Settings` are what a session is played under, `Session` is the score between
games, and `Game` is one game's cube and turn: who may double when.  All are
immutable values; every action returns a new value or raises with the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from bgpi.exc import CubeError, DiceError, SessionError, SessionSettingsError
from bgpi.rules.cube import Cube
from bgpi.rules.ids import MAX_CUBE_LOG, MAX_MATCH_LENGTH, MAX_SCORE, GameState, MatchKey
from bgpi.rules.position import Position, Side
from bgpi.rules.result import GameResult

MAX_AUTO_DOUBLES = 8
"""Automatic doubles per game at most: a cube of 256 before the first roll is plenty."""

MAX_CUBE = 1 << MAX_CUBE_LOG
"""The highest cube a Match ID holds (2^15), and so every table log: the cube's limit
when the session sets no `cube_cap` lower."""


@dataclass(frozen=True, slots=True)
class Settings:
    """The rules a session is played under.

    `match_length` 0 is money play, else a match to that many points.  The
    Crawford rule is always on in matches (docs/rules.md §9); `jacoby`, `beavers` and
    `auto_doubles` (the cap of automatic doubles per game, 0 = off) exist only
    in money play.  `cube_cap` is the highest value the cube may reach by doubles,
    beavers and automatic doubles (a power of two from 2; 0, the default, is none
    but the Match ID's `MAX_CUBE`).  The defaults are money play's: Jacoby on, beavers and
    automatic doubles off.  For a match use `Settings.match(n)`; asking for a
    money-only rule in a match raises SessionSettingsError naming the setting.
    """

    match_length: int = 0
    jacoby: bool = True
    beavers: bool = False
    auto_doubles: int = 0
    cube_cap: int = 0

    KEYS = ("match", "jacoby", "beavers", "auto_doubles", "cube_cap")
    """The keys of a board script's `config` line that are session settings."""

    def __post_init__(self) -> None:
        # A Match ID holds matches to 64 and a cube up to 2**15: beyond them no table log
        # could be written.
        _check_count("match", self.match_length, MAX_MATCH_LENGTH)
        _check_flag("jacoby", self.jacoby)
        _check_flag("beavers", self.beavers)
        _check_count("auto_doubles", self.auto_doubles, MAX_AUTO_DOUBLES)
        _check_count("cube_cap", self.cube_cap, MAX_CUBE)
        if self.cube_cap & (self.cube_cap - 1) or self.cube_cap == 1:
            raise SessionSettingsError(
                f"cube_cap: a power of two from 2 to {MAX_CUBE} (0: no cap), not {self.cube_cap}")
        if self.match_length:
            for name, wanted in (
                ("jacoby", self.jacoby),
                ("beavers", self.beavers),
                ("auto_doubles", self.auto_doubles),
            ):
                if wanted:
                    raise SessionSettingsError(f"{name}: only for money play, not in a match")

    @classmethod
    def match(cls, length: int) -> Settings:
        """A match to `length` points (0 gives money play with its defaults)."""
        if length == 0:
            return cls()
        return cls(match_length=length, jacoby=False)

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Settings:
        """Settings from a board script's `config` object (board-script.md).

        Reads only the keys in `KEYS` and leaves any other key (such as
        `lenient`) to its owner.  Jacoby defaults to on in money play and off in
        a match; `{"match": 5, "jacoby": true}` raises SessionSettingsError.
        """
        length = config.get("match", 0)
        _check_count("match", length)
        defaults = cls.match(length)
        return cls(
            match_length=length,
            jacoby=config.get("jacoby", defaults.jacoby),
            beavers=config.get("beavers", defaults.beavers),
            auto_doubles=config.get("auto_doubles", defaults.auto_doubles),
            cube_cap=config.get("cube_cap", defaults.cube_cap),
        )

    @property
    def is_match(self) -> bool:
        return self.match_length > 0

    @property
    def cube_limit(self) -> int:
        """The highest value the cube may reach: the cap, else the Match ID's limit."""
        return self.cube_cap or MAX_CUBE


@dataclass(frozen=True, slots=True)
class Score:
    """Points won by each side: a match score, or money play's running totals."""

    white: int = 0
    black: int = 0

    def __post_init__(self) -> None:
        _check_count("white's score", self.white)
        _check_count("black's score", self.black)

    def __getitem__(self, side: Side) -> int:
        return self.white if side is Side.WHITE else self.black

    def plus(self, side: Side, points: int) -> Score:
        """This score with `points` more for `side`."""
        if side is Side.WHITE:
            return Score(self.white + points, self.black)
        return Score(self.white, self.black + points)

    def as_dict(self) -> dict[str, int]:
        """As the table log writes it: {"white": n, "black": n}."""
        return {"white": self.white, "black": self.black}


@dataclass(frozen=True, slots=True)
class Session:
    """A match to N points or a money session, between games.

    `score` counts the points won so far, `games` the games finished.
    `crawford` is True when the next game (the one `new_game` starts) is the
    Crawford game: the first game after a player reaches N - 1, in which
    nobody may double (docs/rules.md §9).  It is stored because the score alone
    cannot tell it from post-Crawford play; it matches the Crawford bit of
    GNU Backgammon's Match ID.

    Scores are kept as won, beyond N too; the first to reach N wins the
    match.  Money sessions never end.
    """

    settings: Settings = field(default_factory=Settings)
    score: Score = field(default_factory=Score)
    games: int = 0
    crawford: bool = False

    def __post_init__(self) -> None:
        _check_count("games", self.games)
        _check_flag("crawford", self.crawford)
        if self.crawford and not self._reaches_crawford(self.score):
            raise SessionSettingsError(
                "crawford: the Crawford game comes only in a match, when one player"
                " (not both) needs one point to win"
            )

    @property
    def is_match(self) -> bool:
        return self.settings.is_match

    @property
    def game_number(self) -> int:
        """The number of the game being played or about to be, from 1."""
        return self.games + 1

    @property
    def post_crawford(self) -> bool:
        """True after the Crawford game: a player needs one point and doubling
        is allowed again.  Never in a 1-point match, which has no Crawford game
        (GNU Backgammon applies the rule to matches longer than 1 point)."""
        length = self.settings.match_length
        return (
            length > 1
            and not self.crawford
            and not self.is_over
            and length - 1 in (self.score.white, self.score.black)
        )

    def needs(self, side: Side) -> int:
        """How many points `side` still needs to win the match (0 if it has won).
        :raises SessionError: in money play, where nobody needs anything."""
        if not self.is_match:
            raise SessionError("money play has no points to reach")
        return max(0, self.settings.match_length - self.score[side])

    @property
    def winner(self) -> Side | None:
        """The side that has won the match: the one that reached N (never in money play)."""
        if not self.is_match:
            return None
        for side in Side:
            if self.score[side] >= self.settings.match_length:
                return side
        return None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def record(self, result: GameResult) -> Session:
        """The session after a game ended with `result`.

        Adds the points to the winner's score and decides the next game's
        Crawford flag: it is the Crawford game when this game brought a player
        to N - 1 for the first time (not when the Crawford game has already
        been played, and not when both players are at N - 1).

        :raises SessionError: once the match is over.
        """
        if (winner := self.winner) is not None:
            raise SessionError(f"the match is over: {winner.label} has won")
        score = self.score.plus(result.winner, result.points)
        crawford = not self._at_match_point() and self._reaches_crawford(score)
        return replace(self, score=score, games=self.games + 1, crawford=crawford)

    def new_game(self) -> Game:
        """The next game, before its opening roll.

        :raises SessionError: once the match is over.
        """
        if (winner := self.winner) is not None:
            raise SessionError(f"the match is over: {winner.label} has won")
        return Game(self)

    def _reaches_crawford(self, score: Score) -> bool:
        # GNU Backgammon: one player exactly at N - 1, the other below it.
        length = self.settings.match_length
        if length <= 1:
            return False
        return max(score.white, score.black) == length - 1 > min(score.white, score.black)

    def _at_match_point(self) -> bool:
        # Once a player stands at N - 1 the Crawford game is this game or behind us.
        return self.settings.match_length - 1 in (self.score.white, self.score.black)


@dataclass(frozen=True, slots=True)
class Game:
    """One game in progress, as far as the cube is concerned.

    `turn` is the player on roll, None until the opening roll decides it;
    `rolled` says that player has rolled this turn (the opening roll counts as
    the starter's first roll).  `automatic_doubles` counts the opening ties
    that doubled the cube.  The position and the legal plays live elsewhere.
    """

    session: Session
    cube: Cube = field(default_factory=Cube)
    turn: Side | None = None
    rolled: bool = False
    automatic_doubles: int = 0

    def opening(self, white: int, black: int) -> Game:
        """The opening roll: one die each (docs/rules.md §3).

        The higher die starts and plays both dice, so it has rolled.  A tie is
        rolled again; in money play with automatic doubles, each tie doubles the
        cube (staying centred) until the session's cap is reached.
        :raises DiceError: for a die outside 1..6.
        :raises SessionError: once the game has started.
        """
        for die in (white, black):
            if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
                raise DiceError(f"a die shows 1 to 6, not {die!r}")
        if self.turn is not None:
            raise SessionError("the opening roll has been made")
        if white != black:
            return replace(self, turn=Side.WHITE if white > black else Side.BLACK, rolled=True)
        settings = self.session.settings
        if self.automatic_doubles < settings.auto_doubles and self.cube.value * 2 <= settings.cube_limit:
            return replace(
                self,
                cube=self.cube.automatic_double(),
                automatic_doubles=self.automatic_doubles + 1,
            )
        return self

    def why_not_double(self, side: Side) -> str | None:
        """Why `side` may not offer a double now, or None if it may.

        A double is offered only at the start of one's own turn, before
        rolling, with the cube centred or one's own (docs/rules.md §8), never in the
        Crawford game (§9), and, as GNU Backgammon rules, not when the cube is
        dead: in a match, when the cube already gives the doubler the points
        it needs.
        """
        if self.turn is None:
            return "no double before the opening roll"
        if self.cube.offer is not None:
            return self.cube.why_not_double(side)
        if side is not self.turn:
            return f"it is {self.turn.label}'s turn"
        if self.rolled:
            return f"{side.label} has rolled: double before rolling"
        if self.session.crawford:
            return "the Crawford game allows no double"
        reason = self.cube.why_not_double(side)
        if reason is None and self.session.is_match and self.cube.value >= self.session.needs(side):
            reason = f"the cube is dead: {side.label} needs only {self.session.needs(side)}"
        if reason is None and self.cube.value * 2 > self.session.settings.cube_limit:
            reason = f"the cube is at its cap of {self.session.settings.cube_limit}"
        return reason

    def may_double(self, side: Side) -> bool:
        return self.why_not_double(side) is None

    def double(self, side: Side) -> Game:
        """`side` offers a double.  Raises CubeError with the reason if it may not."""
        reason = self.why_not_double(side)
        if reason is not None:
            raise CubeError(reason)
        return replace(self, cube=self.cube.double(side))

    def take(self, side: Side) -> Game:
        """`side` takes the double on offer; the doubler goes on to roll."""
        return replace(self, cube=self.cube.take(side))

    def drop(self, side: Side) -> GameResult:
        """`side` drops the double on offer and loses the game (docs/rules.md §8)."""
        return self.cube.drop(side)

    def why_not_beaver(self, side: Side) -> str | None:
        """Why `side` may not beaver now, or None if it may: beavers are for
        money play with the setting on, against a plain double (docs/rules.md §8)."""
        if self.session.is_match:
            return "no beavers in match play"
        if not self.session.settings.beavers:
            return "beavers are off in this session"
        reason, limit = self.cube.why_not_beaver(side), self.session.settings.cube_limit
        if reason is None and self.cube.value * 4 > limit:
            reason = f"a beaver would pass the cube's cap of {limit}"
        return reason

    def beaver(self, side: Side) -> Game:
        """`side` beavers the double on offer.  Raises CubeError with the reason if it may not."""
        reason = self.why_not_beaver(side)
        if reason is not None:
            raise CubeError(reason)
        return replace(self, cube=self.cube.beaver(side))

    def roll(self) -> Game:
        """The player on roll rolls.

        :raises SessionError: before the opening roll, while a double is on offer,
            or when they have rolled already.
        """
        if self.turn is None:
            raise SessionError("the opening roll decides who plays first")
        if self.cube.offer is not None:
            raise SessionError(f"{self.cube.offer.taker.label} must take or drop the double first")
        if self.rolled:
            raise SessionError(f"{self.turn.label} has rolled already")
        return replace(self, rolled=True)

    def end_turn(self) -> Game:
        """The player on roll has committed their play: the opponent is on roll.

        :raises SessionError: if they have not rolled.
        """
        if self.turn is None or not self.rolled:
            raise SessionError("a turn ends only after the roll has been played")
        return replace(self, turn=self.turn.opponent, rolled=False)

    def result(self, position: Position) -> GameResult:
        """The result of the game ending in `position` (docs/rules.md §7), with the
        Jacoby rule when the session plays it.

        :raises ResultError: if nobody has borne off all 15 checkers.
        """
        return GameResult.of(
            position,
            self.cube.value,
            jacoby=self.session.settings.jacoby,
            cube_turned=self.cube.turned,
        )


    def match_key(self, dice: tuple[int, int] = (0, 0), over: bool = False) -> MatchKey:
        """The fields of gnubg's Match ID for this moment of the game.

        `dice` are the dice the player on roll has rolled ((0, 0) before the
        roll); `over` marks a finished game.  A score past the match length is
        written as the length, the most the ID can hold.
        """
        if self.turn is None:
            raise SessionError("no Match ID before the opening roll decides who is on roll")
        offer = self.cube.offer
        settings = self.session.settings
        score = self.session.score
        limit = settings.match_length or MAX_SCORE
        return MatchKey(
            cube_value=self.cube.value,
            cube_owner=self.cube.owner,
            dice_owner=self.turn,
            crawford=self.session.crawford,
            game_state=GameState.OVER if over else GameState.PLAYING,
            turn=offer.taker if offer else self.turn,
            double_offered=offer is not None,
            dice=dice,
            match_length=settings.match_length,
            score=(min(score.white, limit), min(score.black, limit)),
        )


def _check_count(name: str, value: object, most: int | None = None) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise SessionSettingsError(f"{name}: expected a whole number 0 or more, not {value!r}")
    if most is not None and value > most:
        raise SessionSettingsError(f"{name}: at most {most}, not {value}")


def _check_flag(name: str, value: object) -> None:
    if not isinstance(value, bool):
        # A bad config value is bad input, reported like any other: a ValueError.
        raise SessionSettingsError(f"{name}: expected true or false, not {value!r}")  # noqa: TRY004
