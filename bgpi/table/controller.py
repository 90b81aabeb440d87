"""The controller: the table's flow, as a deterministic state machine.

Inputs are what happens at the table (`Sensed` switch counts, button `Press`es,
`Tick`s of board time, and `Rolled` dice that the shell rolled when asked); the
output of each input is a list of table-log events (docs/board-script.md) and
the lights to show.  The controller reads no clock, no pins and no files.

`Table` is assembled from parts, each a module of this package: the state and how
committed events change it (`state`), following a turn on the board (`turn`), the
cube (`doubling`) and what the board shows (`view`).  This module holds the flow
between them: setup, the opening roll, rolls, mismatches and the end of a game.
"""

from __future__ import annotations

from bgpi.board.locations import Location, describe, in_order
from bgpi.rules.ids import position_id
from bgpi.rules.position import Side
from bgpi.rules.result import GameResult
from bgpi.table.advice import NO_ENGINE_SECONDS, RETRY, Advising
from bgpi.table.doubling import DROP_CONFIRM, Doubling
from bgpi.table.inputs import Advised, Input, Press, Rolled, Sensed, Tick
from bgpi.table.state import GRACE, TableState
from bgpi.table.tracker import Counts, Sensing
from bgpi.table.turn import FollowingTurn
from bgpi.table.view import TableView

STEADY = 0.5
"""Seconds a board must read right on end to end an unexplained spell: a chattering
switch that reads right now and then does not start the grace period anew each time."""

SESSION_LENGTHS: tuple[int, ...] = (1, 3, 5, 7, 9, 11, 0)
"""What the session chooser offers: matches to these lengths, and money play (0)."""


def _chooser_start(length: int) -> int:
    """The chooser shows the current session's kind first."""
    return length if length in SESSION_LENGTHS else SESSION_LENGTHS[0]


