"""Match records in the Jellyfish .mat text format, as GNU Backgammon imports them.

`mat_record` turns a session's table log (board-script.md) into the text that
gnubg reads with ``import mat FILE``.  The layout is the one gnubg's own
``export match mat`` writes, and the choices follow gnubg's importer
(import.c: ImportMatVariation, ImportGame, ParseMatMove)::

     3 point match

     Game 1
     white : 0                      black : 0
      1)                             42: 8/4 6/4
      2) 31: 8/5 6/5                 Doubles => 2
      3)  Takes                      66: 24/18 24/18 13/7 13/7
     ...
          Wins 2 points

- ``N point match``; money play is ``0 point match``, which gnubg imports as
  money games (with its own Jacoby setting: the file cannot carry one).
- The left column is gnubg's player 0, white; the right one player 1, black.
  Cells alternate left, right; a game black starts has an empty left cell
  first, as gnubg writes it.  The score line gives each game's score before it:
  gnubg takes the scores from there, and finds the Crawford game from them.
- A play is written one step per checker move, in the order played, each in
  the mover's own count with ``*`` where it hits: ``13/7* 7/2``,
  ``8/5 8/5``.  gnubg applies the steps one after the other and checks each,
  so this avoids its guesswork when it expands ``13/2`` or ``8/5(2)``.  The
  steps come from the rules: each `play` event is matched to the legal play
  that leads to its ``position_id``.
- A roll with no legal play is ``52:`` with nothing after it.
- Cube: `` Doubles => 2``, `` Takes``, `` Drops``, `` Beavers => 4``.  The
  doubler's take of a beaver is not written: gnubg infers it from the
  doubler's next roll.  A dropped beaver is written `` Doubles => 4``: gnubg
  would infer a take at the next roll it reads, in the next game.
- A game ends with ``Wins N point(s)`` under the winner's column, with
  `` and the match`` when the match was won: on the line of white's drop when
  black wins by it (`` 5)  Drops                       Wins 2 points``), else
  on a line of its own, as gnubg's export writes it.  gnubg scores the game itself
  (from the last position or the drop); the line is for people.  A resigned game
  ends with its ``Wins`` line only, the offered kind times the cube, as gnubg's own
  export writes it: gnubg scores a game that is not finished from that line.

A session starts at its `session` event (`bgpi.table.events.NewSession`); the
match length and ``"players": {"white": NAME, "black": NAME}`` (or a session of pairs'
names, `player_names`) are read from its ``config``, all optional.  Without a session event the log is money
play between "white" and "black".  Only the last session of the log is
written.  What the format cannot hold comes with a warning naming the game:
automatic doubles (gnubg counts such a game at a lower cube), a cube beyond
gnubg's 4096 (`GNUBG_MAX_CUBE`: the game is written up to the double), and a play
that does not follow from the game's position (a practice position, or an
illegal play accepted in lenient mode): that game is written up to the play
before it, and its ``Wins`` line lets gnubg score it
as a resignation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bgpi.exc import MatError, RecordError, SettingsError
from bgpi.rules.pairs import Pairs
from bgpi.rules.play import Dice, Play, Step
from bgpi.rules.position import BAR, OFF, Position, Side
from bgpi.rules.reference import legal_plays
from bgpi.table import events as ev

Hear = Callable[[ev.Event], None]
"""A record's writer: takes in each event of the session, writing what it writes of it."""

GNUBG_MAX_CUBE = 1 << 12
"""The highest cube gnubg keeps (its MAX_CUBE): it refuses a double from there and reads a
higher value from either record format as another number."""

LEFT_WIDTH = 27  # gnubg writes the left cell as "%3d) %-27s "
WINS_INDENT = {Side.WHITE: 6, Side.BLACK: 34}  # where gnubg puts "Wins" under each column


@dataclass(frozen=True, slots=True)
class MatRecord:
    """A session as .mat text, with how many games it holds and what was left out."""

    text: str
    games: int
    warnings: tuple[str, ...]


