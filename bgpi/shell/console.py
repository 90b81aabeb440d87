"""The terminal simulator's hands: lines typed at a keyboard become board-script actions.

`bgpi run` on the simulated board reads one hand per line (`parse_hand`) from a terminal
or a pipe, carries it out between scans (`console_turn`), says what the board made of it
in words (`bgpi.shell.words`; JSON with `--json`), and draws the board as its switches
read it, with its lights and a status line, once the debouncer has seen what the hand
did and again whenever the board changes by itself (`console_frame`, `Console.draw`).
"""

from __future__ import annotations

import json
import queue
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO, TypeVar

from bgpi.board.locations import TRAYS, Location, checkers_on, owner, parse_location
from bgpi.exc import HandError, ScriptError
from bgpi.rules.position import Position, Side
from bgpi.shell.hands import TableHands
from bgpi.shell.runner import TableRunner
from bgpi.shell.script import (
    Action,
    Hold,
    Lift,
    Move,
    Place,
    SetDice,
    ShortPress,
    Show,
    Wait,
    parse_script,
)
from bgpi.shell.textboard import draw
from bgpi.shell.words import ASKS, ask, roll_text, tell
from bgpi.table import events as ev
from bgpi.table.controller import Table
from bgpi.table.lights import legend, lights_event, marks

Number = TypeVar("Number", int, float)

HELP = """\
Hands on the simulated board, one per line:
  m FROM TO     move a checker (m 8 5, m bar:white 22, m 3 off:white)
  l LOC         lift a checker          u LOC     put a checker down
  p BUTTON      press a button          h BUTTON  hold a button (long press)
                buttons: wt wc bt bc hint (white.turn, white.cube, black.turn, black.cube)
  d A B         the next roll shows A and B
  w SECONDS     wait that long before the next hand
  s             show the state           q         quit
  or any board-script line, e.g. {"move": [13, 7]}
Locations: points 1..24 (white's count), bar:white, bar:black, off:white, off:black.
The buttons: turn rolls, commits a play, takes a double, passes a roll that cannot be
played; cube doubles, and drops when doubled: press it twice within 3 s (the first press
asks, turn goes back); hold cube to beaver. Hold your cube to resign (cube: single,
gammon, backgammon; turn: offer it; hold cube: back). Between games cube chooses a new
match or money play (cube: next, turn: start, hold cube: back).
The line under the board says what the board waits for and which buttons answer now
(hardware/legend.md is the card). In a chouette the chairs (points 1 to 12) say who is
who, the status line the line, every seat's cube and the totals; between games a
board-script join or leave line adds a latecomer at the end of the line or lets a player
go (docs/board-script.md). What the board may ask:
""" + "\n".join(f"  {words}" for words in ASKS.values())

BUTTONS = {"wt": "white.turn", "wc": "white.cube", "bt": "black.turn", "bc": "black.cube"}
SHORT = {name: short for short, name in BUTTONS.items()}
"""Each button as the terminal writes it: "white.turn" is "wt"."""


@dataclass(frozen=True)
class Quit:
    """The player typed q."""


def parse_hand(text: str) -> Action | Quit:
    """The action a console line asks for: a board-script line object, or Quit.

    Raises ValueError with a message for the player.
    """
    words = text.split()
    if not words:
        raise HandError("type ? for help")
    verb, args = words[0], words[1:]
    if text.lstrip().startswith("{"):
        try:
            (line,) = parse_script(text).lines
        except ScriptError as error:
            raise HandError("; ".join(error.problems)) from None
        except ValueError:
            raise HandError("one move, press or wait per line") from None
        return line
    try:
        if verb == "q":
            return Quit()
        if verb == "s":
            return Show("state")
        if verb == "m" and len(args) == 2:
            return Move(_location(args[0]), _location(args[1]))
        if verb == "l" and len(args) == 1:
            return Lift(_location(args[0]))
        if verb == "u" and len(args) == 1:
            return Place(_location(args[0]))
        if verb in ("p", "h") and len(args) == 1:
            return _press(verb, args[0])
        if verb == "d":
            return SetDice(*_numbers(args, 2, int, "d A B: two dice 1 to 6, e.g. d 3 1"))
        if verb == "w":
            (seconds,) = _numbers(args, 1, float, "w SECONDS: a number of seconds, e.g. w 2")
            return Wait(seconds)
    except ValueError as error:
        raise HandError(str(error)) from None
    raise HandError(f"{text.strip()!r}: type ? for help")


