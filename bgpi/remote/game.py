"""A remote game on a running board: the board joined to the other board (docs/remote.md).

`RemoteGame` is the one object between a board's `TableRunner` and the wire.  Opening
it reads the wire's journal (``remote.jsonl``, `bgpi.remote.outbox`), rebuilds the
`Peer` against the table's own journal, and starts the broker connection (`Transport`).
From then on, on the scan loop's thread only:

- each scan (`drain`) it takes what paho's thread queued (messages, the other board's
  presence, the broker coming and going), journals each message before the peer acts
  on it, and tells the peer the time (a reveal overdue);
- after each input the table took (`handled`) it tells the peer the events committed,
  so this board's decisions go across, names a refused action of the other board as
  the boards' disagreement, and publishes the events on the ``log`` topic (numbered,
  so a watcher drops a duplicate) and the board's retained ``state``;
- when the table wants dice (`dice`) it commits to a fresh secret and answers "not
  yet": the dice come when both boards have revealed, and are fed then.

What the peer answers is done in one place, `_do`: table inputs fed to the runner,
messages journaled then published, the link shown, lines said.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from pathlib import Path

from bgpi.exc import MessageError
from bgpi.remote import messages
from bgpi.remote.mqtt import Arrived, Broker, Heard, LinkDown, LinkUp, Presence, Transport
from bgpi.remote.outbox import Outbox
from bgpi.remote.peer import (
    Do,
    FeedRemote,
    FeedRolled,
    FeedRollWanted,
    Note,
    Peer,
    Send,
    SetLink,
    Standing,
)
from bgpi.remote.state import board_state
from bgpi.rules.position import Side
from bgpi.shell.journal import read_journal
from bgpi.shell.simtable import TableRunner
from bgpi.table import events as ev
from bgpi.table.inputs import LinkChanged, Remote, RollWanted
from bgpi.table.phases import Link, Phase


def standing(state: ev.State) -> Standing:
    """Where a table's game stands, from its ``state`` event."""
    return Standing(state.position_id, state.match_id)


