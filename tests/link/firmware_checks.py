"""Checks of the firmware modules, run as a script under MicroPython and under CPython.

    micropython firmware_checks.py FIRMWARE_DIR

Puts the simulated `machine` and `neopixel` (FIRMWARE_DIR/sim) first on the path, then
the firmware (FIRMWARE_DIR); prints "firmware checks passed" or fails an assert.
``tests/link/test_firmware.py`` runs it under both interpreters.
"""

# ruff: noqa: E402  (the path is set before the firmware is imported)

import sys

FIRMWARE = sys.argv[1]
sys.path.insert(0, FIRMWARE)
sys.path.insert(0, FIRMWARE + "/sim")

import machine
from bgfw import wire
from bgfw.app import HOST_TIMEOUT_MS, Firmware
from bgfw.buttons import Buttons
from bgfw.pico import READ_MAX, read_link
from bgfw.scan import Debouncer, MuxScanner, frame_hex, gray_code

CONFIG = "sel=2,3,4,5 sig=6,7 settle=0 hz=200 deb=2 led=16 n=4 order=GRB btn=17,18 long=1000 bounce=20"


def check_wire():
    assert wire.checksum(b"123456789") == 0xCBF43926  # the CRC-32 check value
    assert wire._crc32_soft(b"123456789") == 0xCBF43926
    rx = wire.Receiver()
    good = wire.encode(7, "SW", "00ff")
    bad_crc = bytearray(good)
    bad_crc[3] = ord("X")
    frames = rx.feed(good + bytes(bad_crc) + good[:6] + b"\n" + b"x" * 600 + b"\n"
                     + wire.encode(7, "HB") + wire.encode(5, "HB") + wire.encode(9, "HB")
                     + b"\xff\xfe*00000000\n" + b"10 SW \xc3\xa9*%08x\n" % wire.checksum(b"10 SW \xc3\xa9"))
    assert [(seq, kind) for seq, kind, _ in frames] == [(7, "SW"), (9, "HB")], frames
    counts = rx.counts
    assert counts["bad_crc"] == 2 and counts["malformed"] == 2 and counts["oversized"] == 1, counts
    assert counts["duplicate"] == 1 and counts["out_of_order"] == 1 and counts["lost"] == 1, counts
    # A frame split anywhere across reads arrives whole.
    rx = wire.Receiver()
    data = wire.encode(1, "LED", "0 ff0000")
    for cut in range(len(data)):
        assert rx.feed(data[:cut]) == [] and len(rx.feed(data[cut:])) == 1
        rx.reset()
    # Sequence numbers wrap.
    rx = wire.Receiver()
    assert len(rx.feed(wire.encode(65535, "HB") + wire.encode(0, "HB"))) == 2


def check_scan():
    assert sorted(gray_code(4)) == list(range(16))
    machine.BOARD.wire((2, 3, 4, 5), (6, 7))
    scanner = MuxScanner((2, 3, 4, 5), (6, 7), 0)
    frame = [0, 0]
    for closed in (0, 1, 1 << 15, 1 << 16 | 1 << 31, 0xFFFFFFFF, 0x12345678):
        machine.BOARD.closed = closed
        scanner.scan(frame)
        assert frame[0] | frame[1] << 16 == closed, (frame, closed)
    assert frame_hex([0x5678, 0x1234]) == "12345678"
    debouncer = Debouncer(1, 2)
    assert debouncer.update([1]) and debouncer.stable == [1]
    assert not debouncer.update([3]) and debouncer.stable == [1]  # seen once: not yet
    assert debouncer.update([3]) and debouncer.stable == [3]
    assert not debouncer.update([1]) and not debouncer.update([3]) and debouncer.stable == [3]


def check_buttons():
    buttons = Buttons([17, 18], 20, 1000)
    presses = []
    machine.BOARD.down.add(17)
    assert not buttons.update(0, presses)
    assert buttons.update(20, presses) and buttons.mask() == 1
    machine.BOARD.down.discard(17)
    buttons.update(30, presses)
    buttons.update(50, presses)
    assert presses == [(0, "short")], presses
    machine.BOARD.down.add(18)
    buttons.update(100, presses)
    buttons.update(120, presses)
    buttons.update(1120, presses)
    assert presses[-1] == (1, "long") and buttons.mask() == 2
    machine.BOARD.down.discard(18)
    buttons.update(1130, presses)
    buttons.update(1150, presses)
    assert len(presses) == 2 and buttons.mask() == 0  # no short press after a long one


