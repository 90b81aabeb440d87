"""The terminal simulator's hands: lines typed at a keyboard become board-script actions.

`bgpi run` on the simulated board at a terminal reads one hand per line (`parse_hand`),
carries it out between scans (`console_turn`), and draws the board with its lights once
the debouncer has seen what the hand did (`Console.draw`).
"""

from __future__ import annotations

import json
import queue
import sys
import threading
from dataclasses import dataclass
from typing import TextIO

from bgpi.hardware.locations import parse_location
from bgpi.shell.script import (
    Hold,
    Lift,
    Move,
    Place,
    Press,
    ScriptError,
    SetDice,
    Show,
    Wait,
    parse_script,
)
from bgpi.shell.simtable import SimulatedTable, TableRunner
from bgpi.shell.textboard import draw
from bgpi.table.lights import legend, marks

HELP = """\
Hands on the simulated board, one per line:
  m FROM TO     move a checker (m 8 5, m bar:white 22, m 3 off:white)
  l LOC         lift a checker          u LOC     put a checker down
  p BUTTON      press a button          h BUTTON  hold a button (long press)
                buttons: wt wc bt bc hint (white.turn, white.cube, black.turn, black.cube)
  d A B         the next roll shows A and B
  w SECONDS     wait
  s             show the state           q         quit
  or any board-script line, e.g. {"move": [13, 7]}
Locations: points 1..24 (white's count), bar:white, bar:black, off:white, off:black."""

BUTTONS = {"wt": "white.turn", "wc": "white.cube", "bt": "black.turn", "bc": "black.cube"}


@dataclass(frozen=True)
class Quit:
    """The player typed q."""


def parse_hand(text: str):
    """The action a console line asks for: a board-script line object, or Quit.

    Raises ValueError with a message for the player.
    """
    words = text.split()
    if not words:
        raise ValueError("type ? for help")
    verb, args = words[0], words[1:]
    if text.lstrip().startswith("{"):
        try:
            (line,) = parse_script(text).lines
        except ScriptError as error:
            raise ValueError("; ".join(error.problems)) from None
        except ValueError:
            raise ValueError("one move, press or wait per line") from None
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
            button = BUTTONS.get(args[0], args[0])
            return Press(button) if verb == "p" else Hold(button)
        if verb == "d" and len(args) == 2:
            return SetDice(int(args[0]), int(args[1]))
        if verb == "w" and len(args) == 1:
            return Wait(float(args[0]))
    except ValueError as error:
        raise ValueError(str(error)) from None
    raise ValueError(f"{text.strip()!r}: type ? for help")


def _location(text: str):
    return parse_location(int(text) if text.isdigit() else text)


class Console:
    """Hands typed at a terminal, for the simulated board.

    A thread reads lines from `source` so that the scan loop never waits for the
    keyboard; `take` hands the lines over between scans.
    """

    def __init__(self, source: TextIO, out: TextIO) -> None:
        self.out = out
        self.redraw_at: int | None = None
        """The scan after which to draw the board: once debouncing has seen the last hand."""
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

    def draw(self, table) -> None:
        lighting = table.lighting()
        shown = table.node.position if table.node is not None else table.position
        print("\n".join(draw(shown, marks(lighting))), file=self.out)
        print(legend(), file=self.out)
        state = table.state_event()
        dice = f", dice {state['dice'][0]}{state['dice'][1]}" if state["dice"] else ""
        print(f"[{state['phase']}{', ' + state['turn'] + ' on turn' if state['turn'] else ''}{dice}] > ",
              end="", file=self.out, flush=True)


def console_turn(runner: TableRunner, console: Console) -> bool:
    """Carry out the next line typed, once the board has settled; False once the player quits."""
    if console.redraw_at is not None:
        return True
    for text in console.take():
        if text is None:
            return False
        if text.strip() in ("?", "help"):
            print(HELP, file=console.out)
            continue
        try:
            hand = parse_hand(text)
            if isinstance(hand, Quit):
                return False
            perform(runner, hand, console.out)
        except ValueError as error:
            print(f"  {error}", file=console.out)
        # Debouncing takes a few scans: draw once the core has seen what the hand did.
        console.redraw_at = runner.frames + 2 * runner.profile.sensors.debounce_frames
    return True


def perform(runner: TableRunner, hand, out: TextIO) -> None:
    """Do one hand at the live board (time passes by the clock, not here)."""
    if isinstance(hand, Wait):
        return  # the clock runs on its own
    if not isinstance(runner, SimulatedTable):
        if not isinstance(hand, (Press, Hold)):
            raise ValueError("on a real board, hands move the checkers and roll the dice")  # noqa: TRY004
        runner.press(hand.button, long=isinstance(hand, Hold))
        return
    shown = runner.act(hand)
    if shown is not None:
        print(json.dumps(shown), file=out)


def stdin_is_terminal() -> bool:
    return sys.stdin is not None and sys.stdin.isatty()
