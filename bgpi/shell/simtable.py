"""Running a table on a board: scans in, table log and lights out.

`TableRunner` scans a board's switches (real pins, or gpiozero's mock pins behind
a `SimulatedBoard`) through the real `Scanner`, turns frames into counts with the
`Debouncer` and `CheckerCounter`, feeds the pure core (`bgpi.table.controller.Table`), rolls the
dice it asks for and shows its lights.  Time is counted in scans (200 Hz by
default): `bgpi replay` advances it as fast as the machine goes, the live service
(`bgpi.shell.live`) at the pace of the clock.  `SimulatedTable` adds the hands: it
lifts and places checkers on the simulated board.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import random
import secrets
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from bgpi.board.locations import LOCATIONS, Location, checkers_on, parse_location
from bgpi.board.profile import Profile, Switch
from bgpi.hardware.board import BoardDevices
from bgpi.hardware.debounce import Debouncer
from bgpi.hardware.dice import Tumble, tumble
from bgpi.hardware.flapping import Flapping, FlapWatch
from bgpi.hardware.frames import CheckerCounter, closed_switches
from bgpi.link.board import LinkBoard, open_any_board
from bgpi.rules.position import Position
from bgpi.shell import script
from bgpi.shell.recorder import Recorder
from bgpi.table import events as ev
from bgpi.table.controller import Table
from bgpi.table.inputs import Advised, Input, LinkChanged, Press, Remote, Rolled, RollWanted, Sensed, Tick
from bgpi.table.lights import DICE_COLOUR, Lighting, colours, lights_event, next_change
from bgpi.table.requests import AdviceRequest
from bgpi.table.tracker import Counts

if TYPE_CHECKING:
    from bgpi.hardware.mockboard import SimulatedBoard  # loaded only by a simulated board

Advise = Callable[[AdviceRequest], tuple[Mapping[str, Any] | None, str | None]]
"""Answers the table's request for advice: (answer, None) or (None, why not); see `bgpi.shell.advisor`."""

class OtherBoard(Protocol):
    """The other board of a remote game, as the runner sees it (`bgpi.remote.game.RemoteGame`)."""

    def dice(self) -> tuple[int, int] | None:
        """The dice the table asks for, or None: not yet (the two boards' exchange is under
        way; it feeds them when it completes)."""

    def handled(self, events: list[ev.Event]) -> None:
        """The events the table emitted for one input, once shown (committed ones go across)."""

    def drain(self) -> None:
        """After each scan: feed the table what came from the other board (returns at once)."""

    def awaited(self) -> bool:
        """True, once each, for each decision or dice of the other board fed (a script's ``await``)."""


QUIET_SCANS = 10
"""Scans in a row that changed nothing before `TableRunner.advance` skips board time."""

BOARD_FILE = "board.json"
"""In a state directory: the checkers on the simulated board when it stopped."""