def _press(verb: str, typed: str) -> ShortPress | Hold:
    """`p wt` or `h wc`: a press or a hold of the button typed, as the help names them."""
    button = BUTTONS.get(typed, typed)
    if button not in SHORT and button != "hint":
        raise HandError(f"unknown button {typed!r}: expected wt, wc, bt, bc or hint")
    return ShortPress(button) if verb == "p" else Hold(button)


def _numbers(args: list[str], count: int, kind: Callable[[str], Number], usage: str) -> list[Number]:
    if len(args) != count:
        raise HandError(usage)
    try:
        return [kind(arg) for arg in args]
    except ValueError:
        raise HandError(usage) from None


def _location(text: str) -> Location:
    return parse_location(int(text) if text.isdigit() else text)


class Console:
    """Hands typed at a terminal, for the simulated board.

    A thread reads lines from `source` so that the scan loop never waits for the
    keyboard; `take` hands the lines over between scans.
    """

    def __init__(self, source: TextIO, out: TextIO, words: bool = True) -> None:
        self.out = out
        self.words = words
        self.redraw_at: int | None = None
        """The scan after which to draw the board: once debouncing has seen the last hand."""
        self._drawn: object = None
        """What the last drawing showed (`shown`): a board that has changed since is drawn again."""
        self._looked: object = None
        """The events emitted and the switches when `stale` last looked."""
        self._lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._read, args=(source,), daemon=True)
        self._thread.start()

    def _read(self, source: TextIO) -> None:
        for line in source:
            self._lines.put(line)
        self._lines.put(None)  # end of input: like q

    def take(self) -> list[str | None]:
        """The next line typed (None: the input ended), if any: one at a time, so that
        the board settles between hands even when lines are pasted."""
        try:
            return [self._lines.get_nowait()]
        except queue.Empty:
            return []

    def say(self, event: ev.Event) -> None:
        """Show one table-log event: in words, or as JSON (the board is drawn again after it)."""
        print(f"  {tell(event) if self.words else json.dumps(event.to_json())}", file=self.out)
        self._drawn = None

    def hear(self, event: ev.Event) -> None:
        """A sink of the runner's (`bgpi.shell.sinks`): each event, said."""
        self.say(event)

    def draw(self, table: Table) -> None:
        """The board as its switches read it, its lights, and the status line."""
        lighting = table.lighting()
        game = table.node.position if table.node is not None else table.position
        print("\n".join(draw(as_read(table), marks(lighting), game)), file=self.out)
        print(legend(), file=self.out)
        asked = ask(lights_event(lighting), SHORT)
        if asked:
            print(asked, file=self.out)
        print(f"[{status(table)}] > ", end="", file=self.out, flush=True)
        self._drawn = shown(table)

    def stale(self, table: Table, emitted: int) -> bool:
        """Whether the board has changed since it was drawn (an event said, a light
        lit a moment after the hand): then it is drawn again, without a hand typed.
        Looked at only when an event was emitted (`emitted`, the runner's count) or the
        switches changed since the last look, which costs nothing on an idle board."""
        if self.redraw_at is not None or (emitted, table.seen) == self._looked:
            return False
        self._looked = (emitted, table.seen)
        return self._drawn != shown(table)


def shown(table: Table) -> object:
    """What a drawing of the board shows that can change: the switches, the lights, the state."""
    return table.seen, table.lighting(), table.state_event()


def status(table: Table) -> str:
    """Phase, turn and dice; cube, score and match length (a chouette's line, cubes and
    totals instead of the cube and score)."""
    state = table.state_event()
    parts = [state.phase.json]
    if state.turn is not None:
        parts.append(f"{state.turn.label} on turn")
    if state.dice:
        parts.append(f"dice {roll_text(state.dice)}")
    if state.chouette is not None:
        return ", ".join(parts + chouette_status(state.chouette))
    if table.game is not None:
        cube = table.game.cube
        parts.append(f"cube {cube.value}" + ("" if cube.owner is None else f" ({cube.owner.label}'s)"))
    score = state.score
    parts.append(f"score white {score['white']}, black {score['black']}")
    length = table.settings.match_length
    parts.append(f"match to {length}" if length else "money play")
    return ", ".join(parts)


