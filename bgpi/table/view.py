"""What the table shows: the role of every location on the LEDs, and the `state` event.

Roles come from the phase: setup guidance, mismatch guidance, the candidate play
being chosen, or, while moving, the lifted checker's source and its legal
destinations, hits awaited on the bar and refused placements.  Colours and blinking
are `bgpi.table.lights`' business.
"""

from __future__ import annotations

from bgpi.hardware.locations import LOCATIONS, Location
from bgpi.rules.ids import match_id, position_id
from bgpi.rules.position import BAR, Position, Side, absolute_point
from bgpi.table.lights import Lighting
from bgpi.table.tracker import bar, checkers_on, location_of, tray


class TableView:
    """The part of `Table` that says what the board shows."""

    def lighting(self) -> Lighting:
        """The roles of the board's locations now (blinking is the lights layer's business)."""
        roles: dict[Location, str] = {}
        combined: set[Location] = set()
        dice = tuple(self.dice) if self.dice else None
        if self.phase == "setup":
            missing, extra = self.sensing.difference(self.seen or self.sensing.of(Position((0,) * 25, (0,) * 25)), self._expected())
            roles.update({location: "setup" for location in missing})
            roles.update({location: "extra" for location in extra})
        elif self.mismatch is not None:
            roles.update({location: "missing" for location in self.mismatch["missing"]})
            roles.update({location: "extra" for location in self.mismatch["extra"]})
        elif self.phase == "choose":
            # The candidate shown as a play: where its checkers came from and went to.
            shown = self.candidates[self.choice].position
            for location in LOCATIONS:
                after, before = checkers_on(shown, location), checkers_on(self.position, location)
                if after != before:
                    roles[location] = "destination" if after > before else "source"
        elif self.phase == "move" and self.reading is not None:
            reading, side = self.reading, self.turn
            for point in reading.pending:
                roles[point] = "hit"
            if reading.in_hand is not None and reading.node == self.node:
                source = reading.in_hand
                roles[source] = "source"
                if source in (bar(side), tray(side)) or (isinstance(source, int) and self.node.position.at(source)[0] is side):
                    start = BAR if source == bar(side) else absolute_point(side, source) if isinstance(source, int) else None
                    if start is not None:
                        for reach in self.tree.reaches(self.node, start):
                            location = location_of(side, reach.destination)
                            if roles.get(location) != "destination":
                                roles[location] = "destination"
                                if reach.dice > 1:
                                    combined.add(location)
                                else:
                                    combined.discard(location)
            if self.rejected is not None:
                for location in self.rejected["points"]:
                    roles[location] = "rejected"
        combined = {location for location in combined if roles[location] == "destination"}
        return Lighting(roles=roles, combined=frozenset(combined), dice=dice, turn=self.turn)

    def state_event(self) -> dict:
        """The `state` event: where the table stands."""
        turn = self.turn
        phase = {"over": "game_over"}.get(self.phase, self.phase)
        event = {
            "event": "state",
            "phase": phase,
            "turn": None if turn is None else turn.label,
            "dice": list(self.dice) if self.dice else None,
            "position_id": position_id(self.position, Side.WHITE if turn is None else turn),
            "match_id": None if turn is None else match_id(self.game.match_key(tuple(self.dice) if self.dice else (0, 0))),
            "score": self.session.score.as_dict(),
        }
        if self.node is not None and self.node != self.tree.root:
            event["board_position_id"] = position_id(self.node.position, turn)
        return event
