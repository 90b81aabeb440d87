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

from collections.abc import Mapping, Sequence
from typing import Any

from bgpi.board.locations import Location, describe, in_order
from bgpi.exc import JournalStartError
from bgpi.rules.ids import position_id
from bgpi.rules.position import Side
from bgpi.rules.result import GameResult
from bgpi.table import events as ev
from bgpi.table.advice import NO_ENGINE_SECONDS, RETRY, Advising
from bgpi.table.doubling import DROP_CONFIRM, Doubling
from bgpi.table.inputs import Advised, Input, Press, Rolled, Sensed, Tick
from bgpi.table.phases import Phase, RollFor
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
    ) -> tuple[Table, list[dict[str, Any]]]:
        """A new session; returns the table and its opening `session` event."""
        event = ev.NewSession(dict(config or {}))
        if position_id_text is not None:
            event = ev.NewSession(event.config, position_id_text, Side.WHITE if turn is None else turn,
                                  match_id_text or None)
        table = cls(sensing)
        table.apply(event)
        return table, [event.to_json()]

    @classmethod
    def resume(cls, events: Sequence[Mapping[str, Any]], sensing: Sensing) -> Table:
        """The table a journal of events leaves behind.  Raises JournalStartError if it has
        no session event first, EventError for an event of the wrong shape."""
        if not events or events[0].get("event") != "session":
            raise JournalStartError("the journal does not begin with a session event")
        table = cls(sensing)
        for event in events:
            table.apply(ev.parse(event))
        return table

    @classmethod
    def resume_prefix(cls, events: Sequence[Mapping[str, Any]], sensing: Sensing) -> tuple[Table | None, int]:
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
                table.apply(ev.parse(event))
                applied += 1
        except (ValueError, KeyError, TypeError, AttributeError, IndexError):
            # An event may fail halfway through changing the table: build it again
            # from the events before it, which applied cleanly.
            if applied == 0:
                return None, 0
            return cls.resume(events[:applied], sensing), applied
        return table, applied

    def owed(self) -> list[dict[str, Any]]:
        """The events a journal cut short between a game's end (its last play, a drop)
        and its ``game_over`` still owes (a power cut between the two, a damaged line):
        applied, and returned for the journal.  None for any other table."""
        self._out = []
        if self.phase == Phase.OVER and self.game is not None:
            dropper = self.dropper
            self._game_over(self.game.drop(dropper) if dropper is not None
                            else self.game.result(self.position))
        return [event.to_json() for event in self._out]

    # -- inputs --------------------------------------------------------------------

    def handle(self, happened: Input) -> list[dict[str, Any]]:
        """The table-log events caused by one input (committed events already applied),
        in their JSON form: what the shell journals, logs and streams."""
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
        return [event.to_json() for event in self._out]

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

    def _emit(self, event: ev.Event) -> None:
        self.apply(event)
        self._out.append(event)

    # -- the board -----------------------------------------------------------------

    def _expected(self) -> Counts:
        return self.sensing.of(self.position)

    def _sensed(self) -> None:
        if self.phase in (Phase.SETUP, Phase.MATCH_OVER):
            return
        if self.phase in (Phase.MOVE, Phase.CHOOSE):
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
            self._emit(ev.Restored())
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
        hint = None
        if not extra and list(missing.values()) == [1]:
            where = describe(next(iter(missing)))
            hint = f"a checker should stand on {where}: if one does, a switch under it may be faulty"
        self.mismatch = ev.Mismatch(missing, extra, hint)
        self._emit(self.mismatch)

    # -- buttons ---------------------------------------------------------------------

    def _pressed(self, button: str, long: bool) -> None:
        owner, _, kind = button.partition(".")
        if button == "hint":
            self._hint_pressed()
            return
        side = Side.parse(owner)
        if side is self.computer and self.phase in (Phase.ROLL, Phase.DOUBLED, Phase.MOVE, Phase.CHOOSE):
            return  # the computer's buttons are the engine's
        if self.phase == Phase.NEW_SESSION:
            self._choose_session(kind, long)
        elif self.phase in (Phase.SETUP, Phase.MATCH_OVER):
            if kind == "cube" and not self._practice_cube(side):
                self.chooser_from, self.phase = self.phase, Phase.NEW_SESSION
                self.choosing = _chooser_start(self.settings.match_length)
            elif self.phase == Phase.MATCH_OVER:
                self._new_session(self.settings.match_length)
            else:
                self._start(side, kind)
        elif self.phase == Phase.ROLL:
            if kind == "cube":
                self._double(side)
            elif side is self.turn and self.mismatch is None:
                self.wants_roll = RollFor.TURN
        elif self.phase == Phase.DOUBLED:
            self._answer(side, kind, long)
        elif self.phase in (Phase.MOVE, Phase.CHOOSE):
            if kind == "cube" and self.phase == Phase.MOVE:
                self._double(side)  # refused: after rolling, or not this player's turn
                return
            if side is not self.turn:
                if self.lenient_offer and kind == "turn":
                    self._accept_as_made()
                return
            if self.phase == Phase.CHOOSE:
                if kind == "cube":
                    self.choice = (self.choice + 1) % len(self.candidates)
                else:
                    self._commit(self.candidates[self.choice])
            elif kind == "turn":
                self._try_commit()

    def _practice_cube(self, side: Side) -> bool:
        """Whether *cube* in setup is the practice position's player on roll doubling."""
        return self.phase == Phase.SETUP and self.practice_turn is side

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
            reason = "set up the board first: " + " and ".join(wrong or ["the board is not read yet"])
            self._emit(ev.Rejected(None, reason, tuple(in_order([*missing, *extra]))))
            return
        on_roll = Side.WHITE if self.practice_turn is None else self.practice_turn
        self._emit(ev.Start(position_id(self.position, on_roll)))
        if self.phase == Phase.ROLL and side is on_roll:
            if kind == "turn":
                self.wants_roll = RollFor.TURN
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
        self._emit(ev.NewSession(config))

    def _dice_rolled(self, first: int, second: int) -> None:
        request, self.wants_roll = self.wants_roll, None
        if request == RollFor.OPENING:
            if first == second:
                self._emit(ev.Tie(first, second, self.game.opening(first, second).cube.value))
                return
            starts = Side.WHITE if first > second else Side.BLACK
            self._emit(ev.Opening(first, second, starts, self.game.cube.value))
        elif request == RollFor.TURN:
            self._emit(ev.Roll(self.turn, (first, second)))
        if self.phase == Phase.MOVE and self.seen is not None:
            self._track()

    def _game_over(self, result: GameResult) -> None:
        session = self.session.record(result)
        self._emit(ev.GameOver.of(result, session.score))
        if session.is_over:
            self._emit(ev.MatchOver(session.winner, session.score.as_dict()))
