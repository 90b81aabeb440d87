"""The controller: the table's flow, as a deterministic state machine.

Inputs are what happens at the table (`Sensed` switch counts, button `Press`es,
`Tick`s of board time, and `Rolled` dice that the shell rolled when asked); the
output of each input is a list of table-log events (../shared/spec/board-script.md)
and the lights to show.  The controller reads no clock, no pins and no files.

It is event-sourced: every event that changes the game (session, start,
opening, roll, play, cube actions, game and match end) is applied to the state
through `apply`, live and when the journal is read back after a power cut, so a
resumed table is exactly the table that was interrupted.  Where the turn stood
is then read back from the board: steps are never needed to restore a game.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace

from bgpi.hardware.locations import LOCATIONS, Location
from bgpi.lights import Lighting
from bgpi.rules.cube import Cube, CubeError
from bgpi.rules.ids import (
    MatchKey,
    decode_match_id,
    match_id,
    position_from_id,
    position_id,
)
from bgpi.rules.notation import describe_change, format_play
from bgpi.rules.play import Dice, Step
from bgpi.rules.playtree import PartialPlay, PlayTree
from bgpi.rules.position import BAR, OFF, Position, Side, absolute_point
from bgpi.rules.result import GameResult, ResultKind
from bgpi.rules.session import Game, Score, Session, Settings
from bgpi.tracker import (
    Counts,
    Reading,
    Sensing,
    Tracker,
    bar,
    checkers_on,
    position_as_made,
    tray,
)

GRACE = 1.5
"""Seconds of board time an unexplained board is tolerated before play pauses."""


@dataclass(frozen=True, slots=True)
class Sensed:
    """The debounced switch counts changed."""

    counts: Counts


@dataclass(frozen=True, slots=True)
class Press:
    """A button was pressed: short, or held (`long`)."""

    button: str
    long: bool = False


@dataclass(frozen=True, slots=True)
class Tick:
    """Board time is now `now` seconds."""

    now: float


@dataclass(frozen=True, slots=True)
class Rolled:
    """The dice the shell rolled when the controller asked (`Table.wants_roll`)."""

    first: int
    second: int


Input = Sensed | Press | Tick | Rolled


def location_of(side: Side, point: int) -> Location:
    """The board location of `side`'s own point 0..25 (0 its tray, 25 its bar half)."""
    if point == BAR:
        return bar(side)
    if point == OFF:
        return tray(side)
    return absolute_point(side, point)


