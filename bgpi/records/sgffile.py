"""Games as SGF (Smart Game Format, backgammon is game 6), as GNU Backgammon writes them.

`sgf_record` turns a session's table log (docs/board-script.md) into the text gnubg
reads with ``load match FILE``.  Unlike .mat, SGF can start a game from any position,
so a practice session (a `session` event with a ``position_id``) is written whole: each
game gets the setup properties gnubg's own ``save game`` writes::

    (;FF[4]GM[6]CA[UTF-8]AP[bgpi]MI[length:7][game:0][ws:3][bs:5]PW[white]PB[black]RU[Crawford]
    ;PL[W]AE[a:y]AW[d][d]...AB[s][s]...
    ;CV[2]
    ;CP[w]
    ;W[42dzdb]
    ;B[65aggl])

- One game tree per game; ``MI`` gives the match length (0: money play), the game's
  number from 0 and the score before it (``ws`` white's, ``bs`` black's).  White is
  gnubg's player 0, ``W``; ``PW`` and ``PB`` are the players' names, as in .mat
  (`bgpi.records.matfile.player_names`: their colours where the session names nobody).
- ``RE``: the result of a finished game, ``W+2`` (gnubg counts a game as played only
  with it); ``W+2R`` when black resigned and white accepted, as gnubg writes it (a
  resignation has no node of its own: a declined one is not recorded).
- ``RU``: ``Crawford`` in a match (``Crawford:CrawfordGame`` in the Crawford game),
  ``Jacoby`` in money play with the Jacoby rule.
- Points are letters: ``a`` … ``x`` are white's points 1 … 24 (the board's absolute
  numbering), ``y`` the bar and ``z`` off, for both colours.  ``AE[a:y]`` clears the
  board, ``AW``/``AB`` put one checker each, ``PL`` is the player on roll, ``CV`` and
  ``CP`` the cube's value and owner.
- A roll and its play: ``W[42dzdb]``, the two dice, then a from/to pair of letters per
  step (``W[52]`` when nothing could be played).  Cube actions: ``W[double]``,
  ``B[take]``, ``B[drop]``; a beaver is the taker's double, then the doubler's take
  (``W[double]`` ``B[double]`` ``W[take]``), as gnubg writes it.
- Automatic doubles: the opening's cube is a ``CV`` node before the first roll.
- gnubg holds a cube up to 4096: a game whose cube goes beyond is written up to the
  double, with a warning.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from bgpi.exc import RecordError, RulesError, SgfError
from bgpi.records.matfile import GNUBG_MAX_CUBE, beyond_gnubg, hand_over, last_session, player_names, read_play
from bgpi.rules.cube import Cube
from bgpi.rules.position import BAR, OFF, Position, Side, absolute_point
from bgpi.rules.session import Score
from bgpi.table import events as ev
from bgpi.table.state import Setup

_PLAYER = {Side.WHITE: "W", Side.BLACK: "B"}


@dataclass(frozen=True, slots=True)
class SgfRecord:
    """A session as SGF text, with how many games it holds and what was left out."""

    text: str
    games: int
    warnings: tuple[str, ...]


@dataclass(slots=True)
class _Game:
    number: int
    score: Score
    crawford: bool
    position: Position
    on_roll: Side | None  # set up when the game starts from a position; None from the start
    cube: Cube = field(default_factory=Cube)
    nodes: list[str] = field(default_factory=list)
    cut: bool = False
    result: str = ""  # RE: the winner and the points, "W+2", once the game is over


def sgf_record(events: Iterable[ev.Event]) -> SgfRecord:
    """The last session in `events` (table-log events, oldest first) as SGF.

    A game is written from its `start` event; events of other kinds are ignored, and an
    out-of-place one is skipped with a warning, as is the rest of a game whose play does
    not follow from its position (a play accepted in lenient mode).  Raises SgfError for a
    session event the table would refuse (settings the rules refuse, a bad practice ID).
    """
    session_event, played = last_session(events)
    writer = _Writer(session_event or ev.NewSession())
    hand_over(played, writer.hear, writer.warnings)
    text = "".join(writer.tree(game) for game in writer.games)
    return SgfRecord(text, len(writer.games), tuple(writer.warnings))


class _Writer:
    def __init__(self, session: ev.NewSession) -> None:
        try:  # read as the table reads it
            setup = Setup.of(session)
        except RulesError as error:
            raise SgfError(f"the session cannot be written: {error}") from None
        turn, key = setup.practice_turn, setup.practice_key
        self.practice = (setup.start_position, turn) if turn is not None else None
        self.session = setup.session
        self.first_cube = Cube(key.cube_value, key.cube_owner) if key is not None else Cube()
        self.names = tuple(_text(name) for name in player_names(session.config))
        self.games: list[_Game] = []
        self.warnings: list[str] = []

    def hear(self, event: ev.Event) -> None:
        match event:
            case ev.Start():
                self.on_start()
            case ev.Play():
                self.on_play(event)
            case ev.Double():
                self._cube_action(event, "double", event.cube)
            case ev.Take():
                self._cube_action(event, "take")
            case ev.Drop():
                self._cube_action(event, "drop")
            case ev.Beaver():
                # gnubg's own encoding: the beaver is the taker's double, and the doubler's
                # take (the table's next event) gives the cube to the beaverer.
                self._cube_action(event, "double", event.cube)
            case ev.GameOver():
                self.on_game_over(event)
            case ev.Opening():
                self.on_opening(event)

    def on_start(self) -> None:
        practice = self.practice if not self.games else None  # later games: the standard start
        position, on_roll = practice or (Position.start(), None)
        game = _Game(len(self.games), self.session.score, self.session.crawford, position, on_roll)
        if practice is not None:
            game.cube = self.first_cube
        self.games.append(game)

    def on_play(self, event: ev.Play) -> None:
        game = self._game()
        if game.cut:
            return
        side, dice, play = read_play(game.position, event)
        if play is None:
            self._cut(f"{side.label}'s play {dice} {event.move!r} does not follow from the position")
            return
        steps = "".join(_letter(side, step.source) + _letter(side, step.destination) for step in play.steps)
        first, second = event.dice
        game.nodes.append(f"{_PLAYER[side]}[{first}{second}{steps}]")
        game.position = play.position

    def on_opening(self, event: ev.Opening) -> None:
        value = event.cube
        if value > GNUBG_MAX_CUBE:
            self._cut(f"the opening ties doubled the cube to {value}, {beyond_gnubg()}")
        elif value != 1:  # automatic doubles: the game starts at this cube, centred
            self._game().cube = Cube(value)

    def on_game_over(self, event: ev.GameOver) -> None:
        self._game()
        result = event.game_result()
        self.session = self.session.record(result)
        game = self.games[-1]
        game.result = f"{_PLAYER[result.winner]}+{event.points}{'R' if result.resigned else ''}"
        game.cut = True  # over: nothing more belongs to it

    def _cube_action(self, event: ev.Double | ev.Take | ev.Drop | ev.Beaver, action: str, value: int = 0) -> None:
        """A cube action; `value`, the cube a double or beaver offers, cuts the game
        when gnubg cannot hold it."""
        game = self._game()
        if game.cut:
            return
        side = event.player
        if value > GNUBG_MAX_CUBE:
            self._cut(f"{side.label} doubles to {value}, {beyond_gnubg()}")
            return
        game.nodes.append(f"{_PLAYER[side]}[{action}]")

    def _cut(self, reason: str) -> None:
        game = self._game()
        game.cut = True
        self.warnings.append(f"game {game.number + 1}: {reason}; the rest of the game is left out")

    def _game(self) -> _Game:
        if not self.games:
            raise RecordError("no game has started (no start event before it)")
        return self.games[-1]

    def tree(self, game: _Game) -> str:
        """One game as an SGF game tree."""
        settings = self.session.settings
        length = settings.match_length
        if length:
            rules = "Crawford:CrawfordGame" if game.crawford else "Crawford"
        else:
            rules = "Jacoby" if settings.jacoby else ""
        root = (f"(;FF[4]GM[6]CA[UTF-8]AP[bgpi]MI[length:{length}][game:{game.number}]"
                f"[ws:{game.score.white}][bs:{game.score.black}]PW[{self.names[0]}]PB[{self.names[1]}]"
                + (f"RU[{rules}]" if rules else "") + (f"RE[{game.result}]" if game.result else ""))
        nodes = [root]
        if game.on_roll is not None and self.practice is not None:
            nodes.append(_setup(*self.practice))
        if game.cube.value != 1:
            nodes.append(f"CV[{game.cube.value}]")
        if game.cube.owner is not None:
            nodes.append(f"CP[{_PLAYER[game.cube.owner].lower()}]")
        nodes.extend(game.nodes)
        return "\n;".join(nodes) + ")\n"


BACKSLASH = chr(92)


def _text(value: object) -> str:
    """A property's text as SGF escapes it: a backslash or a closing bracket in a name."""
    return str(value).replace(BACKSLASH, BACKSLASH * 2).replace("]", BACKSLASH + "]")


def _setup(position: Position, on_roll: Side) -> str:
    """The setup node: the board cleared, then every checker, and the player on roll."""
    node = f"PL[{_PLAYER[on_roll]}]AE[a:y]"
    for side in Side:
        own = position.checkers(side)  # index i: point i + 1; index 24: the bar
        stones = "".join(f"[{_letter(side, BAR if i == 24 else i + 1)}]" * count
                         for i, count in enumerate(own))
        if stones:
            node += f"A{_PLAYER[side]}{stones}"
    return node


def _letter(side: Side, point: int) -> str:
    """The letter of `side`'s own point (BAR, OFF or 1..24): white's count from 'a'."""
    if point == BAR:
        return "y"
    if point == OFF:
        return "z"
    return chr(ord("a") + absolute_point(side, point) - 1)
