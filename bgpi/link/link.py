"""The serial link to the co-processor: handshake, heartbeats, resync and reconnection.

`Link` keeps what the firmware reports (the debounced switch frame, the buttons held,
the presses not yet taken) and sends it the LED colours.  It never blocks for long and
never raises on what arrives: a pulled cable, a silent or restarted Pico and damaged
frames all end in a reconnection with backoff and a full resync, and the counts say
what happened.  Only a firmware that speaks no protocol version this host speaks, or
that refuses the board's configuration, raises `FirmwareRefusedError`: replugging will not
mend that.
"""

from __future__ import annotations

import contextlib
import errno
import select
import time
from collections import Counter, deque
from collections.abc import Callable, Sequence

import serial

from bgpi.board.colours import Colour
from bgpi.exc import FirmwareRefusedError
from bgpi.link.wire import PROTOCOL_VERSIONS, Receiver, Sender, WireFrame, fields

BAUD = 115200
"""Nominal only: USB CDC runs at USB speed whatever the rate says."""
HEARTBEAT_S = 0.5
"""Send a heartbeat after this long without sending anything else."""
SILENCE_S = 3.0
"""No frame from the firmware for this long: the link is down."""
HANDSHAKE_S = 2.0
"""A handshake not done within this long is started again."""
BACKOFF_S: tuple[float, ...] = (0.1, 0.2, 0.5, 1.0, 2.0)
"""Waits before each reconnection attempt; the last one repeats."""
READ_SIZE = 4096
"""Bytes read at most per pump (the port's timeout is 0: it returns what has arrived)."""
LED_CHUNK = 64
"""Pixels per LED frame: 6 hex digits each keeps a frame under MAX_LINE."""

OpenPort = Callable[[str], serial.Serial]


def open_port(url: str) -> serial.Serial:
    """A pyserial port for `url` (a device path, or a pyserial URL such as ``loop://``)."""
    return serial.serial_for_url(url, baudrate=BAUD, timeout=0, write_timeout=1.0)


