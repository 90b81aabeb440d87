"""The scanner on the Pi's pin library (gpiozero's lgpio factory, lgpio's Python code)
with only the kernel simulated: lgpio groups, 32 calls a frame, the same frames as on
gpiozero's mock pins."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bgpi.board.locations import LOCATIONS
from bgpi.exc import PinsBusyError
from bgpi.hardware.lines import DeviceLines, GroupLines
from bgpi.hardware.scanner import Scanner


@pytest.fixture
def wiring(profile):
    return dataclasses.replace(profile.sensors, settle_us=0.0)


def test_on_lgpio_the_scanner_uses_groups_and_32_calls_a_frame(lgpio_board, wiring):
    _, chip, factory = lgpio_board
    with Scanner(wiring, pin_factory=factory) as scanner:
        assert isinstance(scanner.lines, GroupLines)
        scanner.scan()
        chip.calls.clear()
        scanner.scan()
        assert chip.calls == {"_group_write": 16, "_group_read": 16}


def test_lgpio_groups_read_what_mock_pins_read(lgpio_board, wiring, sim):
    board, _, factory = lgpio_board
    rng = random.Random(7)
    with Scanner(wiring, pin_factory=factory) as on_lgpio, \
            Scanner(wiring, pin_factory=sim.factory) as on_mock:
        assert isinstance(on_mock.lines, DeviceLines)
        for _ in range(30):
            for location in LOCATIONS:
                count = rng.choice((0, 0, 1, 2, 5, 7))
                board.set_checkers(location, count)
                sim.set_checkers(location, count)
            assert on_lgpio.scan() == on_mock.scan() == board.closed


def test_a_busy_line_is_refused_by_lgpio_and_nothing_stays_claimed(lgpio_board, wiring):
    _, chip, factory = lgpio_board
    chip.busy.add(wiring.signal[2])
    with pytest.raises(PinsBusyError) as refused:
        Scanner(wiring, pin_factory=factory)
    assert refused.value.pins == (wiring.signal[2],)  # the one line of the group that is busy
    assert "GPIO busy" in str(refused.value.__cause__)  # lgpio's own word
    assert chip.calls["_gpiochip_close"] == 1
    chip.busy.clear()
    Scanner(wiring, pin_factory=factory).close()



@pytest.mark.parametrize(("call", "refusal"), [
    ("answer_group_write", lambda self, handle, leader, bits, mask: -5),
    ("answer_group_read", lambda self, handle, leader: [-5, 0]),
])
def test_a_call_the_kernel_refuses_mid_scan_raises_lgpios_error(lgpio_board, wiring, monkeypatch, call, refusal):
    _, chip, factory = lgpio_board
    lgpio = pytest.importorskip("lgpio")
    monkeypatch.setattr(type(chip), call, refusal)  # -5: lgpio's "unknown handle"
    with Scanner(wiring, pin_factory=factory) as scanner, pytest.raises(lgpio.error, match="unknown handle"):
        scanner.scan()