class TableRunner:
    """A `Table` behind a board (a kind of `bgpi.link.board.board_kind`, or `board` if
    given): scan, feed the core, roll, light.

    While a co-processor's link is down, play pauses: scans read nothing, board time
    stands still, and `status` hears the link's state on every change."""

    def __init__(
        self,
        profile: Profile,
        table: Table,
        emit: ev.Emit,
        kind: str = "sim",
        seed: int | None = None,
        recorder: Recorder | None = None,
        board: BoardDevices | None = None,
        status: Callable[[str], None] = lambda line: None,
    ) -> None:
        self.profile = profile
        self.table = table
        self.advise: Advise = _no_engine  # the shell sets an advisor where there is an engine
        self.emit = emit
        self.board = board if board is not None else open_any_board(profile, kind)
        self.status = status
        self._connected = self.board.connected
        # On real LEDs; replays and the simulator need no show.
        self.animate_dice = kind == "pi" or kind.startswith("serial:")
        self.sim = self.board.sim
        self.recorder = recorder
        wiring = profile.sensors
        # A co-processor reports switches already debounced: once more would only cost a frame.
        self.debouncer = Debouncer(1 if isinstance(self.board, LinkBoard) else wiring.debounce_frames)
        self.flaps = FlapWatch.for_wiring(wiring)
        self.counter = CheckerCounter(wiring, profile.geometry)
        self.period = 1 / wiring.scan_hz
        self.frames = 0  # board time, in frames
        self.scans = 0  # frames actually scanned: `advance` skips quiet ones
        self.emitted = 0  # table-log events so far
        self._raw: int | None = None  # the last frame read, before debouncing
        self.dice: deque[tuple[int, int]] = deque()
        # Seeded dice only where a seed is asked for (replays, tests); else the OS's.
        self.randbelow = random.Random(seed).randrange if seed is not None else secrets.randbelow
        self.other: OtherBoard | None = None
        """The other board of a remote game (its dice, its decisions); None: the dice are rolled here."""
        self._stable: int | None = None
        self._counts: Counts | None = None
        self._lighting: Lighting | None = None
        self._blink: float | None = None  # board time of the next blink edge
        self._tumble: Tumble | None = None  # the dice animation under way
        self._faces: tuple[int, int] | None = None  # the tumbling faces last shown
        self.alerts: dict[Location, float] = {}
        """Locations lit "rejected" for a fault the table knows nothing of (a damaged
        journal, a faulty switch), until a board time (infinity: for good)."""
        # A frame in which nothing happens feeds the core no `Tick` and shows no lights
        # before time alone may change them (`_frames_due`): an idle frame costs the scan.
        self._tick_at = self._show_at = 0.0  # the frames from which each scan does so again
        self._owed: float | None = None  # board time of the last scan whose Tick was left out

    @property
    def now(self) -> float:
        return self.frames * self.period

    @property
    def lighting(self) -> Lighting | None:
        """The lights on show (replaced, never changed, when they change); None before the first scan."""
        return self._lighting

    def close(self) -> None:
        self.board.close()

    def replace_table(self, table: Table) -> None:
        """Run `table` (a new session) from the next scan on, fed the switches as they read then."""
        self.table = table
        self._stable = self._counts = None
        self._tick_at, self._owed = 0.0, None  # the old table's clock is not this one's

    def press(self, button: str, long: bool = False) -> None:
        """A button press; recorded after the core has seen it, so that the dice it
        rolled come first in a recording, as a script must give them."""
        self.feed(Press(button, long))
        if self.recorder is not None:
            self.recorder.button(self.now, button, long)

    def skip(self, frames: int) -> None:
        """Let `frames` scan periods pass unscanned: the live loop fell behind the clock,
        and board time follows the clock, not the scans."""
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
            quiet = quiet + 1 if self._raw == self._stable and self.emitted == emitted else 0
            if quiet >= QUIET_SCANS:
                quiet = 0
                deadline = self.table.next_deadline()
                target = end if deadline is None else min(end, math.ceil(deadline / self.period - 1e-9))
                self.frames = max(self.frames, target - 1)  # the next scan is at `target`

    @property
    def quiet_until(self) -> float | None:
        """None while something is under way: the last frame read differs from the
        debounced switches (a checker moves), or the board is a co-processor's (it keeps
        its own pace).  Else the frame by which the next scan must come, the core's next
        deadline or the next change of the lights (`_frames_due`: every frame while the
        dice tumble); the live loop may leave the scans before it out (`skip`)."""
        if self._stable is None or self._raw != self._stable or isinstance(self.board, LinkBoard):
            return None
        return min(self._tick_at, self._show_at)

    @property
    def paused(self) -> bool:
        """True while the board cannot be read (a co-processor's link is down)."""
        return not self._connected

    def scan(self) -> None:
        """One frame: read the switches and buttons, feed the core what changed, and the
        time once it may matter (a `Tick`; before that, only with the next input)."""
        raw = self.board.scanner.scan()
        if self.board.connected != self._connected:
            self._connected = self.board.connected
            if isinstance(self.board, LinkBoard):
                self.status(self.board.link.status())
        if not self._connected:
            return
        self.frames += 1
        self.scans += 1
        self._raw = raw
        stable = self.debouncer.update(raw)
        if stable != self._stable:
            self._record(stable)
            self._stable = stable
            for fault in self.flaps.update(stable, self.frames):
                self._sensor_fault(fault)
            counts = self.table.sensing.counts(self.counter.counts(self.flaps.mend(stable)))
            if counts != self._counts:
                self._counts = counts
                self.feed(Sensed(counts))
        while (pressed := self.board.buttons.next_press(timeout=0)) is not None:
            self.press(pressed.name, pressed.long)
        if self.frames >= self._tick_at:
            self.feed(Tick(self.now))
        else:
            self._owed = self.now  # the core hears of this time before its next input
            if self.frames >= self._show_at:
                self.show_lights()
        if self.other is not None:
            self.other.drain()

    def _sensor_fault(self, fault: Flapping) -> None:
        """A switch flaps: say so, light its location for good, and read it from its
        neighbours from now on, so that play goes on."""
        switch = fault.switch
        self.emitted += 1
        self.emit(ev.SensorFault(str(switch), switch.location, switch.slot, "flapping", fault.changes,
                                 round(fault.frames * self.period, 3)))
        self.alert([switch.location])

    def _record(self, stable: int) -> None:
        if self.recorder is None or self._stable is None:
            return
        wiring = self.profile.sensors
        before, after = set(closed_switches(self._stable, wiring)), set(closed_switches(stable, wiring))
        for switch in sorted(before ^ after, key=lambda s: (str(s.location), s.slot)):
            self.recorder.switch_changed(self.now, switch.location, switch.slot, switch in after)

    def feed(self, happened: Input) -> None:
        """Give the core one input; carry out what it asks (dice) and show what it says.

        Before any other input, the core is given the `Tick` of the last scan if it was
        left out, so that it sees every input at the board time it would have with a
        Tick every scan (the Ticks left out changed nothing: `_frames_due`)."""
        if self._owed is not None:
            owed, self._owed = self._owed, None
            if not isinstance(happened, Tick):
                self.feed(Tick(owed))
        self._handle(happened)
        self.settle()

    def settle(self) -> None:
        """Carry out what the table asks (the dice, the engine's advice), then show its lights.

        In a remote game the other board may answer "not yet" for the dice: the table
        goes on wanting them, and the other board feeds them (`settle` again) when the
        two boards' exchange completes."""
        while self.table.wants_roll or self.table.wants_advice:
            request = self.table.wants_advice
            if not self.table.wants_roll and request is not None:
                answer, error = self.advise(request)
                self._handle(Advised(request, answer, error))
                continue
            dice = self._roll() if self.other is None else self.other.dice()
            if dice is None:
                break
            first, second = dice
            if self.recorder is not None:
                self.recorder.dice(self.now, first, second)
            if self.animate_dice:
                # Shown frame by frame by `show_lights`, while the scans go on.
                self._tumble = Tumble(self.now, tuple(tumble((first, second))))
            self._handle(Rolled(first, second))
        self.show_lights()

    def _roll(self) -> tuple[int, int]:
        """This board's own dice: a script's next ``dice`` line, else random."""
        return self.dice.popleft() if self.dice else (self.randbelow(6) + 1, self.randbelow(6) + 1)

    def _handle(self, happened: Input) -> None:
        """One input to the core, its events emitted (and, in a remote game, sent on)."""
        events = self.table.handle(happened)
        for event in events:
            self.emitted += 1
            self.emit(event)
        if self.other is not None and events:
            self.other.handled(events)

    def alert(self, locations: Iterable[Location], seconds: float = math.inf) -> None:
        """Light `locations` "rejected" for `seconds` of board time, where the table
        lights nothing else."""
        self.alerts.update(dict.fromkeys(locations, self.now + seconds))
        self.show_lights()

    def lights_now(self) -> Lighting:
        """The core's lights, with the alerts showing where it lights nothing."""
        lighting = self.table.lighting()
        alerts = [location for location, until in self.alerts.items() if self.now < until]
        if not alerts:
            return lighting
        return dataclasses.replace(lighting, roles=dict.fromkeys(alerts, "rejected") | dict(lighting.roles))

    def show_lights(self, redraw: bool = False) -> None:
        """Show the core's lights when they change, at every blink edge, at every step
        of a dice animation (which shows over the core's dice until it ends), and when
        asked to `redraw` (after something else was shown on the LEDs)."""
        lighting = self.lights_now()
        changed = redraw or lighting != self._lighting
        tumbling = self._tumble
        faces = None if tumbling is None else tumbling.faces_at(self.now)
        if faces is None:
            self._tumble = tumbling = None
        if changed or faces != self._faces or (self._blink is not None and self.now >= self._blink):
            if changed:
                self._lighting = lighting
            lit = colours(lighting, self.profile.leds, self.now)
            if tumbling is not None and faces is not None:
                lit = tumbling.over(lit, self.profile.leds, faces, DICE_COLOUR)
            self.board.leds.show(lit)
            self._faces = faces
            self._blink = next_change(lighting, self.now)
        self._tick_at, self._show_at = self._frames_due()

    def _frames_due(self) -> tuple[float, float]:
        """The first frames (one early, against rounding) at which time alone may change
        what the core decides, at its next deadline, and what the lights show: at the
        next blink edge, at the end of an alert, every frame while the dice tumble."""
        deadline = self.table.next_deadline()
        if self._tumble is not None:
            show = 0.0
        else:
            show = min([until for until in self.alerts.values() if until > self.now], default=math.inf)
            if self._blink is not None:
                show = min(show, self._blink)
        return (math.inf if deadline is None else deadline / self.period - 1), show / self.period - 1

    def lights_event(self) -> ev.Lights:
        return lights_event(self.lights_now())


