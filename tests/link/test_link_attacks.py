"""Issue 21's link attacks: frames out of the handshake's phase, a replayed earlier boot's
HELLO and BTN, a re-handshake's reason, a pulled cable said as one."""

from __future__ import annotations

import os

from bgpi.link.link import Link
from tests.link.test_link import PlayedFirmware


def pump(link: Link, times: int = 20) -> None:
    for _ in range(times):
        link.pump(wait=0.01)


def test_buttons_and_keys_before_the_handshake_is_done_are_not_taken() -> None:
    firmware = PlayedFirmware()
    link = Link(firmware.device, "sel=2,3,4,5")
    try:
        firmware.expect(link, "HELLO")
        firmware.send("HELLO", "fw=1.0.0 proto=1 muxes=8 leds=44 boot=0000abcd")
        firmware.expect(link, "CONFIG")
        firmware.send("BTN", "1 0 short")
        firmware.send("KEYS", "3")
        pump(link)
        assert list(link.presses) == [] and link.keys == 0
        assert link.counts["out_of_phase"] == 2
    finally:
        link.close()
        firmware.close()


def test_a_replayed_earlier_boots_hello_and_press_is_no_phantom_press() -> None:
    firmware = PlayedFirmware()
    link = Link(firmware.device, "sel=2,3,4,5")
    try:
        firmware.connect(link, boot="0000abcd", presses=4)
        firmware.send("BTN", "5 0 short")
        pump(link)
        assert list(link.presses) == [(0, "short")]
        # A verbatim replay of an earlier boot's greeting and first press:
        firmware.send("HELLO", "fw=1.0.0 proto=1 muxes=8 leds=44 boot=0000beef")
        firmware.send("BTN", "1 2 short")
        pump(link)
        assert list(link.presses) == [(0, "short")] and link.press_no == 5
        assert link.counts["rehandshakes"] == 1
        assert "not connected: the firmware greeted again during up" in link.status()
        # The real firmware (the same boot) answers the new handshake: numbering goes on.
        firmware.send("HELLO", "fw=1.0.0 proto=1 muxes=8 leds=44 boot=0000abcd")
        firmware.expect(link, "CONFIG")
        firmware.send("READY", "muxes=8 leds=44")
        assert firmware.expect(link, "SYNC").args == "5"
        firmware.send("STATE", f"{'0' * 32} keys=0 presses=5")
        firmware.send("BTN", "6 1 long")
        pump(link)
        assert link.connected and list(link.presses) == [(0, "short"), (1, "long")]
    finally:
        link.close()
        firmware.close()


def test_another_boot_confirmed_by_its_state_numbers_presses_afresh() -> None:
    firmware = PlayedFirmware()
    link = Link(firmware.device, "sel=2,3,4,5")
    try:
        firmware.connect(link, boot="0000abcd", presses=4)
        firmware.send("HELLO", "fw=1.0.0 proto=1 muxes=8 leds=44 boot=00001234")  # it restarted
        firmware.expect(link, "HELLO")
        firmware.send("HELLO", "fw=1.0.0 proto=1 muxes=8 leds=44 boot=00001234")
        firmware.expect(link, "CONFIG")
        firmware.send("READY", "muxes=8 leds=44")
        assert firmware.expect(link, "SYNC").args == "4"
        firmware.send("STATE", f"{'0' * 32} keys=0 presses=1")
        firmware.send("BTN", "2 3 short")
        pump(link)
        assert link.connected and list(link.presses) == [(3, "short")]
    finally:
        link.close()
        firmware.close()


def test_a_pulled_cable_is_said_as_one() -> None:
    firmware = PlayedFirmware()
    link = Link(firmware.device, "sel=2,3,4,5")
    try:
        firmware.connect(link, boot="0000abcd", presses=0)
        os.close(firmware.master)  # the far end is gone, as when the USB cable is pulled
        pump(link, 5)
        assert not link.connected
        assert link.status().endswith(": not connected: the co-processor's cable is out (or it lost power)")
    finally:
        link.close()
        os.close(firmware.slave)