def mat_record(events: Iterable[ev.Event]) -> MatRecord:
    """The last session in `events` (table-log events, oldest first) as a .mat file.

    Events of kinds not used here (step, rejected, lights, state, ...) are
    ignored.  An out-of-place event is skipped with a warning.
    Raises MatError for a session event with a bad match length or player
    names gnubg cannot read back.
    """
    session, played = last_session(events)
    writer = _Writer()
    hand_over(played, writer.hear, writer.warnings)
    config = session.config if session is not None else {}
    text = _layout(_match_length(config), _names(config), writer.games)
    return MatRecord(text, len(writer.games), tuple(writer.warnings))


@dataclass(slots=True)
class _Game:
    """One game being collected: its score before it, its cells, and its end."""

    score: tuple[int, int]
    cube: int = 1
    position: Position = field(default_factory=Position.start)
    cells: list[tuple[Side, str]] = field(default_factory=list)
    offered: int = 0  # the cube value on offer, 0 when no double is pending
    beavered: bool = False  # the double on offer was beavered
    cut: bool = False  # the rest of the game cannot be written
    wins: tuple[Side, int] | None = None
    match_won: bool = False

    @property
    def plays(self) -> int:
        return sum(1 for _, text in self.cells if ":" in text)


class _Writer:
    """Collects the games of a session from its events, one handler a kind (`hear`).

    A handler raises RecordError (a ValueError) for an event out of place;
    `mat_record` turns that into a warning.
    """

    def __init__(self) -> None:
        self.games: list[_Game] = []
        self.warnings: list[str] = []
        self._score = (0, 0)

    def hear(self, event: ev.Event) -> None:
        match event:
            case ev.Opening():
                self.on_opening(event)
            case ev.Play():
                self.on_play(event)
            case ev.Double():
                self.on_double(event)
            case ev.Beaver():
                self.on_beaver(event)
            case ev.Take():
                self.on_take(event)
            case ev.Drop():
                self.on_drop(event)
            case ev.GameOver():
                self.on_game_over(event)
            case ev.MatchOver():
                self.on_match_over()

    def warn(self, text: str) -> None:
        self.warnings.append(text)

    def on_opening(self, event: ev.Opening) -> None:
        game = _Game(self._score, _count(event.cube) or 1)
        self.games.append(game)
        if game.cube != 1:
            self.warn(
                f"game {len(self.games)}: the opening ties doubled the cube to {game.cube}; "
                ".mat has no automatic doubles, so gnubg counts this game at a lower cube"
            )

    def on_play(self, event: ev.Play) -> None:
        game = self._game()
        if game.cut:
            return
        side, dice, play = read_play(game.position, event)
        if play is None:
            self._cut(game, f"{side.label}'s play {dice}: {event.move!r} does not follow from the position")
            return
        game.position = play.position
        game.cells.append((side, _format_roll(dice, play.steps)))

    def on_double(self, event: ev.Double) -> None:
        game = self._game()
        if game.cut:
            return
        side = event.player
        if game.cube * 2 > GNUBG_MAX_CUBE:
            self._cut(game, f"{side.label} doubles to {game.cube * 2}, {beyond_gnubg()}")
            return
        game.offered = game.cube * 2
        game.cells.append((side, f" Doubles => {game.offered}"))

    def on_beaver(self, event: ev.Beaver) -> None:
        game = self._pending_double()
        if game is None:
            return
        side = event.player
        if game.offered * 2 > GNUBG_MAX_CUBE:
            self._cut(game, f"{side.label} beavers to {game.offered * 2}, {beyond_gnubg()}")
            return
        game.offered *= 2
        game.beavered = True
        game.cells.append((side, f" Beavers => {game.offered}"))

    def on_take(self, event: ev.Take) -> None:
        game = self._pending_double()
        if game is None:
            return
        side = event.player
        # The doubler's take of a beaver is not written: gnubg infers it from
        # the doubler's next roll, and would report a written one as stray.
        if not game.beavered:
            game.cells.append((side, " Takes"))
        game.cube, game.offered, game.beavered = game.offered, 0, False

    def on_drop(self, event: ev.Drop) -> None:
        game = self._pending_double()
        if game is None:
            return
        if game.beavered:
            # gnubg's importer takes a "Beavers" line as a beaver it will see taken at the
            # next roll, in whichever game that is (gnubg's own export of a dropped beaver
            # loses the next game's first roll): a dropped beaver is the taker's redouble.
            side, _ = game.cells[-1]
            game.cells[-1] = (side, f" Doubles => {game.offered}")
        game.cells.append((event.player, " Drops"))
        game.offered, game.beavered = 0, False

    def on_game_over(self, event: ev.GameOver) -> None:
        score = event.score
        self._score = (_count(score["white"]), _count(score["black"]))
        game = self._game()
        game.wins = (event.winner, _count(event.points))

    def on_match_over(self) -> None:
        if not self.games or self.games[-1].wins is None:
            raise RecordError("no game has ended")
        self.games[-1].match_won = True

    def _game(self) -> _Game:
        """The game in progress."""
        if self.games and self.games[-1].wins is None:
            return self.games[-1]
        raise RecordError("no game in progress (no opening event before it)")

    def _pending_double(self) -> _Game | None:
        """The game in progress with a double on offer; None when the game was cut."""
        game = self._game()
        if game.cut:
            return None
        if not game.offered:
            raise RecordError("no double is on offer")
        return game

    def _cut(self, game: _Game, reason: str) -> None:
        game.cut = True
        self.warn(f"game {len(self.games)}, play {game.plays + 1}: {reason}; the rest of the game is left out")