class Table(TableState, FollowingTurn, Doubling, Advising, TableView):
    """One table: a session of games, its state, and what the board shows.

    Build it with `Table.new(...)` for a new session, then feed it inputs with
    `handle`; or build it from a journal with `Table.resume(events, sensing)`.
    """

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

    @classmethod
    def resume_prefix(cls, events: list[dict], sensing: Sensing) -> tuple[Table | None, int]:
        """The table the longest prefix of `events` that applies cleanly leaves behind,
        and how many events that prefix holds; (None, 0) if not even the first event
        begins a session.  For a journal that may be damaged: an event of the wrong
        shape, or one the game does not allow there, ends the prefix."""
        if not events or events[0].get("event") != "session":
            return None, 0
        table = cls(sensing)
        applied = 0
        try:
            for event in events:
                table.apply(event)
                applied += 1
        except (ValueError, KeyError, TypeError, AttributeError, IndexError):
            # An event may fail halfway through changing the table: build it again
            # from the events before it, which applied cleanly.
            if applied == 0:
                return None, 0
            return cls.resume(events[:applied], sensing), applied
        return table, applied

    def owed(self) -> list[dict]:
        """The events a journal cut short between a game's end (its last play, a drop)
        and its ``game_over`` still owes (a power cut between the two, a damaged line):
        applied, and returned for the journal.  None for any other table."""
        self._out = []
        if self.phase == "over" and self.game is not None:
            dropper = self.dropper
            self._game_over(self.game.drop(dropper) if dropper is not None
                            else self.game.result(self.position))
        return self._out

    # -- inputs --------------------------------------------------------------------

    def handle(self, happened: Input) -> list[dict]:
        """The table-log events caused by one input (committed events already applied)."""
        self._out = []
        if isinstance(happened, Tick):
            self.now = happened.now
            self._check_grace()
            self._check_drop_time()
            self._check_hint_failed()
        elif isinstance(happened, Sensed):
            self.seen = happened.counts
            self._sensed()
        elif isinstance(happened, Press):
            self._pressed(happened.button, happened.long)
        elif isinstance(happened, Rolled):
            self._dice_rolled(happened.first, happened.second)
        elif isinstance(happened, Advised):
            self._advised(happened.request, happened.answer, happened.error)
        self._computer_turn()
        if self._out or not isinstance(happened, Tick):
            self._lights = None  # a tick changes nothing without saying so
        return self._out

    def next_deadline(self) -> float | None:
        """The next board time at which a `Tick` alone may change something (the end of
        a grace period, of a drop's question, the computer asking the engine again);
        None if time alone changes nothing.  The shell may skip the board time before
        it, and the `Tick`s in it, when nothing else happens."""
        deadlines = []
        if self.unexplained_since is not None and self.mismatch is None:
            deadlines.append(self.unexplained_since + GRACE)
        if self.explained_since is not None:
            deadlines.append(self.explained_since + STEADY)
        if self.drop_asked is not None:
            deadlines.append(self.drop_asked + DROP_CONFIRM)
        if self.hint_failed is not None:
            deadlines.append(self.hint_failed + NO_ENGINE_SECONDS)
        if self.advice_failed is not None and self.computer is not None:
            deadlines.append(self.advice_failed + RETRY)
        return min(deadlines, default=None)

    def _emit(self, event: dict) -> None:
        self.apply(event)
        self._out.append(event)

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
        """Start or stop the grace period of an unexplained board.

        A board that reads right again ends a mismatch at once, but ends an unexplained
        spell only once it has read right for `STEADY` on end (`_check_grace`)."""
        if not explained:
            self.explained_since = None
            if self.unexplained_since is None:
                self.unexplained_since = self.now
        elif self.mismatch is not None:
            self.mismatch = self.unexplained_since = self.explained_since = None
            self._emit({"event": "restored"})
        elif self.unexplained_since is not None and self.explained_since is None:
            self.explained_since = self.now

    def _check_grace(self) -> None:
        if self.explained_since is not None:
            if self.now - self.explained_since + 1e-9 >= STEADY:
                self.unexplained_since = self.explained_since = None
            return  # reading right now: no mismatch
        if self.unexplained_since is None or self.mismatch is not None:
            return
        if self.now - self.unexplained_since + 1e-9 < GRACE:
            return
        expected = self.node.position if self.node is not None else self.position
        self._mismatch(*self.sensing.difference(self.seen, self.sensing.of(expected)))

    def _mismatch(self, missing: dict[Location, int], extra: dict[Location, int]) -> None:
        """Pause play: the board shows what the game cannot explain.  One checker short
        on one location may be a switch there that no longer closes: the hint says so."""
        self.mismatch = {"missing": missing, "extra": extra}
        event = {
            "event": "mismatch",
            "missing": {str(loc): n for loc, n in missing.items()},
            "extra": {str(loc): n for loc, n in extra.items()},
        }
        if not extra and list(missing.values()) == [1]:
            where = describe(next(iter(missing)))
            event["hint"] = f"a checker should stand on {where}: if one does, a switch under it may be faulty"
        self._emit(event)

    # -- buttons ---------------------------------------------------------------------

    def _pressed(self, button: str, long: bool) -> None:
        owner, _, kind = button.partition(".")
        if button == "hint":
            self._hint_pressed()
            return
        side = Side.parse(owner)
        if side is self.computer and self.phase in ("roll", "doubled", "move", "choose"):
            return  # the computer's buttons are the engine's
        if self.phase == "new_session":
            self._choose_session(kind, long)
        elif self.phase in ("setup", "match_over"):
            if kind == "cube" and not self._practice_cube(side):
                self.chooser_from, self.phase = self.phase, "new_session"
                self.choosing = _chooser_start(self.settings.match_length)
            elif self.phase == "match_over":
                self._new_session(self.settings.match_length)
            else:
                self._start(side, kind)
        elif self.phase == "roll":
            if kind == "cube":
                self._double(side)
            elif side is self.turn and self.mismatch is None:
                self.wants_roll = "turn"
        elif self.phase == "doubled":
            self._answer(side, kind, long)
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

    def _practice_cube(self, side: Side) -> bool:
        """Whether *cube* in setup is the practice position's player on roll doubling."""
        return self.phase == "setup" and self.practice_turn is side

    def _start(self, side: Side, kind: str) -> None:
        """A press in setup: start the game if the board is set.  In a practice position
        the checkers are already set and the press is the first of the game: *turn* of
        the player on roll rolls, their *cube* doubles."""
        missing, extra = self.sensing.difference(self.seen or (), self._expected())
        if self.seen is None or missing or extra:
            wrong = []
            if missing:
                wrong.append("put checkers on the points lit soft white")
            if extra:
                wrong.append("take the extra checkers off the points lit violet")
            self._emit({
                "event": "rejected",
                "player": None,
                "reason": "set up the board first: " + " and ".join(wrong or ["the board is not read yet"]),
                "points": in_order([*missing, *extra]),
            })
            return
        on_roll = Side.WHITE if self.practice_turn is None else self.practice_turn
        self._emit({"event": "start", "position_id": position_id(self.position, on_roll)})
        if self.phase == "roll" and side is on_roll:
            if kind == "turn":
                self.wants_roll = "turn"
            else:
                self._double(side)

    # -- a new session chosen on the board --------------------------------------------

    def _choose_session(self, kind: str, long: bool) -> None:
        """The session chooser: *cube* shows the next match length, *turn* starts it,
        a held *cube* goes back."""
        if kind == "cube" and long:
            self.phase, self.choosing = self.chooser_from, None
        elif kind == "cube":
            at = SESSION_LENGTHS.index(self.choosing)
            self.choosing = SESSION_LENGTHS[(at + 1) % len(SESSION_LENGTHS)]
        else:
            self._new_session(self.choosing)

    def _new_session(self, length: int) -> None:
        """Start a new session (a match to `length`, or money play for 0), keeping the
        other settings; the board is then set up for its first game."""
        config = {key: value for key, value in self.config.items() if key != "match"}
        if length:
            config = {key: value for key, value in config.items()
                      if key not in ("jacoby", "beavers", "auto_doubles")} | {"match": length}
        self._emit({"event": "session", "config": config})

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
