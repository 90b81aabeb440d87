"""A chouette's games for GNU Backgammon: each game as the money game of one seat against
the box (docs/chouette.md).

gnubg knows games of two.  A chouette game is one position shared by several money games,
one a seat of the team, each with its own cube; the journal holds every seat's decisions
(``seat_double``, ``seat_take``, ... name the seat), so any seat's game can be written:
the rolls and plays up to the moment the seat was settled, that seat's cube actions and
its result.  By default a game is written as the box against the captain the game began
with, on the captain's cube (`seat_events`); `mat_record` and `sgf_record` then write it
as they write any game, the box and the seat as the players' names.

>>> from bgpi.rules.chouette import LineChange
>>> from bgpi.rules.position import Side
>>> log = [ev.NewSession({"chouette": {"players": ["Ann", "Bob", "Cat"]}}),
...        ev.Line(("Ann", "Bob", "Cat"), LineChange.ROLL_OFF), ev.Start("4HPwATDgc/ABMA"),
...        ev.SeatDouble(Side.BLACK, "Bob", 2), ev.SeatDrop(Side.WHITE, "Bob", 1)]
>>> game = chouette_games(log)[1][0]
>>> game.number, game.box, game.captain, game.over is None
(1, 'Ann', 'Bob', True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bgpi.exc import RecordError
from bgpi.records.matfile import last_session
from bgpi.rules.chouette import ChouetteSettings, roles
from bgpi.rules.session import Score
from bgpi.table import events as ev


@dataclass(frozen=True, slots=True)
class ChouetteGame:
    """One game of a chouette: its number (from 1), its events from its ``start`` on,
    its box and its captain (the one it began with), the seats of its team, and its end
    (None while it is played)."""

    number: int
    events: tuple[ev.Event, ...]
    box: str
    captain: str
    team: tuple[str, ...]
    over: ev.ChouetteOver | None
    practice: bool  # it starts from the session's practice position


def is_chouette(events: Iterable[ev.Event]) -> bool:
    """Whether the last session of a table log is a chouette."""
    session, _ = last_session(events)
    return session is not None and "chouette" in session.config


def chouette_games(events: Iterable[ev.Event]) -> tuple[ev.NewSession, list[ChouetteGame]]:
    """The last session of a table log, a chouette, and its games in order.

    :raises RecordError: when the session is no chouette.
    """
    session, played = last_session(events)
    if session is None or "chouette" not in session.config:
        raise RecordError("the session is no chouette")
    partner = ChouetteSettings.from_config(session.config["chouette"]).box_partner
    line: tuple[str, ...] = ()
    games: list[ChouetteGame] = []
    current: list[ev.Event] | None = None
    for event in played:
        if isinstance(event, ev.Line) and current is None:
            line = event.line
        elif isinstance(event, ev.Start):
            current = [event]
        elif current is not None:
            current.append(event)
            if isinstance(event, ev.ChouetteOver):
                games.append(_game(len(games) + 1, current, line, partner, session))
                current = None
    if current is not None:
        games.append(_game(len(games) + 1, current, line, partner, session))
    return session, games


def _game(number: int, events: list[ev.Event], line: tuple[str, ...], partner: bool,
          session: ev.NewSession) -> ChouetteGame:
    team = roles(line, partner).team
    over = events[-1] if isinstance(events[-1], ev.ChouetteOver) else None
    return ChouetteGame(number, tuple(events), line[0], team[0], team, over,
                        number == 1 and session.position_id is not None)


def seat_events(session: ev.NewSession, game: ChouetteGame, seat: str | None = None) -> list[ev.Event]:
    """Game `game` of a chouette as the money game of `seat` (by default the captain it
    began with) against the box: a session of its own, the box's and the seat's names as
    the players', the rolls and plays until the seat was settled, the seat's cube actions
    and resignations as a game of two has them, and its ``game_over``.

    :raises RecordError: for a seat not of the game's team.
    """
    seat = seat or game.captain
    if seat not in game.team:
        raise RecordError(f"{seat} has no seat in game {game.number}: its team is {', '.join(game.team)}")
    settings = ChouetteSettings.from_config(session.config["chouette"])
    box_side = settings.box_side
    config: dict[str, Any] = {key: value for key, value in session.config.items() if key != "chouette"}
    config["players"] = {box_side.label: game.box, box_side.opponent.label: seat}
    practice = (session.position_id, session.turn, session.match_id) if game.practice else (None, None, None)
    out: list[ev.Event] = [ev.NewSession(config, *practice)]
    for event in game.events:
        copied = _seat_event(event, seat)
        if copied is not None:
            out.append(copied)
        if _settles(event, seat):
            break
    if game.over is not None:
        result = game.over.seat_result(seat, box_side)
        out.append(ev.GameOver.of(result, Score().plus(result.winner, result.points)))
    return out


def _seat_event(event: ev.Event, seat: str) -> ev.Event | None:
    """`event` as the game of `seat` has it; None when it is not of that game."""
    match event:
        case ev.Start() | ev.Tie() | ev.Opening() | ev.Roll() | ev.Play():
            return event
        case ev.SeatDouble() if event.seat == seat:
            return ev.Double(event.player, event.cube)
        case ev.SeatTake() if event.seat == seat:
            return ev.Take(event.player, event.cube)
        case ev.SeatDrop() if event.seat == seat:
            return ev.Drop(event.player, event.cube)
        case ev.SeatBeaver() if event.seat == seat:
            return ev.Beaver(event.player, event.cube)
        case ev.SeatResignOffered() if seat in event.seats:
            return ev.ResignOffered(event.player, event.result)
        case ev.SeatResignAccepted() if event.seat == seat:
            return ev.ResignAccepted(event.player)
        case ev.SeatResignDeclined() if event.seat == seat:
            return ev.ResignDeclined(event.player)
    return None


def _settles(event: ev.Event, seat: str) -> bool:
    """Whether `event` settles `seat`: its game ends there."""
    return isinstance(event, ev.SeatDrop | ev.SeatResignAccepted) and event.seat == seat


def game_of(games: Sequence[ChouetteGame], number: int) -> ChouetteGame:
    """Game `number` (from 1).  :raises RecordError: for one the session does not hold."""
    if not 1 <= number <= len(games):
        raise RecordError(f"there is no game {number}: the chouette holds {len(games)}")
    return games[number - 1]

