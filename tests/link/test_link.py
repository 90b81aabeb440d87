"""The link to the firmware: the real firmware in a simulated Pico behind a pty, and
pyserial's ``loop://`` where a test plays the firmware's part itself."""

from __future__ import annotations

import pytest
import serial

from bgpi.hardware.buttons import ButtonPress
from bgpi.hardware.frames import frame_of
from bgpi.hardware.profile import Switch
from bgpi.link.link import FirmwareRefused, Link
from bgpi.link.wire import encode
from tests.link.conftest import scan


def test_switches_buttons_and_leds_go_through(profile, board, hands, pico, clock) -> None:
    hands.set_checkers(24, 2)
    hands.set_switch(Switch("bar:black", 3), True)
    expected = frame_of([Switch(24, 0), Switch(24, 1), Switch("bar:black", 3)], profile.sensors)
    assert scan(board, clock) == expected
    hands.press("white.turn")
    hands.hold("hint")
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
    with pytest.raises(FirmwareRefused, match=r"version 2\.0\.0\) speaks protocol 2; this bgpi speaks protocol 1"):
        for _ in range(5):
            link.pump()


def test_a_refused_configuration_is_reported() -> None:
    link, port = loop_link()
    link.pump()
    port.write(encode(1, "ERR", "CONFIG sig needs 1..10 pins, got 11"))
    with pytest.raises(FirmwareRefused, match="cannot use this board profile: CONFIG sig needs"):
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
