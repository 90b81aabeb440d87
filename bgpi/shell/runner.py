"""Running a table on a board: scans in, table log and lights out.

`TableRunner` runs the pure core (`bgpi.table.controller.Table`) on a `Board`
(`bgpi.hardware.board`: the Pi's pins, a co-processor, the simulated board; it never
asks which).  Its four jobs each have a part of their own:

- scan (`bgpi.shell.scanning.Switches`): each frame read, debounced, watched for
  flapping switches and counted into the `Sensed` the core is fed; the buttons' presses;
- feed (here): one input at a time to the core, the `Tick` it is owed first; each event
  to the journal's gate and then to the sinks (`bgpi.shell.sinks`: the page, the
  console, ...), then to the opponents (`bgpi.shell.opponents`), whose answers it takes
  between inputs;
- roll (`bgpi.shell.rolling`): the dice the table wants, from the board's `LocalDice` or
  from an opponent that makes them, tumbling on a real board's LEDs;
- light (`bgpi.shell.lighting.BoardLights`): the core's lights with the runner's alerts,
  written when they change.

Time is counted in frames (200 Hz by default): `bgpi replay` advances it as fast as the
machine goes (`advance`), the live loop (`bgpi.shell.live`) at the pace of the clock
(`scan`, `skip`).  A frame in which nothing happens feeds the core no `Tick` and shows no
lights before time alone may change them (`_frames_due`): an idle frame costs the scan.

While a co-processor's link is down, play pauses: scans read nothing, board time stands
still, and `status` hears the board's line on every change.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

from bgpi.board.locations import Location
from bgpi.hardware.board import Board
from bgpi.hardware.flapping import Flapping
from bgpi.shell.lighting import BoardLights
from bgpi.shell.opponents import Computer, Opponent
from bgpi.shell.recorder import Recorder
from bgpi.shell.rolling import DiceSource, LocalDice
from bgpi.shell.scanning import Change, Switches, changed_switches
from bgpi.shell.sinks import Gate, Sink
from bgpi.table import events as ev
from bgpi.table.controller import Table
from bgpi.table.inputs import Input, Press, Rolled, Sensed, Tick
from bgpi.table.lights import Lighting, lights_event

QUIET_SCANS = 10
"""Scans in a row that changed nothing before `TableRunner.advance` skips board time."""


def _say_nothing(line: str) -> None:
    pass


class TableRunner:
    """A `Table` behind a `Board`: scan, feed the core, roll, light; see the module docstring.

    `sinks` hear every event after `gate` (the journal) kept it; `computer` answers the
    table's requests for advice (without one, "no engine"); `seed` seeds the board's own
    dice (None: the OS's); `recorder` writes the switches and buttons as a board script.
    """

    def __init__(self, table: Table, board: Board, *, seed: int | None = None, gate: Gate | None = None,
                 sinks: Iterable[Sink] = (), computer: Computer | None = None, recorder: Recorder | None = None,
                 status: Callable[[str], None] = _say_nothing) -> None:
        self.table = table
        self.board = board
        self.profile = board.profile
        self.period = 1 / board.profile.sensors.scan_hz
        self.frames = 0
        """Board time, in frames."""
        self.scans = 0
        """Frames actually scanned: `advance` and the idle live loop skip quiet ones."""
        self.emitted = 0
        """Table-log events so far."""
        self.switches = Switches(board)
        self.dice = LocalDice(seed)
        """The board's own dice (a script's ``dice`` lines go here)."""
        self.lights = BoardLights(board.leds, board.profile.leds)
        self.gate = gate
        self.sinks: list[Sink] = list(sinks)
        self.computer = computer if computer is not None else Computer()
        """The engine at the table (`Computer.advise`: the session's advisor, or none)."""
        self.opponents: list[Opponent] = [self.computer]
        """Who gives the table decisions and dice from outside the board, asked in this order."""
        self.recorder = recorder
        self.status = status
        self._roller: DiceSource = self.dice
        self._connected = board.connected
        self._tick_at = self._show_at = 0.0  # the frames from which a scan feeds a Tick, shows the lights
        self._owed: float | None = None  # board time of the last scan whose Tick was left out

    @property
    def now(self) -> float:
        return self.frames * self.period

    @property
    def lighting(self) -> Lighting | None:
        """The lights on show (replaced, never changed, when they change); None before the first scan."""
        return self.lights.shown

    def close(self) -> None:
        self.board.close()

    def replace_table(self, table: Table) -> None:
        """Run `table` (a new session) from the next scan on, fed the switches as they read then."""
        self.table = table
        self.switches.forget()
        self._tick_at, self._owed = 0.0, None  # the old table's clock is not this one's

    def join(self, opponent: Opponent, dice: DiceSource | None = None) -> None:
        """Take `opponent`'s decisions from now on (and its `dice`, if it makes them), and
        what it has for the table already."""
        self.opponents.append(opponent)
        if dice is not None:
            self._roller = dice
        self.settle()

    # -- time ---------------------------------------------------------------------------

    def skip(self, frames: int) -> None:
        """Let `frames` scan periods pass unscanned: the live loop fell behind the clock,
        or the board is idle, and board time follows the clock, not the scans."""
        self.frames += frames

    def advance(self, seconds: float) -> None:
        """Let `seconds` of board time pass, scanning the switches all the while.

        Board time in which nothing can change is skipped: once the switches have
        settled and `QUIET_SCANS` scans in a row changed nothing, time jumps to the
        core's next deadline (`Table.next_deadline`) or to the end of the wait.  The
        table log is the same as if every frame had been scanned; an hour of waiting
        costs a few scans.
        """
        end = self.frames + max(1, round(seconds / self.period))
        quiet = 0
        while self.frames < end:
            emitted = self.emitted
            self.scan()
            quiet = quiet + 1 if self.switches.settled and self.emitted == emitted else 0
            if quiet >= QUIET_SCANS:
                quiet = 0
                deadline = self.table.next_deadline()
                target = end if deadline is None else min(end, math.ceil(deadline / self.period - 1e-9))
                self.frames = max(self.frames, target - 1)  # the next scan is at `target`

    @property
    def quiet_until(self) -> float | None:
        """None while something is under way: the last frame read differs from the
        debounced switches (a checker moves), or the board keeps its own pace (a
        co-processor's).  Else the frame by which the next scan must come, the core's next
        deadline or the next change of the lights (`_frames_due`: every frame while the
        dice tumble); the live loop may leave the scans before it out (`skip`)."""
        if not self.switches.settled or self.board.own_pace:
            return None
        return min(self._tick_at, self._show_at)

    @property
    def paused(self) -> bool:
        """True while the board cannot be read (a co-processor's link is down)."""
        return not self._connected

    # -- scan -----------------------------------------------------------------------------

    def scan(self) -> None:
        """One frame: read the switches and buttons, feed the core what changed, and the
        time once it may matter (a `Tick`; before that, only with the next input), then
        what the opponents have for it."""
        board = self.board
        raw = board.scanner.scan()
        if board.connected != self._connected:
            self._connected = board.connected
            self.status(board.status())
        if not self._connected:
            return
        self.frames += 1
        self.scans += 1
        change = self.switches.read(raw, self.frames)
        if change is not None:
            self._switches_changed(change)
        self.take_presses()
        if self.frames >= self._tick_at:
            self.feed(Tick(self.now))
        else:
            self._owed = self.now  # the core hears of this time before its next input
            if self.frames >= self._show_at:
                self.show_lights()
        happened = self._take()
        if happened is not None:
            self._catch_up(happened)
            self._give(happened)
            self.settle()

    def _switches_changed(self, change: Change) -> None:
        """Record the change, name the switches found flapping, feed the core new counts."""
        if self.recorder is not None and change.before is not None:
            for switch, closed in changed_switches(change.before, change.after, self.switches.wiring):
                self.recorder.switch_changed(self.now, switch.location, switch.slot, closed)
        for fault in change.faults:
            self._sensor_fault(fault)
        counts = self.switches.counted(self.table.sensing)
        if counts is not None:
            self.feed(Sensed(counts))

    def _sensor_fault(self, fault: Flapping) -> None:
        """A switch flaps: say so, light its location for good, and read it from its
        neighbours from now on (`Switches`), so that play goes on."""
        switch = fault.switch
        self.tell(ev.SensorFault(str(switch), switch.location, switch.slot, "flapping", fault.changes,
                                 round(fault.frames * self.period, 3)))
        self.alert([switch.location])

    def take_presses(self) -> None:
        """Feed the core the presses the board's buttons reported since the last look."""
        while (pressed := self.board.buttons.next_press(timeout=0)) is not None:
            self.press(pressed.name, pressed.long)

    def press(self, button: str, long: bool = False) -> None:
        """A button press; recorded after the core has seen it, so that the dice it
        rolled come first in a recording, as a script must give them."""
        self.feed(Press(button, long))
        if self.recorder is not None:
            self.recorder.button(self.now, button, long)

    # -- feed -----------------------------------------------------------------------------

    def feed(self, happened: Input) -> None:
        """Give the core one input; carry out what it asks (dice, advice) and show its lights.

        Before any other input, the core is given the `Tick` of the last scan if it was
        left out, so that it sees every input at the board time it would have with a
        Tick every scan (the Ticks left out changed nothing: `_frames_due`)."""
        self._catch_up(happened)
        self._handle(happened)
        self.settle()

    def _catch_up(self, happened: Input) -> None:
        """The owed `Tick` first, unless `happened` is one.  It changes nothing (it was left
        out because it could not: `_frames_due`), so nothing is settled after it: an input
        taken from an opponent is given before anything else is asked."""
        if self._owed is not None:
            owed, self._owed = self._owed, None
            if not isinstance(happened, Tick):
                self._handle(Tick(owed))

    def settle(self) -> None:
        """Carry out what the table asks: roll the dice it wants, and take, one at a time,
        what the opponents have for it (the engine's advice, the other board's word);
        then show its lights.

        The dice may come from an opponent that answers "not yet": the table goes on
        wanting them, and the opponent hands them over later (`take`)."""
        while True:
            if self.table.wants_roll is not None and (dice := self._roller.roll()) is not None:
                self._roll(*dice)
                continue
            happened = self._take()
            if happened is None:
                break
            self._give(happened)
        self.show_lights()

    def _take(self) -> Input | None:
        """The next input an opponent has for the table, the first opponent's first."""
        for opponent in self.opponents:
            happened = opponent.take(self.table)
            if happened is not None:
                return happened
        return None

    def _give(self, happened: Input) -> None:
        """An opponent's input to the core: its dice rolled as the board's own are."""
        if isinstance(happened, Rolled):
            self._roll(happened.first, happened.second)
        else:
            self._handle(happened)

    def _handle(self, happened: Input) -> None:
        """One input to the core: each event it caused to the gate and the sinks, then
        those kept to the opponents."""
        events = self.table.handle(happened)
        if not events:
            return
        kept = [event for event in events if self.tell(event)]
        if kept:
            for opponent in self.opponents:
                opponent.hear(kept, self.table)

    def tell(self, event: ev.Event) -> bool:
        """One event to the gate (the journal), then, once kept, to every sink in order;
        False if the gate could not keep it (the board is stopping: nothing shows it).
        The runner's own events and a session's opening come this way too."""
        self.emitted += 1
        if self.gate is not None and not self.gate.keep(event):
            return False
        for sink in self.sinks:
            sink.hear(event)
        return True

    # -- roll -------------------------------------------------------------------------------

    def _roll(self, first: int, second: int) -> None:
        """The dice the table wanted: recorded, tumbling on LEDs that are watched, fed."""
        if self.recorder is not None:
            self.recorder.dice(self.now, first, second)
        if self.board.animates_dice:
            self.lights.tumble(self.now, (first, second))
        self._handle(Rolled(first, second))

    # -- light --------------------------------------------------------------------------------

    def alert(self, locations: Iterable[Location], seconds: float = math.inf) -> None:
        """Light `locations` "rejected" for `seconds` of board time, where the table
        lights nothing else."""
        self.lights.alert(locations, self.now + seconds)
        self.show_lights()

    def show_lights(self, redraw: bool = False) -> None:
        """Show the core's lights where they changed (`BoardLights.show`), and note when
        time alone next changes anything (`_frames_due`)."""
        self.lights.show(self.table.lighting(), self.now, redraw)
        self._tick_at, self._show_at = self._frames_due()

    def _frames_due(self) -> tuple[float, float]:
        """The first frames (one early, against rounding) at which time alone may change
        what the core decides, at its next deadline, and what the lights show: at the
        next blink edge, at the end of an alert, every frame while the dice tumble."""
        deadline = self.table.next_deadline()
        tick = math.inf if deadline is None else deadline / self.period - 1
        return tick, self.lights.next_change(self.now) / self.period - 1

    def lights_event(self) -> ev.Lights:
        """The ``lights`` event of the lights on show now (a script's ``show`` line)."""
        return lights_event(self.lights.with_alerts(self.table.lighting(), self.now))

