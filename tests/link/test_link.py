"""The link to the firmware: the real firmware in a simulated Pico behind a pty, and
pyserial's ``loop://`` where a test plays the firmware's part itself."""

from __future__ import annotations

import os
import select
import tty

import pytest
import serial

from bgpi.board.profile import Switch
from bgpi.exc import FirmwareRefusedError
from bgpi.hardware.buttons import ButtonPress
from bgpi.hardware.frames import frame_of
from bgpi.link.link import Link
from bgpi.link.wire import Receiver, WireFrame, encode
from tests.link.conftest import scan


def test_switches_buttons_and_leds_go_through(profile, board, hands, pico, clock) -> None:
    hands.set_checkers(24, 2)
    hands.set_switch(Switch("bar:black", 3), True)
    expected = frame_of([Switch(24, 0), Switch(24, 1), Switch("bar:black", 3)], profile.sensors)
    assert scan(board, clock) == expected
    hands.press("white.turn")
    hands.press("hint", long=True)
    scan(board, clock)
    assert board.buttons.next_press(timeout=0) == ButtonPress("white.turn")
    assert board.buttons.next_press(timeout=0) == ButtonPress("hint", long=True)
    assert board.buttons.next_press(timeout=0) is None
    board.leds.show({0: (200, 100, 0)})
    scan(board, clock)
    shown = pico.leds()
    assert shown[0] == (120, 60, 0) and shown[1:] == [(0, 0, 0)] * (profile.leds.count - 1)  # brightness 0.6


def test_a_pulled_cable_is_reconnected_and_resynced(profile, board, hands, pico, clock) -> None:
    hands.set_checkers(6, 5)
    before = scan(board, clock)
    pico.unplug()
    scan(board, clock)
    assert not board.link.connected and "not connected" in board.link.status()
    hands.lift(6)  # while the cable is out
    hands.place(7)
    scan(board, clock, 3)
    assert scan(board, clock) == before  # the last frame stands meanwhile
    pico.plug()
    for _ in range(400):  # the backoff runs on board time
        scan(board, clock)
        if board.link.connected:
            break
    assert board.link.connected
    assert scan(board, clock, 2) == frame_of(
        [Switch(6, slot) for slot in range(4)] + [Switch(7, 0)], profile.sensors)
    assert board.link.counts["connects"] == 2 and board.link.counts["disconnects"] == 1
    hands.press("black.cube")  # presses after a firmware restart are numbered afresh
    scan(board, clock)
    assert board.buttons.next_press(timeout=0) == ButtonPress("black.cube")


def test_the_firmware_counts_what_it_rejects(board, pico, clock) -> None:
    board.link.port.write(encode(60000, "SHOW")[:-3] + b"\n" + b"y" * 600 + b"\n")
    board.link.ask_stats()
    scan(board, clock, 2)
    assert board.link.stats["malformed"] == "1" and board.link.stats["oversized"] == "1"
    assert board.link.connected


def loop_link(profile_config: str = "sel=2,3,4,5") -> tuple[Link, serial.SerialBase]:
    port = serial.serial_for_url("loop://", timeout=0)
    times = iter(range(10_000))
    return Link("loop://", profile_config, clock=lambda: next(times) * 0.001, opener=lambda url: port), port


def test_a_firmware_speaking_another_protocol_is_refused_by_name() -> None:
    link, port = loop_link()
    link.pump()  # opens and greets (loop:// echoes our HELLO back; it speaks 1)
    port.write(encode(0, "HELLO", "fw=2.0.0 proto=2 muxes=0 leds=0"))
    with pytest.raises(FirmwareRefusedError, match=r"version 2\.0\.0\) speaks protocol 2; this bgpi speaks protocol 1"):
        for _ in range(5):
            link.pump()


def test_a_refused_configuration_is_reported() -> None:
    link, port = loop_link()
    link.pump()
    port.write(encode(1, "ERR", "CONFIG sig needs 1..10 pins, got 11"))
    with pytest.raises(FirmwareRefusedError, match="cannot use this board profile: CONFIG sig needs"):
        for _ in range(5):
            link.pump()


def test_damaged_frames_from_the_firmware_are_counted_and_never_fatal() -> None:
    link, port = loop_link()
    link.pump()
    good = encode(40, "SW", "ff")
    port.write(good.replace(b"ff", b"fe") + good[:5] + b"\n" + b"z" * 700 + b"\n" + good + good
               + encode(39, "SW", "01") + bytes(range(256)) + b"\n")
    for _ in range(5):
        link.pump()
    counts = link.receiver.counts
    assert counts["bad_crc"] == 1 and counts["oversized"] == 1 and counts["duplicate"] == 1
    assert counts["out_of_order"] >= 1 and counts["malformed"] >= 2


class PlayedFirmware:
    """The test plays the firmware at the master end of a real pty; the host opens its device."""

    def __init__(self) -> None:
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self.device = os.ttyname(slave)
        self.slave = slave
        self.receiver = Receiver()
        self.seq = 0
        self.heard: list[WireFrame] = []

    def send(self, kind: str, args: str = "", skip: int = 0) -> None:
        self.seq += 1 + skip
        os.write(self.master, encode(self.seq, kind, args))

    def expect(self, link: Link, kind: str) -> WireFrame:
        for _ in range(200):
            link.pump(wait=0.01)
            readable, _, _ = select.select([self.master], [], [], 0.01)
            if readable:
                self.heard += self.receiver.feed(os.read(self.master, 4096))
            for frame in self.heard:
                if frame.kind == kind:
                    self.heard.remove(frame)
                    return frame
        raise AssertionError(f"the host sent no {kind}: {self.heard}")

    def connect(self, link: Link, boot: str, presses: int) -> WireFrame:
        self.expect(link, "HELLO")
        self.send("HELLO", f"fw=1.0.0 proto=1 muxes=8 leds=44 boot={boot}")
        self.expect(link, "CONFIG")
        self.send("READY", "muxes=8 leds=44")
        sync = self.expect(link, "SYNC")
        self.send("STATE", f"{'0' * 32} keys=0 presses={presses}")
        for _ in range(100):
            link.pump(wait=0.01)
            if link.connected:
                return sync
        raise AssertionError(link.status())

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)


def test_a_press_lost_on_the_wire_is_asked_for_again_and_old_ones_are_not_replayed() -> None:
    firmware = PlayedFirmware()
    link = Link(firmware.device, "sel=2,3,4,5")
    try:
        sync = firmware.connect(link, boot="0000abcd", presses=4)
        assert sync.args == ""  # a firmware met for the first time: its old presses are not ours
        firmware.send("BTN", "5 0 short")
        firmware.send("BTN", "7 1 long", skip=1)  # the frame with press 6 was lost
        assert firmware.expect(link, "SYNC").args == "5"
        firmware.send("STATE", f"{'0' * 32} keys=0 presses=7")
        firmware.send("BTN", "6 4 short")
        firmware.send("BTN", "7 1 long")
        for _ in range(20):
            link.pump(wait=0.01)
        assert list(link.presses) == [(0, "short"), (4, "short"), (1, "long")]
        assert link.receiver.counts["lost"] == 1 and link.counts["resyncs"] >= 1
    finally:
        link.close()
        firmware.close()
