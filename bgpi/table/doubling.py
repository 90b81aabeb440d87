"""Cube actions at the table: offering a double, and the answer to one.

Offers are made with a *cube* button before rolling; the player doubled answers with
*turn* (take), *cube* twice (drop) or a held *cube* (beaver, where enabled).  One press
never ends a game: the first press of *cube* asks (`drop_asked`), a second one within
`DROP_CONFIRM` seconds of board time drops, and *turn* or the time running out goes back
to the question.  What is allowed
is the rules' business (`bgpi.rules.cube`, `bgpi.rules.session`); a refusal becomes a
`rejected` event with the rules' own reason.
"""

from __future__ import annotations

from bgpi.exc import CubeError
from bgpi.rules.position import Side
from bgpi.table import events as ev

DROP_CONFIRM = 3.0
"""Seconds of board time in which a second press of *cube* confirms a drop."""


class Doubling:
    """The part of `Table` that handles the cube (it reports through `Table._emit` and
    `_game_over`)."""

    def _answer(self, side: Side, kind: str, long: bool) -> None:
        """`side` pressed a `kind` button (turn or cube; `long`: held) while doubled."""
        if side is not self.game.cube.offer.taker:
            return
        if kind == "turn":
            if self.drop_asked is not None:
                self._keep_question(side)
            else:
                self._emit(ev.Take(side, self.game.cube.offered_value))
        elif long:
            self._beaver(side)
        elif self.drop_asked is None:
            self.drop_asked = self.now
            self._out.append(ev.DropAsked(side, f"press {side.label}.cube again to drop, {side.label}.turn to go back"))
        else:
            self._drop(side)

    def _keep_question(self, side: Side) -> None:
        """The drop was not confirmed: back to take or drop."""
        self.drop_asked = None
        self._out.append(ev.DropCancelled(side))

    def _check_drop_time(self) -> None:
        if self.drop_asked is not None and self.now - self.drop_asked + 1e-9 >= DROP_CONFIRM:
            self._keep_question(self.game.cube.offer.taker)

    def _double(self, side: Side) -> None:
        try:
            offered = self.game.double(side).cube.offered_value
        except CubeError as refusal:
            self._emit(ev.Rejected(side, str(refusal)))
            return
        self._emit(ev.Double(side, offered))

    def _beaver(self, side: Side) -> None:
        reason = self.game.why_not_beaver(side)
        if reason is not None:
            self._emit(ev.Rejected(side, reason))
            return
        self._emit(ev.Beaver(side, self.game.beaver(side).cube.offered_value))

    def _drop(self, side: Side) -> None:
        result = self.game.drop(side)
        self._emit(ev.Drop(side, self.game.cube.value))
        self._game_over(result)
