"""A simulated `machine` module: the Pico's pins wired to a board that exists in memory.

Put this directory first on the path and the firmware runs unchanged under CPython or
the MicroPython unix port.  `BOARD` is the simulated board: which reed switches are
closed (`closed`, bit ``mux * 16 + channel``) and which buttons are down (`down`, a set
of pins).  A multiplexer's signal pin reads low while the switch on the channel its
select pins choose is closed, as the real circuit does.  The watchdog (`WDT`, stopped
through `mem32` as on the RP2040) and `reset` are kept on `BOARD` for the tests to read.
"""

# ruff: noqa: UP031  (% formatting: MicroPython formats bytes only so; one style for the firmware)


class SimBoard:
    def __init__(self):
        self.pins = {}
        self.select = ()
        self.signal = {}
        self.closed = 0
        self.channel = 0
        """The channel the select pins choose (kept as they are written: scans read it often)."""
        self.down = set()
        self.reads = 0
        self.writes = 0
        self.watchdog = None
        """The running `WDT` (None before one starts and once it is stopped)."""
        self.stopped = None
        self.resets = 0

    def wire(self, select, signal):
        """Which GP pins are the select lines (S0 first) and each multiplexer's signal."""
        self.select = tuple(select)
        self.signal = {pin: mux * 16 for mux, pin in enumerate(signal)}
        self.selected()

    def selected(self):
        channel = 0
        for line, select in enumerate(self.select):
            pin = self.pins.get(select)
            if pin is not None and pin.driven:
                channel |= 1 << line
        self.channel = channel

    def level(self, pin):
        self.reads += 1
        offset = self.signal.get(pin)
        if offset is not None:
            return 0 if self.closed >> (offset + self.channel) & 1 else 1
        return 0 if pin in self.down else 1


BOARD = SimBoard()


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = mode
        self.driven = value or 0
        BOARD.pins[id] = self

    def init(self, mode=-1, pull=-1, value=None):
        self.mode = mode
        if value is not None:
            self.driven = value

    def value(self, level=None):
        if level is None:
            return self.driven if self.mode == Pin.OUT else BOARD.level(self.id)
        BOARD.writes += 1
        self.driven = 1 if level else 0
        if self.id in BOARD.select:
            BOARD.selected()
        return None

    __call__ = value

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


class Reset(BaseException):
    """`reset` was called: the simulated Pico restarts (the real one never returns)."""


def reset():
    BOARD.resets += 1
    raise Reset()


class WDT:
    """The watchdog: counts its feeds; `BOARD.watchdog` is the running one (None: stopped)."""

    def __init__(self, id=0, timeout=5000):
        if BOARD.watchdog is not None:
            raise OSError("the simulated watchdog is already running")
        self.timeout = timeout
        self.feeds = 0
        BOARD.watchdog = self

    def feed(self):
        self.feeds += 1


class Memory:
    """`mem32`: of the RP2040's registers only the watchdog's CTRL clear alias, whose
    ENABLE bit stops the running watchdog (``bgfw/pico.py``)."""

    WATCHDOG_CTRL_CLEAR = 0x40058000 + 0x3000
    WATCHDOG_ENABLE = 1 << 30

    def __setitem__(self, address, value):
        if address != self.WATCHDOG_CTRL_CLEAR:
            raise ValueError("the simulated Pico has no register at %08x" % address)
        if value & self.WATCHDOG_ENABLE:
            BOARD.stopped = BOARD.watchdog
            BOARD.watchdog = None


mem32 = Memory()