def chouette_status(chouette: dict[str, Any]) -> list[str]:
    """A chouette's part of the status line, from the ``state`` event's ``chouette``: the
    box and the captain, each seat's cube, each player's total.

    >>> chouette_status({"line": ["Ann", "Bob", "Cat"], "box": "Ann", "captain": "Bob", "totals": {"Ann": 2,
    ...                  "Bob": -2, "Cat": 0}, "seats": {"Bob": {"cube": 2, "owner": "box", "out": False},
    ...                  "Cat": {"cube": 1, "owner": None, "out": True}}})
    ['box Ann, captain Bob', "cubes Bob 2 (the box's), Cat out", 'totals Ann +2, Bob -2, Cat 0']
    """
    if not chouette.get("line"):
        return ["the roll-off"]
    parts = [f"box {chouette['box']}, captain {chouette['captain']}"]
    seats = chouette.get("seats")
    if seats:
        owners = {"box": " (the box's)", "seat": " (own)", None: ""}
        parts.append("cubes " + ", ".join(f"{player} out" if seat["out"] else
                                          f"{player} {seat['cube']}{owners[seat['owner']]}"
                                          for player, seat in seats.items()))
    parts.append("totals " + ", ".join(f"{player} {points:+d}" if points else f"{player} 0"
                                       for player, points in chouette["totals"].items()))
    return parts


def as_read(table: Table) -> Position:
    """The position the switches read: the game's position (with the play in progress),
    less lifted checkers and with checkers put down where the game has none.  Counts
    above a row of switches cannot be read and are the game's."""
    believed = table.node.position if table.node is not None else table.position
    if table.seen is None:
        return believed
    white, black = list(believed.white), list(believed.black)
    sensing = table.sensing
    readings = list(zip(sensing.locations, table.seen, sensing.limits, strict=True))
    # A checker put down where the game has none is most likely one lifted from elsewhere:
    # of the colour that is short on the board, if only one colour is.
    short = {believed.at(location)[0] for location, seen, limit in readings
             if isinstance(location, int) and seen < min(checkers_on(believed, location), limit)}
    only = short.pop() if len(short) == 1 else None
    put_down_as = only if only is not None else Side.WHITE if table.turn is None else table.turn
    for location, seen, limit in readings:
        have = checkers_on(believed, location)
        if min(have, limit) == seen:
            continue
        if location in TRAYS:
            continue  # borne-off checkers are the ones missing from 15
        if isinstance(location, str):  # a bar half holds one colour
            side = owner(location)
            (white if side is Side.WHITE else black)[24] = seen
            continue
        holder = believed.at(location)[0]
        side = holder if holder is not None else put_down_as  # None: put down where the game has none
        other = black if side is Side.WHITE else white
        other[location - 1 if side is Side.BLACK else 24 - location] = 0
        own = white if side is Side.WHITE else black
        own[location - 1 if side is Side.WHITE else 24 - location] = seen
    return Position(tuple(white), tuple(black))


def console_turn(runner: TableRunner, console: Console) -> bool:
    """Carry out the next line typed, once the board has settled; False once the player quits."""
    if console.redraw_at is not None:
        return True
    for text in console.take():
        if text is None:
            return False
        if text.strip() in ("?", "help"):
            print(HELP, file=console.out)
            console.redraw_at = runner.frames  # and the board, with what it asks now
            return True
        settle = 2 * runner.profile.sensors.debounce_frames
        try:
            hand = parse_hand(text)
            if isinstance(hand, Quit):
                return False
            if isinstance(hand, Wait):
                settle += round(hand.seconds / runner.period)
            perform(runner, hand, console)
        except ValueError as error:
            print(f"  {error}", file=console.out)
        # Debouncing takes a few scans: draw once the core has seen what the hand did.
        console.redraw_at = runner.frames + settle
    return True


def console_frame(runner: TableRunner, console: Console) -> bool:
    """The terminal's part of a live frame: the next hand typed, then the board drawn
    once debouncing has seen it (the core has answered it), or again once it changed
    by itself; False once the player quits."""
    if not console_turn(runner, console):
        return False
    if console.redraw_at is not None and runner.frames >= console.redraw_at and runner.switches.settled:
        console.redraw_at = None
        console.draw(runner.table)
    elif console.stale(runner.table, runner.emitted):
        console.redraw_at = runner.frames + 2 * runner.profile.sensors.debounce_frames
    return True


def perform(runner: TableRunner, hand: Action, console: Console) -> None:
    """Do one hand at the live board (time passes by the clock, not here: a wait only
    holds the next hand back)."""
    if isinstance(hand, Wait):
        return
    if runner.board.hands is None:
        if not isinstance(hand, (ShortPress, Hold)):
            raise HandError("on a real board, hands move the checkers and roll the dice")  # noqa: TRY004
        runner.press(hand.button, long=isinstance(hand, Hold))
        return
    shown = TableHands(runner).act(hand)
    if shown is not None:
        console.say(shown)


def stdin_is_terminal() -> bool:
    return sys.stdin is not None and sys.stdin.isatty()