@dataclass
class Table:
    """One table: a session of games, its state, and what the board shows.

    Build it with `Table.new(...)` for a new session, then feed it inputs with
    `handle`; or build it from a journal with `Table.resume(events, sensing)`.
    """

    sensing: Sensing
    # the session, as its `session` event set it up
    settings: Settings = field(default_factory=Settings)
    lenient: bool = False
    start_position: Position = field(default_factory=Position.start)
    practice_turn: Side | None = None
    practice_key: MatchKey | None = None
    # the game, as the committed events left it
    session: Session = field(default_factory=Session)
    game: Game | None = None
    position: Position = field(default_factory=Position.start)
    phase: str = "setup"
    dice: Dice | None = None
    now: float = 0.0
    seen: Counts | None = None
    # derived from the roll, rebuilt by `apply`
    tree: PlayTree | None = None
    tracker: Tracker | None = None
    node: PartialPlay | None = None
    reading: Reading | None = None
    # what the board is doing wrong, if anything
    rejected: dict | None = None
    unexplained_since: float | None = None
    mismatch: dict | None = None
    candidates: list[PartialPlay] = field(default_factory=list)
    choice: int = 0
    wants_roll: str | None = None
    lenient_offer: bool = False
    _out: list[dict] = field(default_factory=list)  # the events of the input being handled

    # -- building ---------------------------------------------------------------

    @classmethod
    def new(
        cls,
        sensing: Sensing,
        config: dict | None = None,
        position_id_text: str | None = None,
        turn: Side | None = None,
        match_id_text: str | None = None,
    ) -> tuple[Table, list[dict]]:
        """A new session; returns the table and its opening `session` event."""
        event: dict = {"event": "session", "config": dict(config or {})}
        if position_id_text is not None:
            event["position_id"] = position_id_text
            event["turn"] = (Side.WHITE if turn is None else turn).label
            if match_id_text:
                event["match_id"] = match_id_text
        table = cls(sensing)
        table.apply(event)
        return table, [event]

    @classmethod
    def resume(cls, events: list[dict], sensing: Sensing) -> Table:
        """The table a journal of events leaves behind.  Raises ValueError if it has
        no session event first."""
        if not events or events[0].get("event") != "session":
            raise ValueError("the journal does not begin with a session event")
        table = cls(sensing)
        for event in events:
            table.apply(event)
        return table

    # -- applying committed events (live and on resume) --------------------------

    def apply(self, event: dict) -> None:
        """Change the state as `event` says.  Events that change nothing are ignored."""
        kind = event.get("event")
        handler = getattr(self, f"_apply_{kind}", None)
        if handler is not None:
            handler(event)

    def _apply_session(self, event: dict) -> None:
        config = dict(event.get("config", {}))
        self.lenient = bool(config.pop("lenient", False))
        self.settings = Settings.from_config(config)
        session = Session(self.settings)
        if "position_id" in event:
            turn = Side.parse(event["turn"])
            self.practice_turn = turn
            self.start_position = position_from_id(event["position_id"], turn)
            if "match_id" in event:
                key = decode_match_id(event["match_id"])
                self.practice_key = key
                settings = Settings.from_config(config | {"match": key.match_length})
                self.settings = settings
                session = Session(settings, Score(*key.score), crawford=key.crawford)
        self.session = session
        self.position = self.start_position
        self.phase = "setup"

    def _apply_start(self, event: dict) -> None:
        self.position = self.start_position
        if self.practice_turn is None:
            self.phase = "opening"
            self.game = self.session.new_game()
            self.wants_roll = "opening"
            return
        game = replace(self.session.new_game(), turn=self.practice_turn)
        key = self.practice_key
        if key is not None and (self.session.games == 0):
            game = replace(game, cube=Cube(key.cube_value, key.cube_owner))
        self.game = game
        self.phase = "roll"

    def _apply_tie(self, event: dict) -> None:
        self.game = self.game.opening(event["white"], event["black"])
        self.wants_roll = "opening"

    def _apply_opening(self, event: dict) -> None:
        self.game = self.game.opening(event["white"], event["black"])
        self.wants_roll = None
        self._rolled(Dice(event["white"], event["black"]))

    def _apply_roll(self, event: dict) -> None:
        self.game = self.game.roll()
        self._rolled(Dice(*event["dice"]))

    def _rolled(self, dice: Dice) -> None:
        self.dice = dice
        self.tree = PlayTree(self.position, self.game.turn, dice)
        self.tracker = Tracker(self.tree, self.sensing)
        self.node = self.tree.root
        self.reading = Reading(self.node)
        self.phase = "move"

    def _apply_play(self, event: dict) -> None:
        mover = Side.parse(event["player"])
        self.position = position_from_id(event["position_id"], mover.opponent)
        self.game = self.game.end_turn()
        self.dice = self.tree = self.tracker = self.node = self.reading = None
        self.candidates = []
        self.phase = "over" if self.position.winner() is not None else "roll"

    def _apply_double(self, event: dict) -> None:
        self.game = self.game.double(Side.parse(event["player"]))
        self.phase = "doubled"

    def _apply_beaver(self, event: dict) -> None:
        self.game = self.game.beaver(Side.parse(event["player"]))

    def _apply_take(self, event: dict) -> None:
        self.game = self.game.take(Side.parse(event["player"]))
        self.phase = "roll"

    def _apply_drop(self, event: dict) -> None:
        self.phase = "over"

    def _apply_game_over(self, event: dict) -> None:
        result = GameResult(
            Side.parse(event["winner"]),
            ResultKind(event["result"]),
            event["cube"],
            event.get("dropped", False),
        )
        self.session = self.session.record(result)
        self.game = None
        self.dice = None
        self.position = self.start_position
        self.phase = "match_over" if self.session.is_over else "setup"

    # -- inputs --------------------------------------------------------------------

    def handle(self, happened: Input) -> list[dict]:
        """The table-log events caused by one input (committed events already applied)."""
        self._out = []
        if isinstance(happened, Tick):
            self.now = happened.now
            self._check_grace()
        elif isinstance(happened, Sensed):
            self.seen = happened.counts
            self._sensed()
        elif isinstance(happened, Press):
            self._pressed(happened.button, happened.long)
        elif isinstance(happened, Rolled):
            self._dice_rolled(happened.first, happened.second)
        return self._out

    def _emit(self, event: dict) -> None:
        self.apply(event)
        self._out.append(event)

    @property
    def turn(self) -> Side | None:
        return self.game.turn if self.game is not None else None

    # -- the board -----------------------------------------------------------------

    def _expected(self) -> Counts:
        return self.sensing.of(self.position)

    def _sensed(self) -> None:
        if self.phase == "setup" or self.phase == "match_over":
            return
        if self.phase in ("move", "choose"):
            self._track()
            return
        self._settle(self.seen == self._expected())

    def _settle(self, explained: bool) -> None:
        """Start or stop the grace period of an unexplained board."""
        if explained:
            self.unexplained_since = None
            if self.mismatch is not None:
                self.mismatch = None
                self._emit({"event": "restored"})
        elif self.unexplained_since is None:
            self.unexplained_since = self.now

    def _check_grace(self) -> None:
        if self.unexplained_since is None or self.mismatch is not None:
            return
        if self.now - self.unexplained_since + 1e-9 < GRACE:
            return
        expected = self.node.position if self.node is not None else self.position
        missing, extra = self.sensing.difference(self.seen, self.sensing.of(expected))
        self.mismatch = {"missing": missing, "extra": extra}
        self._emit({
            "event": "mismatch",
            "missing": {str(loc): n for loc, n in missing.items()},
            "extra": {str(loc): n for loc, n in extra.items()},
        })

    def _track(self) -> None:
        tree, tracker = self.tree, self.tracker
        self.lenient_offer = False
        readings = [r for r in tracker.explain(self.seen) if tracker.plausible(r)]
        good = [r for r in readings if tree.is_acceptable(r.node)]
        if self.phase == "choose":
            self.phase = "move"
            self.candidates = []
        if good:
            self.rejected = None
            self._settle(True)
            here = [r for r in good if r.node == self.node]
            settled = [r for r in good if r.settled]
            nodes = {r.node for r in good}
            if here:
                chosen = min(here, key=lambda r: not r.settled)
            elif len({r.node.position for r in settled}) == 1:
                chosen = settled[0]
            elif len(nodes) == 1:
                chosen = good[0]
            else:
                # Several partial plays explain the board (checkers hidden on full points):
                # keep the last one we knew; the commit decides, asking if need be.
                self.reading = Reading(self.node)
                return
            if chosen.node != self.node:
                self._moved(self.node, chosen.node)
                self.node = chosen.node
            self.reading = chosen
            return
        move = self._one_checker_moved()
        if move is not None:
            self._settle(True)
            source, destination = move
            if self.rejected is None or self.rejected["points"] != [destination]:
                self._emit({
                    "event": "rejected",
                    "player": self.turn.label,
                    "reason": self._why_not(source, destination),
                    "points": [destination],
                })
                self.rejected = self._out[-1]
            return
        self.rejected = None
        self._settle(False)

    def _one_checker_moved(self) -> tuple[Location, Location] | None:
        """(from, to) if the board differs from the current node by one of the mover's
        checkers having moved, with a blot hit on the way still allowed for."""
        missing, extra = self.sensing.difference(self.seen, self.sensing.of(self.node.position))
        if len(missing) != 1 or len(extra) != 1 or sum(missing.values()) != 1 or sum(extra.values()) != 1:
            return None
        (source,), (destination,) = missing, extra
        if source == tray(self.turn) or source == bar(self.turn.opponent):
            return None
        if isinstance(source, int) and self.node.position.at(source)[0] is not self.turn:
            return None
        return source, destination

    def _why_not(self, source: Location, destination: Location) -> str:
        """Why the mover's checker may not go from `source` to `destination` now."""
        side, node, tree = self.turn, self.node, self.tree
        own = node.position.checkers(side)
        name = _name(destination)
        if own[24] and source != bar(side):
            return "a checker on the bar must enter first"
        if destination in (bar(side), bar(side.opponent), tray(side.opponent)):
            return f"a checker may not be put on {name}"
        start = BAR if source == bar(side) else absolute_point(side, source)
        end = OFF if destination == tray(side) else absolute_point(side, destination)
        if end >= start:
            return f"checkers move forward only: {_name(source)} to {name} goes backwards"
        if end != OFF and node.position.checkers(side.opponent)[24 - end] >= 2:
            return f"{name} is blocked: {side.opponent.label} holds it"
        if end == OFF and not node.position.all_home(side):
            return "bearing off needs every checker in the home board"
        for step, child in _paths(tree, node, start, end):
            if not tree.is_acceptable(child):
                most, _ = _best_finish(tree, child)
                if most < tree.most_dice:
                    return "that leaves a die unplayable: the play must use as many dice as possible"
                return "the larger die must be played"
        dice = " and ".join(str(d) for d in node.dice_left) or "none"
        return f"no die moves a checker from {_name(source)} to {name} (dice left: {dice})"

    def _moved(self, before: PartialPlay, after: PartialPlay) -> None:
        """Step (or undo) events for the board going from `before` to `after`."""
        side = self.turn
        forward = _path(self.tree, before, after)
        backward = None if forward is not None else _path(self.tree, after, before)
        if forward is None and backward is None:
            backward = _path(self.tree, self.tree.root, before)
            forward = _path(self.tree, self.tree.root, after)
        for chain in _chains(backward or []):
            self._emit({
                "event": "undo",
                "player": side.label,
                "from": location_of(side, chain[-1].destination),
                "to": location_of(side, chain[0].source),
            })
        for chain in _chains(forward or []):
            self._emit({
                "event": "step",
                "player": side.label,
                "from": location_of(side, chain[0].source),
                "to": location_of(side, chain[-1].destination),
                "hit": any(step.hit for step in chain),
            })

    # -- buttons ---------------------------------------------------------------------

    def _pressed(self, button: str, long: bool) -> None:
        owner, _, kind = button.partition(".")
        if button == "hint":
            self._emit({"event": "rejected", "player": None, "points": [],
                        "reason": "hints need an engine, and none is configured"})
            return
        side = Side.parse(owner)
        if self.phase == "setup":
            if kind == "turn":
                self._start()
        elif self.phase == "roll":
            if kind == "cube":
                self._double(side)
            elif side is self.turn and self.mismatch is None:
                self.wants_roll = "turn"
        elif self.phase == "doubled":
            taker = self.game.cube.offer.taker
            if side is not taker:
                return
            if kind == "turn":
                self._emit({"event": "take", "player": side.label, "cube": self.game.cube.offered_value})
            elif long:
                self._beaver(side)
            else:
                self._drop(side)
        elif self.phase in ("move", "choose"):
            if kind == "cube" and self.phase == "move":
                self._double(side)  # refused: after rolling, or not this player's turn
                return
            if side is not self.turn:
                if self.lenient_offer and kind == "turn":
                    self._accept_as_made()
                return
            if self.phase == "choose":
                if kind == "cube":
                    self.choice = (self.choice + 1) % len(self.candidates)
                else:
                    self._commit(self.candidates[self.choice])
            elif kind == "turn":
                self._try_commit()

    def _start(self) -> None:
        missing, extra = self.sensing.difference(self.seen or (), self._expected())
        if self.seen is None or missing or extra:
            self._emit({
                "event": "rejected",
                "player": None,
                "reason": "set up the board first: the lit points still need checkers",
                "points": _in_order([*missing, *extra]),
            })
            return
        on_roll = Side.WHITE if self.practice_turn is None else self.practice_turn
        self._emit({"event": "start", "position_id": position_id(self.position, on_roll)})

    def _dice_rolled(self, first: int, second: int) -> None:
        request, self.wants_roll = self.wants_roll, None
        if request == "opening":
            if first == second:
                self._emit({"event": "tie", "white": first, "black": second,
                            "cube": self.game.opening(first, second).cube.value})
                return
            starts = Side.WHITE if first > second else Side.BLACK
            cube = self.game.cube.value
            self._emit({"event": "opening", "white": first, "black": second,
                        "starts": starts.label, "cube": cube})
        elif request == "turn":
            self._emit({"event": "roll", "player": self.turn.label, "dice": [first, second]})
        if self.phase == "move" and self.seen is not None:
            self._track()

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

    def _try_commit(self) -> None:
        tree, tracker = self.tree, self.tracker
        readings = [r for r in tracker.explain(self.seen) if tracker.plausible(r)] if self.seen else []
        complete = {}
        for reading in readings:
            if reading.settled and tree.is_complete(reading.node):
                complete.setdefault(reading.node.position, reading.node)
        if len(complete) == 1:
            self._commit(next(iter(complete.values())))
            return
        if len(complete) > 1:
            self.candidates = list(complete.values())
            self.choice = 0
            self.phase = "choose"
            self._out.append({
                "event": "ambiguous",
                "player": self.turn.label,
                "candidates": [format_play(_steps_to(tree, node)) for node in self.candidates],
            })
            return
        reason, points = self._why_not_complete(readings)
        refusal = {"event": "rejected", "player": self.turn.label, "reason": reason, "points": points}
        if self.lenient:
            self.lenient_offer = True
            refusal["lenient"] = f"{self.turn.opponent.label} may accept the play as made with {self.turn.opponent.label}.turn"
        self._emit(refusal)
        self.rejected = refusal  # lit until the board changes

    def _why_not_complete(self, readings: list[Reading]) -> tuple[str, list[Location]]:
        side = self.turn
        if self.rejected is not None and self.rejected["points"]:
            return f"take back the checker that may not stand there: {self.rejected['reason']}", self.rejected["points"]
        for reading in readings:
            if reading.in_hand is not None:
                return "a checker is still in hand: put it down first", [reading.in_hand]
            if reading.pending:
                return "the hit checker must go to the bar first", _in_order(reading.pending)
        if self.mismatch is not None or not readings:
            return "the board does not show a legal play", []
        node = readings[0].node
        if not self.tree.is_acceptable(node):
            return "this play cannot be completed legally", []
        movable = _in_order({location_of(side, step.source) for step, _ in self.tree.steps(node)})
        dice = " and ".join(str(d) for d in node.dice_left)
        return f"the play is not finished: {dice} still to play", movable

    def _commit(self, node: PartialPlay) -> None:
        side = self.turn
        self.phase = "move"
        self.candidates = []
        if node != self.node:
            # Steps the switches could not see (a checker put down on a full point).
            self._moved(self.node, node)
            self.node = node
        steps = _steps_to(self.tree, node)
        after = node.position
        over = after.winner() is not None
        game = self.game.end_turn()
        self._emit({
            "event": "play",
            "player": side.label,
            "dice": list(self.dice),
            "move": format_play(steps),
            "position_id": position_id(after, side.opponent),
            "match_id": match_id(game.match_key(over=over)),
        })
        if over:
            self._game_over(self.game.result(after))

    def _accept_as_made(self) -> None:
        """Lenient mode: the opponent accepts an illegal play; the game goes on from the board."""
        side = self.turn
        self.lenient_offer = False
        try:
            after = position_as_made(self.sensing, self.seen, self.position, side)
        except ValueError as error:
            self._emit({"event": "rejected", "player": side.opponent.label,
                        "reason": f"cannot accept the play as made: {error}", "points": []})
            return
        over = after.winner() is not None
        self._emit({
            "event": "play",
            "player": side.label,
            "dice": list(self.dice),
            "move": describe_change(self.position, after, side),
            "position_id": position_id(after, side.opponent),
            "match_id": match_id(self.game.end_turn().match_key(over=over)),
            "lenient": True,
        })
        if over:
            self._game_over(self.game.result(after))

    def _game_over(self, result: GameResult) -> None:
        session = self.session.record(result)
        self._emit({
            "event": "game_over",
            "winner": result.winner.label,
            "result": result.kind.value,
            "points": result.points,
            "score": session.score.as_dict(),
            "cube": result.cube,
            "dropped": result.dropped,
        })
        if session.is_over:
            self._emit({"event": "match_over", "winner": session.winner.label, "score": session.score.as_dict()})

    # -- what is shown -----------------------------------------------------------------

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


