"""What `bgpi run --remote` asks of the board service: the game, this board's side, the
broker, and the pairing code if one is given (`bgpi.remote.pairing`).

`RemoteSettings.join` is how the service (`bgpi.shell.service`, which knows nothing of
the wire) joins the other board, an opponent of its table.  paho loads only then: this
module imports neither it nor the modules that do.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from bgpi.remote.pairing import pair
from bgpi.rules.position import Side

if TYPE_CHECKING:
    from bgpi.remote.game import RemoteGame
    from bgpi.remote.mqtt import Broker
    from bgpi.shell.diskfull import Patience
    from bgpi.table.controller import Table


@dataclass(frozen=True)
class RemoteSettings:
    """A remote game: this board plays `side` of `game` with the other board through
    `broker`, paired by `code` (checked: `read_code`), or by the pairing kept in its state
    directory (None)."""

    game: str
    side: Side
    broker: Broker
    code: str | None = field(default=None, repr=False)

    def join(self, table: Table, state: Path, say: Callable[[str], None], patience: Patience) -> RemoteGame:
        """The other board, joined, with `table` as it stands (its wire's journal in
        `state`, written with `patience`, and its pairing there; a code given is kept there
        first); JournalError or RemoteError (the wire's journal, the pairing, a broker
        setting) if it cannot be.  The caller registers it with its runner
        (`TableRunner.join`)."""
        from bgpi.remote.game import RemoteGame

        pairing, paired = pair(state, self.game, self.code)
        if paired is not None:
            say(paired)
        game = RemoteGame(table, state, self.broker, pairing, self.side, say=say, patience=patience)
        say(f"game {self.game}: this board plays {self.side.label}, the other board "
            f"{self.side.opponent.label}, through the broker at {self.broker}")
        game.start()
        return game
