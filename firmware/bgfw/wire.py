"""Frames of the line protocol (PROTOCOL.md): encoding, checking and counting.

A frame is one ASCII line ``SEQ TYPE ARGS*CRC\\n``: SEQ a decimal sequence number
0..65535 (wrapping), CRC the CRC-32 of everything before the ``*`` as eight lowercase
hex digits.  `Receiver` turns a byte stream into accepted frames and counts every line
it rejects, by reason; it never raises on anything a wire can deliver.
"""

# ruff: noqa: UP031  (% formatting: MicroPython formats bytes only so; one style for the firmware)

try:
    from binascii import crc32
except ImportError:  # a MicroPython build without binascii.crc32
    crc32 = None

PROTOCOL = 1
"""The protocol version this code speaks (PROTOCOL.md)."""
MAX_LINE = 512
"""Longest frame, newline excluded; longer lines are dropped as oversized."""
SEQ_MOD = 65536

_TABLE = None


def _crc32_soft(data):
    """CRC-32 (IEEE 802.3, as zlib) for ports whose binascii lacks it."""
    global _TABLE
    if _TABLE is None:
        _TABLE = []
        for n in range(256):
            c = n
            for _ in range(8):
                c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
            _TABLE.append(c)
    table = _TABLE
    c = 0xFFFFFFFF
    for byte in data:
        c = table[(c ^ byte) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def checksum(data):
    """CRC-32 of `data` (bytes) as an int."""
    if crc32 is not None:
        return crc32(data) & 0xFFFFFFFF
    return _crc32_soft(data)


def encode(seq, kind, args=""):
    """The bytes of frame `seq` of type `kind` with argument text `args`."""
    body = ("%d %s %s" % (seq, kind, args) if args else "%d %s" % (seq, kind)).encode()
    return body + b"*%08x\n" % checksum(body)


REASONS = ("frames", "bad_crc", "malformed", "oversized", "duplicate", "out_of_order", "lost")
"""What `Receiver.counts` counts: accepted frames, and each reason a line was rejected.
``lost`` counts sequence numbers skipped (frames that never arrived)."""


class Receiver:
    """Splits a byte stream into frames and accepts the good ones, in order.

    `feed` returns the accepted frames as (seq, type, args) tuples, args a str.  A frame
    is rejected (and counted) if it is too long, not ASCII, lacks its CRC or has a wrong
    one, or has a sequence number not newer than the last accepted one (a duplicate or
    one that arrived out of order).  `resync_types` are accepted at any sequence number
    and restart the count from theirs: a peer that restarted sends them first.
    """

    def __init__(self, resync_types=("HELLO",)):
        self.resync_types = resync_types
        self.counts = {}
        for reason in REASONS:
            self.counts[reason] = 0
        self.last = None
        self._line = bytearray()
        self._skipping = False

    def reset(self):
        """Forget the last sequence number: the next frame is accepted whatever its number."""
        self.last = None

    def feed(self, data):
        frames = []
        line = self._line
        for byte in data:
            if byte == 10:  # newline
                if self._skipping:
                    self._skipping = False
                else:
                    frame = self._frame(bytes(line))
                    if frame is not None:
                        frames.append(frame)
                line[:] = b""
            elif self._skipping:
                pass
            elif len(line) >= MAX_LINE:
                self.counts["oversized"] += 1
                self._skipping = True
                line[:] = b""
            else:
                line.append(byte)
        return frames

    def _frame(self, line):
        if line.endswith(b"\r"):
            line = line[:-1]
        if not line:
            return None  # blank lines are keep-alive noise, not frames
        star = line.rfind(b"*")
        if star < 0 or len(line) - star != 9:
            self.counts["malformed"] += 1
            return None
        body = line[:star]
        try:
            crc = int(line[star + 1:], 16)
        except ValueError:
            self.counts["malformed"] += 1
            return None
        if checksum(body) != crc:
            self.counts["bad_crc"] += 1
            return None
        try:
            text = body.decode()
        except UnicodeError:
            text = ""
        if len(text) != len(body):  # not ASCII (UTF-8 decodes several bytes to one character)
            self.counts["malformed"] += 1
            return None
        parts = text.split(" ", 2)
        if len(parts) < 2 or not parts[0].isdigit() or not parts[1] or int(parts[0]) >= SEQ_MOD:
            self.counts["malformed"] += 1
            return None
        seq = int(parts[0])
        kind = parts[1]
        args = parts[2] if len(parts) > 2 else ""
        if kind in self.resync_types or self.last is None:
            self.last = seq
        else:
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
        return (seq, kind, args)


class Sender:
    """Numbers outgoing frames and writes them with `write` (a function taking bytes)."""

    def __init__(self, write):
        self.write = write
        self.seq = 0
        self.sent = 0

    def send(self, kind, args=""):
        """Send one frame; return its sequence number."""
        seq = self.seq
        self.write(encode(seq, kind, args))
        self.seq = (seq + 1) % SEQ_MOD
        self.sent += 1
        return seq


def fields(args):
    """``key=value`` words of `args` as a dict of str (other words are ignored)."""
    found = {}
    for word in args.split():
        key, sep, value = word.partition("=")
        if sep:
            found[key] = value
    return found