def _in_order(locations) -> list[Location]:
    """Locations in board order: points 1..24, then the bar halves and trays."""
    return sorted(locations, key=LOCATIONS.index)


def _name(location: Location) -> str:
    return f"point {location}" if isinstance(location, int) else location


def _path(tree: PlayTree, start: PartialPlay, goal: PartialPlay) -> list[Step] | None:
    """The steps from `start` down the tree to `goal`, or None if `goal` is not below it."""
    queue = deque([(start, [])])
    seen = {start}
    while queue:
        node, steps = queue.popleft()
        if node == goal:
            return steps
        for step, child in tree.steps(node):
            if child not in seen:
                seen.add(child)
                queue.append((child, [*steps, step]))
    return None


def _steps_to(tree: PlayTree, node: PartialPlay) -> list[Step]:
    return _path(tree, tree.root, node) or []


def _chains(steps: list[Step]) -> list[list[Step]]:
    """Steps grouped by checker: a step that starts where the last one ended continues it."""
    chains: list[list[Step]] = []
    for step in steps:
        if chains and chains[-1][-1].destination == step.source and step.source != OFF:
            chains[-1].append(step)
        else:
            chains.append([step])
    return chains


def _paths(tree: PlayTree, node: PartialPlay, start: int, end: int):
    """Every (last step, node) a single checker reaches from `start` to `end` (own count)."""
    frontier = [(node, start)]
    while frontier:
        at, point = frontier.pop()
        for step, child in tree.steps(at):
            if step.source != point:
                continue
            if step.destination == end:
                yield step, child
            elif step.destination > end:
                frontier.append((child, step.destination))


def _best_finish(tree: PlayTree, node: PartialPlay) -> tuple[int, int]:
    """The most dice, and then pips, any play through `node` can use."""
    children = tree.steps(node)
    if not children:
        used = len(tree.dice.steps) - len(node.dice_left)
        return used, sum(tree.dice.steps) - sum(node.dice_left)
    return max(_best_finish(tree, child) for _, child in children)
