"""Cube actions at the table: offering a double, and the answer to one.

Offers are made with a *cube* button before rolling; the player doubled answers with
*turn* (take), *cube* (drop) or a held *cube* (beaver, where enabled).  What is allowed
is the rules' business (`bgpi.rules.cube`, `bgpi.rules.session`); a refusal becomes a
`rejected` event with the rules' own reason.
"""

from __future__ import annotations

from bgpi.rules.cube import CubeError
from bgpi.rules.position import Side


class Doubling:
    """The part of `Table` that handles the cube (it reports through `Table._emit` and
    `_game_over`)."""

    def _answer(self, side: Side, kind: str, long: bool) -> None:
        """`side` pressed a `kind` button (turn or cube; `long`: held) while doubled."""
        if side is not self.game.cube.offer.taker:
            return
        if kind == "turn":
            self._emit({"event": "take", "player": side.label, "cube": self.game.cube.offered_value})
        elif long:
            self._beaver(side)
        else:
            self._drop(side)

    def _double(self, side: Side) -> None:
        try:
            offered = self.game.double(side).cube.offered_value
        except CubeError as refusal:
            self._emit({"event": "rejected", "player": side.label, "reason": str(refusal), "points": []})
            return
        self._emit({"event": "double", "player": side.label, "cube": offered})

    def _beaver(self, side: Side) -> None:
        reason = self.game.why_not_beaver(side)
        if reason is not None:
            self._emit({"event": "rejected", "player": side.label, "reason": reason, "points": []})
            return
        offered = self.game.beaver(side).cube.offered_value
        self._emit({"event": "beaver", "player": side.label, "cube": offered})

    def _drop(self, side: Side) -> None:
        result = self.game.drop(side)
        self._emit({"event": "drop", "player": side.label, "cube": self.game.cube.value})
        self._game_over(result)
