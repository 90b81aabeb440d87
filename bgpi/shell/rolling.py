"""The runner's third job: the dice the table asks for, and where they come from.

When the table wants a roll (`Table.wants_roll`), the runner asks its `DiceSource`:
the board's own `LocalDice` (a board script's next ``dice`` line, else random), or an
opponent that makes the dice with this board (`bgpi.remote.game.RemoteGame`: both
boards' secrets), which may answer "not yet" and hand them over later through its
queue (`bgpi.shell.opponents.Opponent.take`).  Either way the runner rolls them the
same: recorded, tumbling on a real board's LEDs, then fed to the table (`Rolled`).

>>> dice = LocalDice(seed=1)
>>> dice.add(6, 5)
>>> dice.roll(), dice.roll()
((6, 5), (2, 5))
"""

from __future__ import annotations

import random
import secrets
from collections import deque
from typing import Protocol


class DiceSource(Protocol):
    """Where the table's dice come from."""

    def roll(self) -> tuple[int, int] | None:
        """The dice for the roll the table wants now; None: not yet (they come later)."""
        ...


class LocalDice:
    """This board's own dice: a script's next ``dice`` line (`add`), else random, from
    the OS, or seeded where a seed is asked for (replays, tests)."""

    def __init__(self, seed: int | None = None) -> None:
        self.scripted: deque[tuple[int, int]] = deque()
        """The rolls a script (or a typed ``d A B``) set, next first."""
        self._randbelow = random.Random(seed).randrange if seed is not None else secrets.randbelow

    def add(self, first: int, second: int) -> None:
        """The next roll shows `first` and `second`."""
        self.scripted.append((first, second))

    def roll(self) -> tuple[int, int]:
        if self.scripted:
            return self.scripted.popleft()
        return self._randbelow(6) + 1, self._randbelow(6) + 1
