"""A team match: two teams, N pairs of boards, and the team score (docs/team.md).

The match file (TOML) names the match, its two teams and each pair of boards: the
game ID both boards of the pair play under, the team that plays white there, and the
pair's match length.  `parse_team_match` reads it; `team_score` counts the pairs'
matches won from the boards' `state` messages (`bgpi.remote.state`): the team that
wins a majority of them wins the team match, two of three as the seeds' rule has it.
`pair_records` writes a pair's match as .mat and SGF from its logged table events.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bgpi.exc import TeamMatchError
from bgpi.records.matfile import MatRecord, mat_record
from bgpi.records.sgffile import SgfRecord, sgf_record
from bgpi.remote.messages import GAME_ID
from bgpi.remote.state import BoardState
from bgpi.rules.ids import MAX_MATCH_LENGTH
from bgpi.rules.position import Side
from bgpi.table import events as ev

MAX_PAIRS = 31
"""The most pairs a team match has (a club's evening; the page shows them all)."""
MAX_NAME = 40
"""The longest name of a match or a team, in characters."""


@dataclass(frozen=True, slots=True)
class Pair:
    """Two boards playing one match: `game` is its game ID, `white` and `black` the teams."""

    game: str
    white: str
    black: str
    length: int

    def team(self, side: Side) -> str:
        return self.white if side is Side.WHITE else self.black


@dataclass(frozen=True, slots=True)
class TeamMatch:
    """A match file, read: its name, its two teams and its pairs, in the file's order."""

    name: str
    teams: tuple[str, str]
    pairs: tuple[Pair, ...]

    @property
    def needed(self) -> int:
        """The pairs' matches a team must win: a majority (2 of 3)."""
        return len(self.pairs) // 2 + 1

    def pair(self, game: str) -> Pair | None:
        return next((pair for pair in self.pairs if pair.game == game), None)


@dataclass(frozen=True, slots=True)
class PairResult:
    """Where a pair's match stands: its winning team once a board says the match is over;
    `problem` says why a result is not counted (the boards disagree, another match length)."""

    pair: Pair
    winner: str | None = None
    problem: str | None = None


@dataclass(frozen=True, slots=True)
class TeamScore:
    """The pairs' matches won by each team (in `TeamMatch.teams` order), and the winner
    once a team has won a majority of them."""

    match: TeamMatch
    results: tuple[PairResult, ...]
    wins: tuple[int, int]
    winner: str | None

    @property
    def playing(self) -> int:
        """The pairs whose match has no counted result yet."""
        return sum(1 for result in self.results if result.winner is None)

    def describe(self) -> str:
        """One line: "Lions 2, Tigers 1: Lions win the team match" or "... (2 of 3 to win)"."""
        (first, second), (won, lost) = self.match.teams, self.wins
        line = f"{first} {won}, {second} {lost}"
        if self.winner is not None:
            return f"{line}: {self.winner} win the team match"
        return f"{line} ({self.match.needed} of {len(self.match.pairs)} to win)"


# -- the match file ----------------------------------------------------------------------

_MATCH_KEYS = ("name", "teams", "pair")
_PAIR_KEYS = ("game", "white", "length")


def parse_team_match(text: str) -> TeamMatch:
    """The team match a TOML text describes; TeamMatchError naming the fault otherwise::

        name = "Club evening"
        teams = ["Lions", "Tigers"]

        [[pair]]
        game = "club-1"
        white = "Lions"
        length = 5
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise TeamMatchError(f"not TOML: {error}") from None
    except RecursionError:  # tomllib has no nesting limit of its own
        raise TeamMatchError("not TOML this board reads: nested too deeply") from None
    _known_keys(data, _MATCH_KEYS, "the match")
    name = _name(data, "name", "the match")
    teams = data.get("teams")
    if not isinstance(teams, list) or len(teams) != 2:
        raise TeamMatchError('teams: two team names, as teams = ["Lions", "Tigers"]')
    first, second = (_name({"teams": team}, "teams", "a team") for team in teams)
    for team in (first, second):
        if ":" in team or "Game " in team:  # gnubg's .mat reader ends a name at ':', a game at "Game "
            raise TeamMatchError(f"teams: {team!r}: a .mat file cannot hold ':' or 'Game ' in a name")
    if first == second:
        raise TeamMatchError(f"teams: both are named {first!r}")
    pairs = data.get("pair")
    if not isinstance(pairs, list) or not pairs:
        raise TeamMatchError("no [[pair]] tables: a team match has pairs of boards")
    read = tuple(_pair(each, number, (first, second)) for number, each in enumerate(pairs, 1))
    if len(read) % 2 == 0 or len(read) > MAX_PAIRS:
        raise TeamMatchError(f"{len(read)} pairs: a team match has an odd number of pairs, 1 to {MAX_PAIRS}, "
                             "so that one team wins a majority")
    games = [pair.game for pair in read]
    again = next((game for number, game in enumerate(games) if game in games[:number]), None)
    if again is not None:
        raise TeamMatchError(f"game ID {again!r} names two pairs: each pair plays a game of its own")
    return TeamMatch(name, (first, second), read)


def _pair(data: object, number: int, teams: tuple[str, str]) -> Pair:
    where = f"pair {number}"
    if not isinstance(data, dict):
        raise TeamMatchError(f"{where}: a [[pair]] table")
    _known_keys(data, _PAIR_KEYS, where)
    game = data.get("game")
    if not isinstance(game, str) or not GAME_ID.fullmatch(game):
        raise TeamMatchError(f"{where}: game {str(game)[:70]!r}: a game ID of 1 to 64 letters, digits, '-' or '_'")
    white = data.get("white")
    if white not in teams:
        raise TeamMatchError(f"{where}: white {str(white)[:50]!r} is not a team of the match "
                             f"({teams[0]!r} or {teams[1]!r})")
    length = data.get("length")
    if not isinstance(length, int) or isinstance(length, bool) or not 1 <= length <= MAX_MATCH_LENGTH:
        raise TeamMatchError(f"{where}: length {str(length)[:20]!r}: a match of 1 to {MAX_MATCH_LENGTH} points")
    black = teams[1] if white == teams[0] else teams[0]
    return Pair(game, str(white), black, length)


def _known_keys(data: Mapping[str, Any], keys: Sequence[str], where: str) -> None:
    unknown = sorted(set(data) - set(keys))
    if unknown:
        raise TeamMatchError(f"{where}: unknown key {unknown[0][:40]!r} (the keys are {', '.join(keys)})")


def _name(data: Mapping[str, Any], key: str, what: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME or not value.isprintable():
        raise TeamMatchError(f"{key}: {what} is named by a line of text of 1 to {MAX_NAME} characters")
    return value.strip()


# -- the score ----------------------------------------------------------------------------


def pair_result(pair: Pair, states: Iterable[BoardState]) -> PairResult:
    """The pair's match from its boards' states: won by the team of the winner a board names
    once the match is over; not counted while the boards name different winners or play
    another match length than the file's."""
    winners = set()
    for state in states:
        if state.match_length not in (None, pair.length):
            return PairResult(pair, problem=f"the {state.side.label} board plays a match to {state.match_length}, "
                                            f"the match file says {pair.length}")
        if state.winner is not None:
            winners.add(state.winner)
    if len(winners) > 1:
        return PairResult(pair, problem="the two boards name different winners")
    if not winners:
        return PairResult(pair)
    return PairResult(pair, winner=pair.team(winners.pop()))


def team_score(match: TeamMatch, states: Mapping[str, Iterable[BoardState]]) -> TeamScore:
    """The team score from the boards' latest states, by game ID (a game without any yet
    is still to be played)."""
    results = tuple(pair_result(pair, states.get(pair.game, ())) for pair in match.pairs)
    won = [sum(1 for result in results if result.winner == team) for team in match.teams]
    winner = next((team for team, count in zip(match.teams, won, strict=True) if count >= match.needed), None)
    return TeamScore(match, results, (won[0], won[1]), winner)


# -- the records ---------------------------------------------------------------------------


def pair_records(pair: Pair, events: Sequence[ev.Event]) -> tuple[MatRecord, SgfRecord]:
    """The pair's match as .mat and SGF, from the table events its white board logged,
    with the teams as the players' names.  The pair's match ends at its ``match_over``:
    a session the board starts after it is not the team match's.  A log that lost its
    ``session`` event (a watcher started late) is read as the pair's match from the file.
    Raises MatError or SgfError for a session the records cannot hold."""
    over = next((number for number, event in enumerate(events) if isinstance(event, ev.MatchOver)), None)
    if over is not None:
        events = events[:over + 1]
    players = {"white": pair.white, "black": pair.black}
    head = next((event for event in events if isinstance(event, ev.NewSession)), None)
    if head is None:
        events = [ev.NewSession({"match": pair.length, "players": players}), *events]
    elif "players" not in head.config:
        named = replace(head, config={**head.config, "players": players})
        events = [named if event is head else event for event in events]
    return mat_record(events), sgf_record(events)
