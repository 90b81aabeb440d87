"""Frames of the line protocol, host side (the contract: ``firmware/PROTOCOL.md``).

The firmware has its own implementation (``firmware/bgfw/wire.py``, MicroPython's
subset of the language); the tests run each against the other.  A frame is one ASCII
line ``SEQ TYPE ARGS*CRC``: SEQ 0..65535 wrapping, CRC the CRC-32 of the text before
the ``*`` in eight lowercase hex digits.
"""

from __future__ import annotations

import zlib
from collections import Counter
from dataclasses import dataclass, field

PROTOCOL_VERSIONS: tuple[int, ...] = (1,)
"""The protocol versions this host speaks."""
MAX_LINE = 512
"""Longest frame in bytes, newline excluded."""
SEQ_MOD = 1 << 16

REJECTIONS = ("bad_crc", "malformed", "oversized", "duplicate", "out_of_order")
"""Why a line is rejected; `Receiver.counts` also counts accepted ``frames`` and ``lost``
(sequence numbers skipped: frames that never arrived)."""


@dataclass(frozen=True)
class WireFrame:
    seq: int
    kind: str
    args: str = ""


def encode(seq: int, kind: str, args: str = "") -> bytes:
    """The bytes of one frame, newline included."""
    body = f"{seq} {kind} {args}".encode() if args else f"{seq} {kind}".encode()
    return body + b"*%08x\n" % zlib.crc32(body)


@dataclass
class Receiver:
    """Splits bytes into frames, accepting each good, newer one; counts what it rejects.

    Never raises on input.  A frame of one of `resync_kinds` is accepted at any sequence
    number and the count goes on from there: a peer that restarted sends one first.
    """

    resync_kinds: tuple[str, ...] = ("HELLO",)
    counts: Counter[str] = field(default_factory=Counter)
    last: int | None = None
    _line: bytearray = field(default_factory=bytearray)
    _skipping: bool = False

    def reset(self) -> None:
        """Accept the next frame whatever its number (a new connection)."""
        self.last = None
        self._line.clear()
        self._skipping = False

    def feed(self, data: bytes) -> list[WireFrame]:
        frames = []
        for line in self._lines(data):
            if (frame := self._frame(line)) is not None:
                frames.append(frame)
        return frames

    def _lines(self, data: bytes) -> list[bytes]:
        """The lines `data` completes; an over-long one is dropped (and counted) whole."""
        lines: list[bytes] = []
        start = 0
        while True:
            end = data.find(b"\n", start)
            piece = data[start:] if end < 0 else data[start:end]
            if not self._skipping:
                if len(self._line) + len(piece) > MAX_LINE:
                    self.counts["oversized"] += 1
                    self._skipping = True
                    self._line.clear()
                else:
                    self._line += piece
            if end < 0:
                return lines
            if not self._skipping:
                lines.append(bytes(self._line))
            self._skipping = False
            self._line.clear()
            start = end + 1

    def _frame(self, line: bytes) -> WireFrame | None:
        line = line.removesuffix(b"\r")
        if not line:
            return None
        body, star, crc = line.rpartition(b"*")
        if not star or len(crc) != 8:
            self.counts["malformed"] += 1
            return None
        try:
            expected = int(crc, 16)
        except ValueError:
            self.counts["malformed"] += 1
            return None
        if zlib.crc32(body) != expected:
            self.counts["bad_crc"] += 1
            return None
        if not body.isascii():
            self.counts["malformed"] += 1
            return None
        text = body.decode("ascii")
        seq_text, _, rest = text.partition(" ")
        kind, _, args = rest.partition(" ")
        if not (seq_text.isdigit() and int(seq_text) < SEQ_MOD and kind):
            self.counts["malformed"] += 1
            return None
        seq = int(seq_text)
        if self.last is not None and kind not in self.resync_kinds:
            step = (seq - self.last) % SEQ_MOD
            if step == 0:
                self.counts["duplicate"] += 1
                return None
            if step >= SEQ_MOD // 2:
                self.counts["out_of_order"] += 1
                return None
            self.counts["lost"] += step - 1
        self.last = seq
        self.counts["frames"] += 1
        return WireFrame(seq, kind, args)

    def reached(self, seq: int) -> bool:
        """True once frame `seq`, or a later one, has been accepted."""
        return self.last is not None and (self.last - seq) % SEQ_MOD < SEQ_MOD // 2


@dataclass
class Sender:
    """Numbers outgoing frames."""

    seq: int = 0
    sent: int = 0

    def frame(self, kind: str, args: str = "") -> bytes:
        data = encode(self.seq, kind, args)
        self.seq = (self.seq + 1) % SEQ_MOD
        self.sent += 1
        return data


def fields(args: str) -> dict[str, str]:
    """The ``key=value`` words of `args`."""
    return dict(word.split("=", 1) for word in args.split() if "=" in word)
