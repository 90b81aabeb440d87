"""The board's buttons as short and long presses, through gpiozero's `Button`."""

from __future__ import annotations

import queue
from dataclasses import dataclass

from gpiozero import Button
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
    """Watches every button of the profile and queues a `ButtonPress` for each press.

    A long press is reported as soon as the button has been held `long_press_s`, while
    it is still down; letting go then reports nothing more.  A short press is reported
    when the button is let go sooner.  gpiozero calls back from its own threads; the
    queue hands the presses to whoever calls `next_press`.
    """

    def __init__(self, config: ButtonConfig, pin_factory: Factory | None = None) -> None:
        self.config = config
        self._presses: queue.SimpleQueue[ButtonPress] = queue.SimpleQueue()
        self._held: set[str] = set()
        self._buttons: list[Button] = []
        try:
            for name, pin in config.pins.items():
                with claiming([pin]):
                    button = Button(pin, pull_up=True, bounce_time=config.bounce_ms / 1000 or None,
                                    hold_time=config.long_press_s, pin_factory=pin_factory)
                button.when_held = lambda name=name: self._on_held(name)
                button.when_released = lambda name=name: self._on_released(name)
                self._buttons.append(button)
        except BaseException:
            self.close()
            raise

    def _on_held(self, name: str) -> None:
        self._held.add(name)
        self._presses.put(ButtonPress(name, long=True))

    def _on_released(self, name: str) -> None:
        if name in self._held:
            self._held.discard(name)
        else:
            self._presses.put(ButtonPress(name))

    def next_press(self, timeout: float | None = None) -> ButtonPress | None:
        """The oldest press not yet taken, waiting up to `timeout` s (None: for ever)."""
        if timeout == 0 and self._presses.empty():  # every frame asks: no exception to raise and catch
            return None
        try:
            return self._presses.get(timeout=timeout)
        except queue.Empty:
            return None

    def pressed(self) -> list[str]:
        """The buttons down right now (a stuck button stays in this list)."""
        # Once closed there are no buttons left to be down: strict=False.
        return [name for name, button in zip(self.config.pins, self._buttons, strict=False) if button.is_pressed]

    def close(self) -> None:
        """Release every pin (idempotent)."""
        for button in self._buttons:
            button.close()
        self._buttons.clear()
