"""The part of the board profile the host sends in its CONFIG frame (PROTOCOL.md)."""

# ruff: noqa: UP031  (% formatting: MicroPython formats bytes only so; one style for the firmware)

from bgfw.wire import fields

MAX_MUXES = 10
"""Multiplexers the Pico pinout has signal pins for (GP6..GP15)."""
MAX_LEDS = 1024
ORDERS = ("RGB", "RBG", "GRB", "GBR", "BRG", "BGR")
PINS = range(29)
"""GP0..GP28."""


class Config:
    """Pins (GP numbers) and timings of one board; `text` is the CONFIG argument text."""

    def __init__(self, text):
        self.text = text
        given = fields(text)
        try:
            self.select = _pins(given["sel"])
            self.signal = _pins(given["sig"])
            self.buttons = _pins(given["btn"]) if given.get("btn") else []
            self.led_pin = int(given["led"])
            self.leds = int(given["n"])
            self.order = given.get("order", "GRB")
            self.settle_us = int(given.get("settle", "5"))
            self.hz = int(given.get("hz", "200"))
            self.debounce = int(given.get("deb", "2"))
            self.long_ms = int(given.get("long", "1000"))
            self.bounce_ms = int(given.get("bounce", "20"))
        except KeyError as missing:
            raise ValueError("CONFIG lacks %s" % missing.args[0])
        if len(self.select) != 4:
            raise ValueError("sel needs 4 pins (S0..S3), got %d" % len(self.select))
        if not 1 <= len(self.signal) <= MAX_MUXES:
            raise ValueError("sig needs 1..%d pins, got %d" % (MAX_MUXES, len(self.signal)))
        if not 0 <= self.leds <= MAX_LEDS:
            raise ValueError("n must be 0..%d" % MAX_LEDS)
        if self.order not in ORDERS:
            raise ValueError("order must be one of " + ",".join(ORDERS))
        if self.led_pin not in PINS:
            raise ValueError("led pin GP%d does not exist" % self.led_pin)
        if (self.debounce < 1 or not 1 <= self.hz <= 2000 or self.settle_us < 0
                or self.long_ms < 1 or self.bounce_ms < 0):
            raise ValueError("deb >= 1, hz 1..2000, settle >= 0, long >= 1 and bounce >= 0 are needed")
        used = self.select + self.signal + self.buttons + [self.led_pin]
        for pin in used:
            if used.count(pin) > 1:
                raise ValueError("GP%d is given two jobs" % pin)


def _pins(text):
    pins = [int(word) for word in text.split(",")]
    for pin in pins:
        if pin not in PINS:
            raise ValueError("GP%d does not exist (GP0..GP28)" % pin)
    return pins


def load(path):
    """The config saved at `path`, or None (no file, or one this firmware cannot use)."""
    if path is None:
        return None
    try:
        with open(path) as saved:
            return Config(saved.read().strip())
    except (OSError, ValueError):
        return None


def save(path, config):
    """Keep `config` for the next boot (written only when it changed: flash wears)."""
    if path is not None:
        with open(path, "w") as saved:
            saved.write(config.text + "\n")