class SimulatedTable(TableRunner):
    """A table on the simulated board, with hands to move its checkers."""

    sim: SimulatedBoard  # a simulated board's hands: never None here

    def __init__(self, profile: Profile, table: Table, emit: ev.Emit, seed: int | None = None,
                 recorder: Recorder | None = None, board: BoardDevices | None = None) -> None:
        super().__init__(profile, table, emit, "sim", seed, recorder, board)
        if self.board.sim is None:
            raise TypeError("a simulated table needs a simulated board")

    # -- the checkers ----------------------------------------------------------------

    def set_position(self, position: Position) -> None:
        """Put the checkers of `position` on the board (trays included), nothing else."""
        self.sim.clear()
        for location, count in position_checkers(position).items():
            if count:
                self.sim.set_checkers(location, count)

    def lift(self, location: Location) -> None:
        self.sim.lift(location)

    def place(self, location: Location) -> None:
        self.sim.place(location)

    def set_switch(self, location: Location, index: int, closed: bool) -> None:
        self.sim.set_switch(Switch(location, index), closed)

    def press_button(self, button: str, long: bool = False) -> None:
        """A hand presses `button`: straight to the core on the simulated board; through
        the firmware, like every other hand, on the simulated Pico."""
        # Imported here: the simulated Pico runs on gpiozero's mock pins, which a real board never loads.
        from bgpi.link.simpico import PicoHands

        if isinstance(self.sim, PicoHands):
            if long:
                self.sim.hold(button)
            else:
                self.sim.press(button)
        else:
            self.press(button, long)

    def act(self, line: script.Action) -> ev.State | ev.Lights | None:
        """Carry out one board-script action at once (board time is the caller's business).

        Returns the event a `show` line asks for; None for the others.
        """
        if isinstance(line, script.Move):
            self.lift(line.source)
            self.place(line.destination)
        elif isinstance(line, script.Lift):
            self.lift(line.location)
        elif isinstance(line, script.Place):
            self.place(line.location)
        elif isinstance(line, script.Slot):
            self.set_switch(line.location, line.index, line.closed)
        elif isinstance(line, script.SetDice):
            self.dice.append((line.first, line.second))
        elif isinstance(line, (script.ShortPress, script.Hold)):
            self.press_button(line.button, long=isinstance(line, script.Hold))
        elif isinstance(line, script.Show):
            return self.lights_event() if line.what == "lights" else self.table.state_event()
        elif isinstance(line, script.FromRemote):
            self.feed(Remote(RollWanted() if line.event == "roll" else line.event))
        elif isinstance(line, script.LinkLine):
            self.feed(LinkChanged(line.link))
        elif isinstance(line, script.Seating):
            self.feed(line.input())
        return None

    # -- the state directory --------------------------------------------------------

    def save_board(self, state_dir: Path) -> None:
        """Remember the checkers on the board, as a real board would keep them: `bgpi run`
        saves them with each journaled event.  The file is replaced in one rename, so a
        kill at any moment leaves the old checkers or the new ones, never half of them."""
        checkers = {str(location): self.sim.checkers(location) for location in LOCATIONS if self.sim.checkers(location)}
        path = Path(state_dir) / BOARD_FILE
        partial = path.with_name(BOARD_FILE + ".new")
        with os.fdopen(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as file:
            file.write(json.dumps(checkers) + "\n")  # the owner's only, as the journal
        partial.replace(path)

    def restore_board(self, state_dir: Path) -> None:
        """Put back the checkers of the last run, or, without them, the table's position."""
        if not self.load_board(state_dir):
            self.set_position(self.table.position)

    def load_board(self, state_dir: Path) -> bool:
        """Put back the checkers saved by `save_board`; False if there are none."""
        path = Path(state_dir) / BOARD_FILE
        try:
            saved = json.loads(path.read_text())
            checkers = {parse_location(location): int(count) for location, count in saved.items()}
        except (OSError, ValueError, AttributeError):
            return False
        self.sim.clear()
        for location, count in checkers.items():
            self.sim.set_checkers(location, count)
        return True


def _no_engine(request: AdviceRequest) -> tuple[None, str]:
    return None, "no engine: none is configured"


def position_checkers(position: Position) -> dict[Location, int]:
    """How many checkers stand on each location of the board in `position`."""
    return {location: checkers_on(position, location) for location in LOCATIONS}
