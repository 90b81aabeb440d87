"""The board's buttons as short and long presses, through gpiozero's `DigitalInputDevice`."""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass

from gpiozero import DigitalInputDevice
from gpiozero.pins import Factory

from bgpi.board.profile import ButtonConfig
from bgpi.hardware.lines import claiming


@dataclass(frozen=True)
class ButtonPress:
    """A press of button `name` ("white.turn", ..., "hint"); `long` if it was held."""

    name: str
    long: bool = False

    def __str__(self) -> str:
        return f"{self.name} {'long' if self.long else 'short'} press"


class Buttons:
    """Watches every button of the profile and hands over a `ButtonPress` for each press.

    A short press is reported when the button is let go before `long_press_s`; a long
    press as soon as it has been held that long, while it is still down (found when the
    presses are asked for: `next_press`, which the scan loop asks every frame, and which
    waits no longer than a hold needs); letting go then reports nothing more.  gpiozero
    calls back from its own thread (at once, on mock pins).

    The buttons are gpiozero's `DigitalInputDevice`s, not its `Button`s: a `Button` keeps
    a thread per button that wakes ten times a second to look for a hold, fifty wake-ups
    a second for the five buttons of an idle board.
    """

    def __init__(self, config: ButtonConfig, pin_factory: Factory | None = None) -> None:
        self.config = config
        self._presses: queue.SimpleQueue[ButtonPress] = queue.SimpleQueue()
        self._down: dict[str, float] = {}
        """The buttons down and not yet reported held, each since when (`time.monotonic`)."""
        self._lock = threading.Lock()  # the callbacks' thread and the caller's share `_down`
        self._buttons: list[DigitalInputDevice] = []
        try:
            for name, pin in config.pins.items():
                with claiming([pin]):
                    button = DigitalInputDevice(pin, pull_up=True, bounce_time=config.bounce_ms / 1000 or None,
                                                pin_factory=pin_factory)
                button.when_activated = lambda name=name: self._on_pressed(name)
                button.when_deactivated = lambda name=name: self._on_released(name)
                self._buttons.append(button)
        except BaseException:
            self.close()
            raise

    def _on_pressed(self, name: str) -> None:
        with self._lock:
            self._down[name] = time.monotonic()

    def _on_released(self, name: str) -> None:
        with self._lock:
            if self._down.pop(name, None) is not None:  # not reported held already
                self._presses.put(ButtonPress(name))

    def _held_long(self) -> ButtonPress | None:
        """The long press of a button down for `long_press_s`, reported once."""
        now = time.monotonic()
        with self._lock:
            for name, since in self._down.items():
                if now - since >= self.config.long_press_s:
                    del self._down[name]
                    return ButtonPress(name, long=True)
        return None

    def _until_held(self) -> float | None:
        """Seconds until the next button down has been held `long_press_s`; None if none is down."""
        now = time.monotonic()
        with self._lock:
            return min((since + self.config.long_press_s - now for since in self._down.values()), default=None)

    def next_press(self, timeout: float | None = None) -> ButtonPress | None:
        """The oldest press not yet taken, waiting up to `timeout` s (None: for ever)."""
        if timeout == 0 and not self._down and self._presses.empty():  # every frame asks: at once
            return None
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            if not self._presses.empty():
                return self._presses.get_nowait()
            if (held := self._held_long()) is not None:
                return held
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return None
            waits = [wait for wait in (left, self._until_held()) if wait is not None]
            try:
                return self._presses.get(timeout=min(waits) if waits else None)
            except queue.Empty:
                continue

    def pressed(self) -> list[str]:
        """The buttons down right now (a stuck button stays in this list)."""
        # Once closed there are no buttons left to be down: strict=False.
        return [name for name, button in zip(self.config.pins, self._buttons, strict=False) if button.is_active]

    def close(self) -> None:
        """Release every pin (idempotent)."""
        for button in self._buttons:
            button.close()
        self._buttons.clear()