class RemoteGame:
    """Board `runner`, playing `side` of game `game` with the other board through `broker`.

    `state_dir` holds both journals (the table's, already open and resumed by the caller,
    and the wire's).  `say` hears the lines a person should read; `clock` (seconds) times
    the other board's reveal; `secret` draws each roll's secret (32 bytes; tests seed it)."""

    def __init__(self, runner: TableRunner, state_dir: Path, broker: Broker, game: str, side: Side,
                 say: Callable[[str], None] = lambda line: None, clock: Callable[[], float] = time.monotonic,
                 secret: Callable[[], bytes] = lambda: secrets.token_bytes(32)) -> None:
        self.runner, self.game, self.side = runner, game, side
        self.say, self.clock, self.secret = say, clock, secret
        table = runner.table
        self.outbox, read = Outbox.open(state_dir)
        for problem in read.problems:
            say(problem)
        journal = read_journal(state_dir).events
        self.log_seq = len(journal)  # the number of the last event published on the log topic
        self._history = journal  # the session so far, for the log topic once connected (`start`)
        self.peer, todo = Peer.rebuild(game, side, table.config, read.lines, journal,
                                       standing(table.state_event()), clock())
        self.transport = Transport(broker, game, side)
        self._dice: tuple[int, int] | None = None  # made by both boards, not yet taken by the table
        self.arrivals = 0  # the other board's decisions and the dice fed so far (`awaited`)
        self._awaited = 0
        self._todo = todo  # done once the runner takes this game (`start`)

    def start(self) -> None:
        """Join the runner to the other board: from now on its dice and decisions come from there."""
        self.runner.other = self
        self.runner.table.reconnecting()
        self.transport.start()
        self._publish_history()
        self._do_all(self._todo)
        self._todo = []
        self.runner.show_lights()

    def _publish_history(self) -> None:
        """The session's events so far on the log topic, numbered as they stand in the journal:
        a watcher gets the session event (written before this board joined the other) and
        whatever it missed while this board was away, and drops what it has by number."""
        history, self._history = self._history, ()
        sessions = [at for at, event in enumerate(history) if isinstance(event, ev.NewSession)]
        for at in range(sessions[-1] if sessions else len(history), len(history)):
            self.transport.publish_log(history[at], at + 1)

    def close(self) -> None:
        """Leave the broker (``offline``) and close the wire's journal."""
        self.runner.other = None
        self.transport.stop()
        self.outbox.close()

    # -- the runner's side (OtherBoard) ------------------------------------------------------

    def dice(self) -> tuple[int, int] | None:
        """The dice both boards made, or None: this board's commitment sent, the rest under way."""
        if self._dice is not None:
            dice, self._dice = self._dice, None
            return dice
        peer = self.peer
        if peer.roll.mine is None and peer.disagreement is None:  # one secret a roll, drawn once
            self._do_all(peer.wants_roll(self.secret(), self.clock()))
        return None

    def handled(self, events: list[ev.Event]) -> None:
        table = self.runner.table
        state = table.state_event()
        if any(map(ev.is_game, events)):
            self._do_all(self.peer.local_events(events, standing(state)))
        refused = table.remote_refusal
        if refused is not None:
            self._do_all(self.peer.disagree(refused.reason))
        for event in events:
            self.log_seq += 1
            self.transport.publish_log(event, self.log_seq)
        self.publish_state(state)

    def drain(self) -> None:
        for heard in self.transport.drain():
            self._heard(heard)
        self._do_all(self.peer.tick(self.clock()))

    def awaited(self) -> bool:
        """True (once each) for each of the other board's decisions or dice fed: a board
        script's ``{"await": "remote"}`` line waits for it."""
        if self._awaited < self.arrivals:
            self._awaited += 1
            return True
        return False

    def publish_state(self, state: ev.State | None = None) -> None:
        """The board's retained state message, for watchers."""
        table = self.runner.table
        self.transport.publish_state(board_state(state or table.state_event(), self.game, self.side,
                                                 table.link.value, match_length=table.config.get("match")))

    # -- what was heard ------------------------------------------------------------------------

    def _heard(self, heard: Heard) -> None:
        match heard:
            case Arrived(raw=raw):
                try:
                    message = messages.parse(raw)
                except MessageError as error:
                    self.say(f"a message from the other board that is not one: {error}")
                    return
                self.outbox.received(message)  # on the disk before the peer acts on it
                self._do_all(self.peer.received(message, self.clock()))
            case Presence(online=online):
                self._do_all(self.peer.presence(online))
            case LinkUp():
                if self.runner.table.link in (Link.UNREACHABLE, Link.REFUSED):
                    self.runner.feed(LinkChanged(Link.CONNECTING))  # the broker is back: the other board next
                self._do_all(self.peer.reconnected())
            case LinkDown(refused=refused, line=line):  # the broker's reasons in the table's words
                self._do(SetLink(Link.REFUSED if refused else Link.UNREACHABLE, line))

    def _do_all(self, dos: list[Do]) -> None:
        for do in dos:
            self._do(do)

    def _do(self, do: Do) -> None:
        """Carry out one thing the peer asks (see the module docstring)."""
        runner = self.runner
        match do:
            case FeedRemote(event=event):
                self.arrivals += 1
                runner.feed(Remote(event))
            case FeedRollWanted() if runner.table.phase == Phase.ROLL:
                runner.feed(Remote(RollWanted()))
            case FeedRollWanted():
                pass  # the opening roll: this table asks for the dice itself once its start is pressed
            case FeedRolled(first=first, second=second):
                self.arrivals += 1
                self._dice = (first, second)
                runner.settle()  # taken now if the table wants them, else when it does
            case SetLink(link=link, line=line):
                if link is Link.DISAGREE and runner.table.link is not Link.DISAGREE:
                    self.outbox.disagreed(line)
                self.say(line)
                if runner.table.link is not link:
                    runner.feed(LinkChanged(link))
                    self.publish_state()
            case Send(message=message):
                self.outbox.sent(do)  # on the disk before it is published
                self.transport.publish(message)
            case Note(line=line):
                self.say(line)

