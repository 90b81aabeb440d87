"""A board that exists only in memory, wired to gpiozero's mock pins.

`SimulatedBoard` is the simulated board's hands (`bgpi.hardware.board.Hands`): it keeps
which reed switches are closed and gives the multiplexers' signal
pins (`MuxSignalPin`) the level the real circuit would: a signal pin reads low while the
switch on the channel its select pins (`SelectPin`) choose is closed.  The scanner, the
buttons and the LEDs then run exactly the code they run on a Pi.  The pins count the
scanner's pin operations, so benchmarks measure what the code does, not what it claims.
"""

from __future__ import annotations

from gpiozero.pins.mock import MockFactory, MockPin

from bgpi.board.locations import Location, describe
from bgpi.board.profile import CHANNELS, Profile, Switch
from bgpi.exc import HandsError
from bgpi.hardware.buttons import ButtonPress


# gpiozero ships no types: to mypy its MockPin is Any, which strict mode refuses as a base.
class SelectPin(MockPin):  # type: ignore[misc]
    """A select line: a plain mock output that counts the writes made to it, and keeps
    the board's `channel` (the one the select lines choose) up to date."""

    _state: bool  # MockPin's level

    def __init__(self, factory: MockFactory, info: object, board: SimulatedBoard, weight: int) -> None:
        super().__init__(factory, info)
        self.board = board
        self.weight = weight

    def _set_state(self, value: bool) -> None:
        self.board.pin_writes += 1
        super()._set_state(value)

    def _change_state(self, value: bool) -> bool:
        # MockPin keeps every state a pin was ever in; a select line changes 3,200 times
        # a second at 200 Hz, so a long simulated session would grow without bound.
        changed = self._state != value
        self._state = value
        # Worked out once per select change, not at each of the signal lines' reads.
        self.board.channel = self.board.channel & ~self.weight | (self.weight if value else 0)
        return changed


class MuxSignalPin(MockPin):  # type: ignore[misc]  # as SelectPin
    """A multiplexer's common line: its level follows the select pins and the switches.

    High (pulled up) unless the switch on the selected channel is closed.  Reads are
    counted.
    """

    def __init__(self, factory: MockFactory, info: object, board: SimulatedBoard,
                 mux: int) -> None:
        super().__init__(factory, info)
        self.board = board
        self.offset = mux * CHANNELS

    def _get_state(self) -> bool:
        board = self.board
        board.pin_reads += 1
        return not board.closed >> (self.offset + board.channel) & 1


class SimulatedBoard:
    """The reed switches and buttons of a simulated board, behind `factory`'s mock pins.

    Checkers fill a location's switches from the outer edge (slot 0); more checkers than
    switches read full.  `set_switch` overrides one switch regardless of checkers (a raw
    sensor line of a board script) until `release_switch`; `break_switch` makes one
    read closed or open whatever happens, like a broken reed switch.
    Create it before any device opens its pins: it installs its own pin classes.
    """

    def __init__(self, profile: Profile, factory: MockFactory | None = None) -> None:
        self.profile = profile
        self.factory = factory if factory is not None else MockFactory()
        self.pin_writes = 0
        self.pin_reads = 0
        self.closed = 0
        """Bit i set: the switch on frame index i is closed."""
        self.channel = 0
        """The channel the select pins choose (bit n: select line n is high)."""
        self._checkers: dict[Location, int] = {}
        self._forced: dict[Switch, bool] = {}
        self._broken: dict[Switch, bool] = {}
        wiring = profile.sensors
        self.select_weights = tuple(
            (1 << line, self.factory.pin(pin, pin_class=SelectPin, board=self, weight=1 << line))
            for line, pin in enumerate(wiring.select))
        for mux, pin in enumerate(wiring.signal):
            self.factory.pin(pin, pin_class=MuxSignalPin, board=self, mux=mux)

    # -- checkers ----------------------------------------------------------------------

    def checkers(self, location: Location) -> int:
        """Checkers standing on `location`."""
        return self._checkers.get(location, 0)

    def place(self, location: Location, count: int = 1) -> None:
        """Put `count` checkers down on `location`."""
        self.set_checkers(location, self.checkers(location) + count)

    def lift(self, location: Location, count: int = 1) -> None:
        """Pick `count` checkers up from `location`; HandsError if there are fewer."""
        if count > self.checkers(location):
            held = self.checkers(location)
            raise HandsError(f"cannot lift {count} from {describe(location)}: "
                             + ("there is no checker there" if not held else f"only {held} there"))
        self.set_checkers(location, self.checkers(location) - count)

    def set_checkers(self, location: Location, count: int) -> None:
        """Make `location` hold exactly `count` checkers."""
        if count < 0:
            raise HandsError(f"a location cannot hold {count} checkers")
        self._checkers[location] = count
        self._rewire()

    def clear(self) -> None:
        """Take every checker off and release every forced switch (broken ones stay broken)."""
        self._checkers.clear()
        self._forced.clear()
        self._rewire()

    # -- single switches ---------------------------------------------------------------

    def set_switch(self, switch: Switch, closed: bool) -> None:
        """Hold `switch` closed or open whatever stands on it (a fault, a raw sensor line)."""
        self.profile.sensors.index(switch)  # ValueError for a switch the board lacks
        self._forced[switch] = closed
        self._rewire()

    def release_switch(self, switch: Switch) -> None:
        """Let `switch` follow the checkers again."""
        self._forced.pop(switch, None)
        self._rewire()

    def break_switch(self, switch: Switch, closed: bool) -> None:
        """Make `switch` stuck closed or stuck open for good (for testing the self-test)."""
        self.profile.sensors.index(switch)
        self._broken[switch] = closed
        self._rewire()

    def _rewire(self) -> None:
        closed = 0
        for index, switch in self.profile.sensors.connected():
            state = self._broken.get(switch, self._forced.get(switch))
            if state is None:
                state = switch.slot < self._checkers.get(switch.location, 0)
            if state:
                closed |= 1 << index
        self.closed = closed

    # -- buttons -----------------------------------------------------------------------

    def button_pin(self, name: str) -> MockPin:
        """The mock pin of button `name` (a key of the profile's ``[buttons.pins]``)."""
        return self.factory.pin(self.profile.buttons.pins[name])

    def press(self, name: str, long: bool = False) -> ButtonPress | None:
        """Press button `name` and let go at once, a short press the board's buttons report
        (gpiozero calls back at once on mock pins); or hold it (`long`): that press is
        returned, for the table to be handed straight, as holding a mock pin down would
        take the profile's `long_press_s` of real time."""
        if long:
            return ButtonPress(name, long=True)
        pin = self.button_pin(name)
        pin.drive_low()
        pin.drive_high()
        return None
