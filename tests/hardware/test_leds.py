"""LEDs: the limits our layer applies, and the bytes Adafruit's drivers would send.

The driver gets a fake SPI bus (neopixel_spi); its own pixel buffer does the encoding,
so the captured bytes are the real ones.
"""

from __future__ import annotations

import dataclasses

import pytest

from bgpi.board.colours import DARK
from bgpi.hardware.leds import Leds, SimulatedPixels, limit_frame, open_pixels
from tests.hardware.measure import frame_current_ma

WHITE, RED = (255, 255, 255), (255, 0, 0)
SPI_ONE, SPI_ZERO = 0b11110000, 0b11000000


class FakeSPI:
    """The busio.SPI interface neopixel_spi uses; keeps every write."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.locked = False

    def try_lock(self) -> bool:
        self.locked = True
        return True

    def unlock(self) -> None:
        self.locked = False

    def configure(self, baudrate: int, polarity: int = 0, phase: int = 0) -> None:
        assert baudrate == 6_400_000  # 8 SPI bits per NeoPixel bit at 800 kHz

    def write(self, data: bytes) -> None:
        assert self.locked
        self.writes.append(bytes(data))


def decode_spi(data: bytes) -> bytes:
    """The NeoPixel bytes in an SPI write: each SPI byte carries one bit, reset bytes around."""
    payload = data.strip(b"\0")
    assert len(payload) % 8 == 0 and set(payload) <= {SPI_ONE, SPI_ZERO}
    return bytes(sum((bit == SPI_ONE) << (7 - i) for i, bit in enumerate(payload[k:k + 8]))
                 for k in range(0, len(payload), 8))


@pytest.fixture
def config(profile):
    # No cap and a budget the test frames stay under, unless a test says otherwise.
    return dataclasses.replace(profile.leds, brightness=1.0, current_budget_ma=10_000)


def spi_leds(config) -> tuple[Leds, FakeSPI]:
    bus = FakeSPI()
    return Leds(config, open_pixels(config, bus)), bus


def test_spi_bytes_are_grb_in_chain_order(config):
    leds, bus = spi_leds(config)
    leds.show({0: (1, 2, 3), 43: RED})
    sent = decode_spi(bus.writes[-1])
    assert len(sent) == 3 * 44
    assert sent[:3] == bytes([2, 1, 3])  # GRB
    assert sent[-3:] == bytes([0, 255, 0])
    assert sent[3:-3] == bytes(3 * 42)


def test_colour_order_comes_from_the_profile(config):
    leds, bus = spi_leds(dataclasses.replace(config, order="BRG"))
    leds.show({0: (1, 2, 3)})
    assert decode_spi(bus.writes[-1])[:3] == bytes([3, 1, 2])


def test_brightness_cap_reaches_the_wire(config):
    leds, bus = spi_leds(dataclasses.replace(config, brightness=0.5))
    leds.show({5: WHITE})
    assert decode_spi(bus.writes[-1])[15:18] == bytes([127, 127, 127])


def test_current_budget_reaches_the_wire(config):
    budget = dataclasses.replace(config, current_budget_ma=600)  # 10 white pixels at full
    leds, bus = spi_leds(budget)
    sent = leds.show({index: WHITE for index in range(44)})
    wire = decode_spi(bus.writes[-1])
    assert list(wire) == [channel for colour in sent for channel in (colour[1], colour[0], colour[2])]
    assert sum(wire) * 20 / 255 <= 600
    assert max(wire) == min(wire) > 0  # dimmed evenly, not cut off


def test_limit_frame_caps_then_fits_the_budget():
    frame = [WHITE] * 44
    assert frame_current_ma(frame) == pytest.approx(44 * 60)
    assert limit_frame(frame, 1.0, 10_000) == tuple(frame)
    capped = limit_frame(frame, 0.6, 10_000)
    assert capped[0] == (153, 153, 153)
    limited = limit_frame(frame, 0.6, 1500)
    assert frame_current_ma(limited) <= 1500
    assert frame_current_ma(limited) > 1500 - 44 * 3 * 20 / 255  # only rounding lost


@pytest.mark.parametrize("budget", [1, 59.9, 333, 1000.5])
def test_limit_frame_never_exceeds_the_budget(budget):
    frame = [(255, 128, 7), (3, 250, 99), WHITE, DARK] * 11
    assert frame_current_ma(limit_frame(frame, 0.9, budget)) <= budget


def test_leds_by_target_and_simulated_pixels(profile):
    pixels = SimulatedPixels(profile.leds.count)
    leds = Leds(profile.leds, pixels)
    leds.show_targets({"7": RED, "bar:black": WHITE})
    lit = {index: colour for index, colour in enumerate(pixels.shown) if colour != DARK}
    assert lit == {6: (153, 0, 0), 25: (153, 153, 153)}
    leds.off()
    assert set(pixels.shown) == {DARK} and pixels.shows == 2


def test_pixel_count_must_match_the_profile(profile):
    with pytest.raises(ValueError, match="3 pixels, the profile 44"):
        Leds(profile.leds, SimulatedPixels(3))
