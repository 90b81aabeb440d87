"""The buttons: debounced by time, reported as short and long presses.

A long press is reported as soon as the button has been held `long_ms`, while still
down; letting go then reports nothing more.  A short press is reported when the button
is let go sooner (the host's `bgpi.hardware.buttons.Buttons` behaves the same).
"""

from machine import Pin


class Buttons:
    """Buttons on `pins` (pulled up, pressed = low), index i being the host's i-th name."""

    def __init__(self, pins, bounce_ms, long_ms):
        self.pins = [Pin(pin, Pin.IN, Pin.PULL_UP) for pin in pins]
        self.bounce = bounce_ms
        self.long = long_ms
        count = len(pins)
        self.raw = [False] * count
        self.raw_since = [0] * count
        self.down = [False] * count
        self.down_since = [0] * count
        self.held = [False] * count

    def mask(self):
        """Bit i set while button i is (debounced) down."""
        mask = 0
        for index in range(len(self.down)):
            if self.down[index]:
                mask |= 1 << index
        return mask

    def update(self, now, presses):
        """Read every button at `now` (ms); append (index, "short"|"long") to `presses`.

        Returns True if a button went down or up."""
        changed = False
        for index in range(len(self.pins)):
            level = not self.pins[index].value()
            if level != self.raw[index]:
                self.raw[index] = level
                self.raw_since[index] = now
            if level != self.down[index] and now - self.raw_since[index] >= self.bounce:
                self.down[index] = level
                changed = True
                if level:
                    self.down_since[index] = now
                    self.held[index] = False
                elif self.held[index]:
                    self.held[index] = False
                else:
                    presses.append((index, "short"))
            if self.down[index] and not self.held[index] and now - self.down_since[index] >= self.long:
                self.held[index] = True
                presses.append((index, "long"))
        return changed
