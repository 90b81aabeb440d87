"""What the table shows: the role of every location on the LEDs, and the `state` event.

Roles come from the phase: setup guidance, mismatch guidance, the candidate play
being chosen, or, while moving, the lifted checker's source and its legal
destinations, hits awaited on the bar and refused placements.  Colours and blinking
are `bgpi.table.lights`' business.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bgpi.board.locations import (
    LOCATIONS,
    Location,
    bar,
    checkers_on,
    location_of,
    tray,
)
from bgpi.rules.ids import match_id, position_id
from bgpi.rules.position import BAR, Position, Side, absolute_point
from bgpi.table import events as ev
from bgpi.table.lights import Lighting, Prompt
from bgpi.table.phases import Phase


class TableView:
    """The part of `Table` that says what the board shows."""

    _lights: Lighting | None = None  # lighting() until an input changes the table

    def lighting(self) -> Lighting:
        """The roles of the board's locations now (blinking is the lights layer's business).

        The shell asks at every scan; it is worked out again only after an input
        that may have changed it (`Table.handle`)."""
        if self._lights is None:
            self._lights = self._lighting()
        return self._lights

    def _lighting(self) -> Lighting:
        roles, hint_from = self.hint_roles()  # under everything else
        combined: set[Location] = set()
        dice = self._dice_shown()
        if self.phase == Phase.SETUP:
            missing, extra = self.sensing.difference(self.seen or self.sensing.of(Position((0,) * 25, (0,) * 25)), self._expected())
            roles.update({location: "setup" for location in missing})
            roles.update({location: "extra" for location in extra})
        elif self.mismatch is not None:
            roles.update({location: "missing" for location in self.mismatch.missing})
            roles.update({location: "extra" for location in self.mismatch.extra})
        elif self.phase == Phase.CHOOSE:
            # The candidate shown as a play: where its checkers came from and went to.
            shown = self.candidates[self.choice].position
            for location in LOCATIONS:
                after, before = checkers_on(shown, location), checkers_on(self.position, location)
                if after != before:
                    roles[location] = "destination" if after > before else "source"
        elif self.phase == Phase.MOVE and self.reading is not None:
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
                for location in self.rejected.points:
                    roles[location] = "rejected"
        combined = {location for location in combined if roles[location] == "destination"}
        hint_from = {location for location in hint_from if roles.get(location) == "hint"}
        return Lighting(roles=roles, combined=frozenset(combined), hint_from=frozenset(hint_from),
                        dice=dice, turn=self.turn, prompt=self.prompt())

    def _dice_shown(self) -> tuple[int, int] | None:
        """The roll on the dice LEDs; when only one of two different dice can be played,
        the playable one first (the lights show the second die red)."""
        if not self.dice:
            return None
        first, second = self.dice
        if self.tree is not None and first != second and self.tree.most_dice == 1:
            playable = {step.die for step, child in self.tree.steps(self.tree.root)
                        if self.tree.is_acceptable(child)}
            if playable == {second}:
                return second, first
        return first, second

    def prompt(self) -> Prompt | None:
        """What the board waits for, who answers and with which button; None in the
        moments nobody is asked (the dice rolling, a game ending)."""
        phase, turn = self.phase, self.turn
        if self.mismatch is not None:
            return Prompt("mismatch")
        if phase == Phase.NEW_SESSION:
            return Prompt("new_session", None, {**_both("cube", "next choice"), **_both("turn", "start it"),
                                                **_both("cube", "back", held=True)},
                          number=self.choosing)
        if phase == Phase.MATCH_OVER:
            winner = self.session.winner
            return Prompt("match_over", winner, {**_both("turn", "new match"), **_both("cube", "choose session")},
                          number=self.session.score[winner])
        if phase == Phase.SETUP:
            return self._setup_prompt()
        if phase == Phase.ROLL:
            return self._roll_prompt(turn, self.game)
        if phase == Phase.DOUBLED:
            taker = self.game.cube.offer.taker
            if self.drop_asked is not None:
                return Prompt("confirm_drop", taker, _own(taker, cube="drop", turn="back"))
            answers = _own(taker, turn="take", cube="drop (press twice)")
            if self.game.why_not_beaver(taker) is None:
                answers[f"hold {taker.label}.cube"] = "beaver"
            return Prompt("doubled", taker, answers)
        if phase == Phase.CHOOSE:
            return Prompt("choose", turn, _own(turn, cube="next reading", turn="this reading"))
        if phase == Phase.MOVE:
            most, steps = self.tree.most_dice, len(self.dice.steps)
            dead = 0 if most == steps else 2 if most == 0 else 1
            answers = _own(turn, turn="pass" if dead == 2 else "commit")
            if self.lenient_offer:
                answers[f"{turn.opponent.label}.turn"] = "accept the play as made"
            return Prompt("no_play" if dead == 2 else "move", turn, answers, dead_dice=dead)
        return None

    def _setup_prompt(self) -> Prompt:
        set_up = self.seen is not None and self.seen == self._expected()
        new_session = _both("cube", "new session")
        if set_up and self.practice_turn is not None:
            # The practice position is set: its player on roll starts the game.
            on_roll = self.practice_turn
            prompt = self._roll_prompt(on_roll, self.practice_game())
            others = _own(on_roll.opponent, cube="new session")
            return replace(prompt, answers={**others, **prompt.answers})
        if set_up:
            return Prompt("opening", None, {**_both("turn", "opening roll"), **new_session})
        if self.last_result is not None:
            return Prompt("game_over", self.last_result.winner, new_session, number=self.last_result.points)
        return Prompt("setup", None, new_session)

    @staticmethod
    def _roll_prompt(side: Side, game) -> Prompt:
        if game.may_double(side):
            return Prompt("roll_or_double", side, _own(side, turn="roll", cube="double"))
        return Prompt("roll", side, _own(side, turn="roll"))

    def state_event(self) -> dict[str, Any]:
        """The `state` event: where the table stands, in its JSON form."""
        turn = self.turn
        dice = (self.dice.first, self.dice.second) if self.dice else None
        board = None
        if self.node is not None and self.node != self.tree.root:
            board = position_id(self.node.position, turn)
        return ev.State(
            self.phase, turn, dice,
            position_id(self.position, Side.WHITE if turn is None else turn),
            None if turn is None else match_id(self.game.match_key(dice or (0, 0))),
            self.session.score.as_dict(), board,
        ).to_json()


def _both(kind: str, word: str, held: bool = False) -> dict[str, str]:
    """Both players' `kind` button (held: a long press) answers `word`."""
    return {("hold " if held else "") + f"{side.label}.{kind}": word for side in Side}


def _own(side: Side, **words: str) -> dict[str, str]:
    """`side`'s buttons answer: `turn="roll"`, `cube="double"`."""
    return {f"{side.label}.{kind}": word for kind, word in words.items()}