class Link:
    """The host's end of the link to the firmware at `url`.

    `clock` is the link's time in seconds (the wall clock live; board time in a replay,
    so heartbeats and timeouts follow the board).  Call `pump` often: it reads, answers
    and reconnects.  `connected` is True once the handshake and a resync are done.
    """

    def __init__(self, url: str, config: str, clock: Callable[[], float] = time.monotonic,
                 opener: OpenPort = open_port, host: str = "bgpi") -> None:
        self.url = url
        self.config = config
        self.clock = clock
        self.opener = opener
        self.host = host
        self.port: serial.Serial | None = None
        self.receiver = Receiver()
        self.sender = Sender()
        self.counts: Counter[str] = Counter()
        """Link events: ``connects``, ``disconnects``, ``timeouts``, ``resyncs``, ``errors``,
        ``presses_lost`` (older than the firmware keeps), ``unknown`` frame types,
        ``out_of_phase`` (BTN or KEYS before the handshake is done), ``rehandshakes``."""
        self.phase = "closed"
        """"closed", "hello" (sent), "config" (sent), "sync" (asked), "up"."""
        self.firmware: dict[str, str] = {}
        """The firmware's HELLO fields: fw (version), proto, muxes, leds, maxmux."""
        self.stats: dict[str, str] = {}
        """The firmware's last STATS answer."""
        self.error = ""
        """The last problem, for a status line."""
        self.frame = 0
        self.keys = 0
        self.presses: deque[tuple[int, str]] = deque()
        self.press_no: int | None = None
        """The number of the last press taken; None until the firmware (this boot of it) said."""
        self._boot: str | None = None
        """The boot id of the firmware whose presses `press_no` counts (confirmed by STATE)."""
        self._greeted_boot: str | None = None
        """The boot id its last HELLO gave."""
        self._gap_asked = False
        self.colours: list[Colour] = []
        self._sent_colours: list[Colour] | None = None
        self._heard = self._said = self._phase_at = 0.0
        self._retry_at = 0.0
        self._attempt = 0
        self._lost_seen = 0

    # -- state -------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self.phase == "up"

    def status(self) -> str:
        """One line on the link's state, for the person at the board."""
        if self.connected:
            return f"co-processor on {self.url}: connected (firmware {self.firmware.get('fw', '?')})"
        why = f": {self.error}" if self.error else ""
        return f"co-processor on {self.url}: not connected{why}"

    # -- the port ----------------------------------------------------------------

    def pump(self, wait: float = 0.0) -> None:
        """Read what arrived (waiting up to `wait` s for the first byte), answer it,
        keep the link alive, and reconnect when it is due."""
        now = self.clock()
        if self.port is None:
            if now >= self._retry_at:
                self._open(now)
            return
        try:
            if wait > 0:
                _wait_readable(self.port, wait)
            data = self.port.read(READ_SIZE)
        except (serial.SerialException, OSError) as error:
            self._drop(now, _read_failure(error))
            return
        now = self.clock()
        if data:
            for frame in self.receiver.feed(data):
                self._heard = now
                self._handle(frame, now)
                if self.port is None:
                    return
        if self.port is None:
            return
        if now - self._heard >= SILENCE_S:
            self.counts["timeouts"] += 1
            self._drop(now, f"no word from the firmware for {SILENCE_S:g} s")
        elif self.phase != "up" and now - self._phase_at >= HANDSHAKE_S:
            self.counts["timeouts"] += 1
            self._drop(now, f"no answer to the handshake ({self.phase})")
        elif now - self._said >= HEARTBEAT_S:
            self._send("HB")

    def wait(self, seconds: float) -> None:
        """Sleep up to `seconds`, waking as soon as the firmware sends something: the live
        loop sleeps here, so a switch change is read the moment it arrives (the loop then
        scans up to one period early, which its pacing absorbs)."""
        if self.port is None:
            time.sleep(seconds)
        else:
            _wait_readable(self.port, seconds)

    def _open(self, now: float) -> None:
        try:
            self.port = self.opener(self.url)
            self.port.reset_input_buffer()
        except FileNotFoundError:
            self.port = None
            self._retry(now, f"the co-processor's cable is out: there is no {self.url}")
            return
        except (serial.SerialException, OSError, ValueError) as error:
            self.port = None
            self._retry(now, f"cannot open: {error}")
            return
        self.receiver.reset()
        self._heard = now
        self._hello(now)

    def _retry(self, now: float, why: str) -> None:
        self.error = why
        self._retry_at = now + BACKOFF_S[min(self._attempt, len(BACKOFF_S) - 1)]
        self._attempt += 1

    def _drop(self, now: float, why: str) -> None:
        if self.phase == "up":
            self.counts["disconnects"] += 1
        self.phase = "closed"
        if self.port is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                self.port.close()
            self.port = None
        self._retry(now, why)

    def close(self) -> None:
        """Close the port; the link stays down until `pump` is called again."""
        self._drop(self.clock(), "closed")

    def _send(self, kind: str, args: str = "") -> None:
        if self.port is None:
            return
        try:
            self.port.write(self.sender.frame(kind, args))
        except (serial.SerialException, OSError) as error:
            self._drop(self.clock(), f"write failed: {error}")
            return
        self._said = self.clock()

    def _enter(self, phase: str, now: float) -> None:
        self.phase = phase
        self._phase_at = now

    def _hello(self, now: float) -> None:
        self._enter("hello", now)
        self._send("HELLO", f"proto={','.join(map(str, PROTOCOL_VERSIONS))} host={self.host}")

    # -- what the firmware says ----------------------------------------------------

    def _handle(self, frame: WireFrame, now: float) -> None:
        kind, args = frame.kind, frame.args
        if kind == "HELLO":
            self._on_hello(args, now)
        elif kind == "READY" and self.phase == "config":
            self._enter("sync", now)
            self._send("SYNC", self._sync_args())
        elif kind == "STATE" and self.phase in ("sync", "up"):
            self._on_state(args, now)
        elif kind == "SW" and self.phase in ("sync", "up"):
            self.frame = _hex(args, self.frame)
        elif kind == "KEYS" and self.phase in ("sync", "up"):
            self.keys = _int(args, self.keys)
        elif kind == "BTN" and self.phase == "up":
            self._on_button(args)  # only once STATE has said which boot's presses these are
        elif kind in ("KEYS", "BTN"):
            self.counts["out_of_phase"] += 1
        elif kind == "STATS":
            self.stats = fields(args)
        elif kind == "ERR":
            self.counts["errors"] += 1
            self.error = f"the firmware says: {args}"
            if args.startswith("CONFIG"):
                self._drop(now, self.error)
                raise FirmwareRefusedError(f"the firmware on {self.url} cannot use this board profile: {args}")
        elif kind != "HB":
            self.counts["unknown"] += 1
        if self.receiver.counts["lost"] > self._lost_seen and self.phase == "up":
            # Frames went missing: ask for the whole state (and the presses) again.
            self._lost_seen = self.receiver.counts["lost"]
            self.counts["resyncs"] += 1
            self._send("SYNC", self._sync_args())

    def _on_hello(self, args: str, now: float) -> None:
        self.firmware = fields(args)
        spoken = self.firmware.get("proto", "?")
        if not spoken.isdigit() or int(spoken) not in PROTOCOL_VERSIONS:
            needed = " or ".join(map(str, PROTOCOL_VERSIONS))
            self._drop(now, f"firmware speaks protocol {spoken}")
            raise FirmwareRefusedError(
                f"the firmware on {self.url} (version {self.firmware.get('fw', '?')}) speaks "
                f"protocol {spoken}; this bgpi speaks protocol {needed}: flash a firmware for "
                f"protocol {needed} (firmware/README.md) or update bgpi")
        # Whether this is another boot (presses numbered afresh) is settled by the STATE
        # that ends the handshake: a HELLO alone, such as an earlier boot's replayed,
        # changes no press numbering.
        self._greeted_boot = self.firmware.get("boot")
        if self.phase == "hello":
            self._enter("config", now)
            self._send("CONFIG", self.config)
        else:
            # The firmware restarted under us (or greeted before hearing us): start over.
            self.counts["rehandshakes"] += 1
            self.error = f"the firmware greeted again during {self.phase} (it restarted?): handshaking afresh"
            self._hello(now)

    def _on_state(self, args: str, now: float) -> None:
        words = args.split()
        self.frame = _hex(words[0] if words else "", self.frame)
        given = fields(args)
        self.keys = _int(given.get("keys", ""), 0)
        presses = _int(given.get("presses", ""), 0)
        if self.phase == "sync" and self._greeted_boot != self._boot:
            # A firmware that (re)started: its presses are numbered afresh, and those it
            # kept from before we met it are not ours to replay.
            self._boot = self._greeted_boot
            self.press_no = None
        if self.press_no is None or presses < self.press_no:
            self.press_no = presses
        self._lost_seen = self.receiver.counts["lost"]
        if self.phase == "sync":
            self.counts["connects"] += 1
            self._enter("up", now)
            self._attempt = 0
            self.error = ""
            self._sent_colours = None  # the firmware's LEDs are unknown: send them all
            self.show(self.colours)

    def _on_button(self, args: str) -> None:
        words = args.split()
        if len(words) != 3 or not words[0].isdigit() or not words[1].isdigit():
            self.counts["errors"] += 1
            return
        number, index, kind = int(words[0]), int(words[1]), words[2]
        taken = self.press_no if self.press_no is not None else number - 1
        if number <= taken:
            return  # sent again by a resync: already taken
        if number > taken + 1:
            if not self._gap_asked:
                # A press went missing: ask for it (the firmware keeps the last ones).
                self._gap_asked = True
                self.counts["resyncs"] += 1
                self._send("SYNC", self._sync_args())
                return
            self.counts["presses_lost"] += number - taken - 1  # older than the firmware keeps
        self._gap_asked = False
        self.press_no = number
        self.presses.append((index, kind))

    def _sync_args(self) -> str:
        """SYNC's argument: the last press taken, so that the firmware sends the rest."""
        return "" if self.press_no is None else str(self.press_no)

    # -- what the host says ----------------------------------------------------------

    def show(self, colours: Sequence[Colour]) -> None:
        """Show `colours` on the chain: the changed stretch is sent, then SHOW."""
        self.colours = list(colours)
        if not self.connected:
            return
        sent = self._sent_colours
        changed = [i for i, colour in enumerate(self.colours)
                   if sent is None or i >= len(sent) or sent[i] != colour]
        if not changed:
            return
        for start in range(changed[0], changed[-1] + 1, LED_CHUNK):
            stretch = self.colours[start:min(start + LED_CHUNK, changed[-1] + 1)]
            self._send("LED", f"{start} " + "".join(f"{r:02x}{g:02x}{b:02x}" for r, g, b in stretch))
        self._send("SHOW")
        self._sent_colours = list(self.colours)

    def ask_stats(self) -> None:
        """Ask the firmware for its counts; they arrive in `stats`."""
        self._send("STATS")


def _wait_readable(port: serial.Serial, wait: float) -> None:
    """Wait up to `wait` s for a byte on `port` without touching its settings (setting
    a pyserial timeout reconfigures the tty: a system call each time)."""
    try:
        fileno = port.fileno()
    except (AttributeError, NotImplementedError, serial.SerialException):
        time.sleep(wait)  # a port without a descriptor (loop://): it has its data already
        return
    select.select([fileno], [], [], wait)


def _read_failure(error: BaseException) -> str:
    """Why a read failed, in the board's words: a pulled cable is said as one."""
    text = str(error)
    if "returned no data" in text or getattr(error, "errno", None) in (errno.EIO, errno.ENXIO, errno.ENODEV):
        return "the co-processor's cable is out (or it lost power)"  # pyserial: "device reports readiness ..."
    return f"read failed: {text}"


def _hex(text: str, default: int) -> int:
    try:
        return int(text, 16)
    except ValueError:
        return default


def _int(text: str, default: int) -> int:
    return int(text) if text.isdigit() else default