class Host:
    """The host's side of the conversation, with the firmware's own codec."""

    def __init__(self):
        self.out = []
        self.rx = wire.Receiver()
        self.seq = 0

    def write(self, data):
        self.out.extend(self.rx.feed(data))

    def frame(self, kind, args=""):
        self.seq += 1
        return wire.encode(self.seq, kind, args)

    def kinds(self):
        kinds = [kind for _, kind, _ in self.out]
        self.out = []
        return kinds


def check_firmware():
    host = Host()
    firmware = Firmware(host.write, None, 0)
    assert host.kinds() == ["HELLO"]  # at boot
    firmware.receive(host.frame("LED", "0 ff0000"), 500)
    assert host.kinds() == ["HELLO"]  # not greeted yet: asks the host to start over
    firmware.receive(host.frame("HELLO", "proto=1 host=test"), 600)
    assert host.kinds() == ["HELLO"]
    firmware.receive(host.frame("CONFIG", CONFIG), 600)
    assert host.kinds() == ["READY"]
    machine.BOARD.closed = 0x10001
    firmware.tick(605)
    assert host.out[-1][1:] == ("SW", "00010001"), host.out
    host.kinds()
    firmware.receive(host.frame("SYNC", "0"), 606)
    assert host.out == [(host.out[0][0], "STATE", "00010001 keys=0 presses=0")]
    host.kinds()
    machine.BOARD.down.add(18)
    firmware.tick(610)
    firmware.tick(640)
    machine.BOARD.down.discard(18)
    firmware.tick(650)
    firmware.tick(680)
    assert host.kinds() == ["KEYS", "KEYS", "BTN"]
    firmware.receive(host.frame("SYNC", "0"), 681)  # the press is sent again on request
    assert host.out[-1][1:] == ("BTN", "1 1 short"), host.out
    host.kinds()
    firmware.receive(host.frame("LED", "1 102030") + host.frame("SHOW"), 700)
    assert firmware.lights.pixels.shown[1] == (0x10, 0x20, 0x30)
    assert firmware.lights.pixels.buf[3:6] == bytes((0x20, 0x10, 0x30))  # GRB on the wire
    firmware.receive(host.frame("LED", "3 102030102030"), 701)  # past the end of the chain
    assert host.kinds() == ["ERR"]
    # Damaged frames are counted, never obeyed, never fatal.
    before = firmware.rx.counts["frames"]
    damaged = bytearray(host.frame("LED", "0 ffffff"))
    damaged[-5] ^= 1
    firmware.receive(bytes(damaged) + b"x" * 700 + b"\n" + b"12 SHO", 702)
    firmware.receive(b"\n" + host.frame("SHOW")[:-4] + b"\n", 703)
    frame = host.frame("SHOW")
    firmware.receive(frame + frame, 704)
    counts = firmware.rx.counts
    assert counts["bad_crc"] + counts["malformed"] == 3 and counts["oversized"] == 1, counts
    assert counts["duplicate"] == 1 and counts["frames"] == before + 1, counts
    assert firmware.lights.pixels.shown[0] == (0, 0, 0)
    seed = 12345
    for _ in range(300):  # noise: nothing raises
        data = bytearray()
        for _ in range(40):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            data.append(seed >> 16 & 0xFF if seed & 3 else 10)
        firmware.receive(bytes(data), 705)
    # Heartbeats, then the host is lost: the idle pattern walks the chain.
    host.kinds()
    firmware.tick(1300)
    assert "HB" in host.kinds()
    firmware.tick(705 + HOST_TIMEOUT_MS)
    writes = firmware.lights.pixels.writes
    firmware.tick(705 + HOST_TIMEOUT_MS + 500)
    assert not firmware.host and firmware.lights.pixels.writes > writes
    assert sum(sum(colour) for colour in firmware.lights.pixels.shown) > 0


class Port:
    """The USB serial port of the Pico's loop: its stdin and its poll in one."""

    def __init__(self, data):
        self.data = data

    def read(self, count):
        taken, self.data = self.data[:count], self.data[count:]
        return taken

    def poll(self, timeout):
        return [(self, 1)] if self.data else []


def check_break():
    # mpremote's way in: Ctrl-C (twice, in older versions), then Ctrl-A for the raw REPL.
    port = Port(wire.encode(3, "HB") + b"\r\x03\x03\r\x01")
    data, stop = read_link(port, port)
    assert stop and data == wire.encode(3, "HB") + b"\r", data
    assert port.data == b"\x03\r\x01", port.data  # left in the port for the REPL
    port = Port(b"x" * 100)
    data, stop = read_link(port, port)
    assert not stop and len(data) == READ_MAX and len(port.data) == 100 - READ_MAX


check_wire()
check_break()
check_scan()
check_buttons()
check_firmware()
print("firmware checks passed")