def beyond_gnubg() -> str:
    """Why a cube value cannot be written: the words of the warning."""
    return f"beyond the cube of {GNUBG_MAX_CUBE} gnubg holds (gnubg scores this game differently)"


def read_play(position: Position, event: ev.Play) -> tuple[Side, Dice, Play | None]:
    """The side, the dice and the legal play a `play` event committed in `position`: the
    play leading to the event's Position ID; None when no legal play does (the log does
    not follow from the position)."""
    side, dice = event.player, Dice(*event.dice)
    plays = legal_plays(position, side, dice)
    return side, dice, next((play for play in plays if play.position_id == event.position_id), None)


def _format_roll(dice: Dice, steps: tuple[Step, ...]) -> str:
    high, low = max(dice), min(dice)
    moves = " ".join(
        f"{_point(step.source)}/{_point(step.destination)}{'*' if step.hit else ''}" for step in steps
    )
    return f"{high}{low}: {moves}".rstrip()


def _point(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def _layout(length: int, names: tuple[str, str], games: list[_Game]) -> str:
    lines = [f" {length} point match", ""]
    for number, game in enumerate(games, start=1):
        lines.append(f" Game {number}")
        left = f"{names[0]} : {game.score[0]}"
        lines.append(f" {left:<31}{' ' if len(left) >= 31 else ''}{names[1]} : {game.score[1]}")
        lines.extend(_move_lines(game.cells, _wins_cell(game)))
        lines.append("")
    return "\n".join(lines) + "\n"


def _wins_cell(game: _Game) -> tuple[Side, str] | None:
    """The game's end as a cell of the winner's column: `` Wins 2 points``."""
    if game.wins is None:
        return None
    winner, points = game.wins
    tail = " and the match" if game.match_won else ""
    return winner, f" Wins {points} point{'s' if points != 1 else ''}{tail}"


def _move_lines(cells: list[tuple[Side, str]], wins: tuple[Side, str] | None) -> list[str]:
    """Numbered lines of two cells each, white's left; a missing cell stays blank.

    The `wins` cell goes where gnubg's export puts it: beside white's last cell
    when black wins on white's drop (gnubg reads a ``Wins`` line of its own after
    a drop in the left column as another double and a resignation), else on a
    line of its own, unnumbered, under the winner's column.
    """
    rows: list[tuple[str, str | None]] = []
    for side, text in cells:
        if side is Side.WHITE:
            rows.append((text, None))
        elif rows and rows[-1][1] is None:
            rows[-1] = (rows[-1][0], text)
        else:
            rows.append(("", text))
    own_line = wins
    if wins is not None and wins[0] is Side.BLACK and rows and rows[-1][1] is None:
        rows[-1], own_line = (rows[-1][0], wins[1]), None
    lines = []
    for number, (left, right) in enumerate(rows, start=1):
        if right is None and own_line is not None and number == len(rows) and ":" not in left:
            # A resignation right after white's take: gnubg reads the Wins line after a bare
            # " Takes" as a double and a resignation, unless the empty right cell is written
            # out, as its own export writes every line.
            lines.append(f"{number:3d}) {left:<{LEFT_WIDTH}} ")
        elif right is None:
            lines.append(f"{number:3d}) {left}".rstrip())
        else:
            # Two spaces at least: gnubg splits a line without two colons at a double space.
            gap = " " if len(left) < LEFT_WIDTH else "  "
            lines.append(f"{number:3d}) {left:<{LEFT_WIDTH}}{gap}{right}")
    if own_line is not None:
        lines.append(f"{' ' * WINS_INDENT[own_line[0]]}{own_line[1].lstrip()}")
    return lines


def _match_length(session: Mapping[str, Any]) -> int:
    length = session.get("match", 0)
    if not isinstance(length, int) or isinstance(length, bool) or length < 0:
        raise MatError(f"the session's match length must be a whole number 0 or more, not {length!r}")
    return length


def player_names(config: Mapping[str, Any]) -> tuple[str, str]:
    """The players' names a session's config gives, white's and black's: a session of
    `pairs` names each pair ("Ann & Bob"), ``players`` names each side (a team match's,
    a chouette game's); each side is its colour where nothing names it.

    :raises MatError: for a ``pairs`` object that is none.
    """
    if "pairs" in config:
        try:
            pairs = Pairs.from_config(config["pairs"])
        except SettingsError as error:
            raise MatError(str(error)) from None
        return pairs.names(Side.WHITE), pairs.names(Side.BLACK)
    players = config.get("players") or {}
    named = [players.get(side.label, side.label) if isinstance(players, Mapping) else side.label for side in Side]
    return named[0], named[1]


def _names(session: Mapping[str, Any]) -> tuple[str, str]:
    names = []
    for side, name in zip(Side, player_names(session), strict=True):
        # gnubg reads a name up to the colon and ends a game at any line holding "Game ".
        if not isinstance(name, str) or not name.strip() or ":" in name or "Game " in name or not name.isprintable():
            raise MatError(f"{side.label}'s player name {name!r} cannot be written in .mat")
        names.append(name.strip())
    return names[0], names[1]


def _count(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise RecordError(f"expected a whole number 0 or more, not {value!r}")
    return value


def last_session(events: Iterable[ev.Event]) -> tuple[ev.NewSession | None, list[ev.Event]]:
    """The last `session` event of a table log (None when it has none) and the events after it."""
    events = list(events)
    starts = [i for i, event in enumerate(events) if isinstance(event, ev.NewSession)]
    if not starts:
        return None, events
    session = events[starts[-1]]
    assert isinstance(session, ev.NewSession)
    return session, events[starts[-1] + 1 :]


def hand_over(events: Iterable[ev.Event], hear: Hear, warnings: list[str]) -> None:
    """Give each event to the writer (`hear`).  An event the writer cannot use (out of
    place, or a value it cannot write) is skipped, and `warnings` gets a line naming it
    and its number in the session: the exporters write what they can of a damaged log
    rather than nothing."""
    for number, event in enumerate(events, start=1):
        try:
            hear(event)
        except (KeyError, ValueError) as error:
            reason = f"missing {error}" if isinstance(error, KeyError) else str(error)
            warnings.append(f"{event.kind} event {number} of the session skipped: {reason}")
