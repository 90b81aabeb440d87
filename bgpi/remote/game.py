"""A remote game on a running board: the other board as an opponent of the table (docs/remote.md).

`RemoteGame` is the one object between a board's table and the wire: an opponent
(`bgpi.shell.opponents.Opponent`) and the maker of the table's dice
(`bgpi.shell.rolling.DiceSource`).  Opening it reads the wire's journal (``remote.jsonl``,
`bgpi.remote.outbox`), rebuilds the `Peer` against the table's own journal, and makes the
broker connection (`Transport`, started by `start`).  From then on, on the scan loop's
thread only, and never calling the runner, which asks:

- `take` (between inputs, and after each scan): what the peer asked for is done in
  order, one thing at a time (`_do`): messages journaled then published, lines said, and
  each table input (the other board's decision, the dice, the link) handed over, checked
  against the table as it stands then.  With nothing left to do, the next piece of news
  is told the peer: what paho's thread queued (the other board's messages, their seals
  opened there, the other board's presence, the broker coming and going), each message
  new to this board journaled before the peer acts on it, then the time.  A journal
  write the disk refuses waits for it (`patience`), as the table's journal does.  What was
  dropped (forged, replayed, too big: `bgpi.remote.drops`) is counted, never journaled;
- `hear` (after each input the table took): the events committed go to the peer, so
  this board's decisions go across, a refused action of the other board is named as
  the boards' disagreement, and the board's retained ``state`` is published;
- `roll` (when the table wants dice): it commits to a fresh secret and answers "not
  yet": the dice come when both boards have revealed, through `take`.

What the peer asks while the table takes an input (`hear`, `roll`) is done before what
was asked earlier, as it follows from that input.  The table's events go to the ``log``
topic through `log`, a sink of the runner's, numbered as they stand in the journal.
"""

from __future__ import annotations

import secrets
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from bgpi.remote.drops import DropCount, Dropped
from bgpi.remote.mqtt import Arrived, Broker, Heard, LinkDown, LinkUp, Presence, Transport
from bgpi.remote.outbox import Outbox
from bgpi.remote.pairing import Pairing
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
from bgpi.shell.diskfull import Patience, at_once
from bgpi.shell.journal import read_journal
from bgpi.table import events as ev
from bgpi.table.controller import Table
from bgpi.table.inputs import Input, LinkChanged, Press, Remote, Rolled, RollWanted
from bgpi.table.phases import Link, Phase


def standing(state: ev.State) -> Standing:
    """Where a table's game stands, from its ``state`` event."""
    return Standing(state.position_id, state.match_id)


@dataclass(frozen=True, slots=True)
class Connecting:
    """Show the link as connecting, if the table has it otherwise: the game (re)joined,
    until the other board is here."""


@dataclass(frozen=True, slots=True)
class BrokerBack:
    """The broker is back: the link is connecting to the other board, if the table
    showed the broker unreachable or refusing."""


@dataclass(frozen=True, slots=True)
class TimeNow:
    """Tell the peer the time (after what paho's thread queued): a reveal may be overdue."""


@dataclass(frozen=True, slots=True)
class PublishState:
    """Publish the board's retained state (after the link shown changed)."""


ToDo = Do | Connecting | BrokerBack | PublishState
"""What the peer asks, and the game's own steps, done in order by `take`."""


class LogTopic:
    """A sink of the runner's: each table-log event published on the game's ``log`` topic,
    numbered as it stands in the journal (a watcher drops a number it has)."""

    def __init__(self, transport: Transport, published: int) -> None:
        self.transport = transport
        self.seq = published
        """The number of the last event published: the journal's length when the game opened."""

    def hear(self, event: ev.Event) -> None:
        self.seq += 1
        self.transport.publish_log(event, self.seq)


class RemoteGame:
    """The board playing `side` of the game of `pairing` with the other board through
    `broker`, its table `table` as it stands when joined (read for the session and where
    it stands).

    `state_dir` holds both journals (the table's, already open and resumed by the caller,
    and the wire's).  `say` hears the lines a person should read; `clock` (seconds) times
    the other board's reveal; `secret` draws each roll's secret (32 bytes; tests seed it);
    `patience` makes each write to the wire's journal (`bgpi run`'s waits through a full
    disk; once it says the board is stopping, nothing more is done)."""

    def __init__(self, table: Table, state_dir: Path, broker: Broker, pairing: Pairing, side: Side,
                 say: Callable[[str], None] = lambda line: None, clock: Callable[[], float] = time.monotonic,
                 secret: Callable[[], bytes] = lambda: secrets.token_bytes(32), patience: Patience = at_once) -> None:
        game = pairing.game
        self.game, self.side = game, side
        self.say, self.clock, self.secret = say, clock, secret
        self.stopping = False  # a journal write given up: the board is stopping
        self.outbox, read = Outbox.open(state_dir, self._patiently(patience))
        for problem in read.problems:
            say(problem)
        journal = read_journal(state_dir).events
        self._history = journal  # the session so far, for the log topic once connected (`start`)
        self.peer, todo = Peer.rebuild(game, side, table.config, read.lines, journal,
                                       standing(table.state_event()), clock(),
                                       lambda at: standing(Table.resume(journal[:at], table.sensing).state_event()))
        self.transport = Transport(broker, pairing, side)
        self.drops = DropCount()  # what was heard and dropped before anything acted on it
        self.log = LogTopic(self.transport, len(journal))
        self.arrivals = 0  # the other board's decisions and the dice handed over so far (`awaited`)
        self._awaited = 0
        self._todo: deque[ToDo] = deque([Connecting(), *todo])  # done by `take`, in order
        self._asked: list[ToDo] = []  # asked while the table took an input: done before `_todo`
        self._news: deque[Heard | TimeNow] = deque()  # gathered, not yet told the peer

    def _patiently(self, patience: Patience) -> Patience:
        """`patience`, after which the first write given up stops this game for good."""
        def write(line: Callable[[], None]) -> bool:
            written = not self.stopping and patience(line)
            self.stopping = not written
            return written

        return write

    def start(self) -> None:
        """Connect to the broker and publish the session so far; the table is handed what
        the rebuilt peer has for it when the runner first takes (`join`)."""
        self.transport.start()
        self._publish_history()

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
        self.transport.stop()
        self.outbox.close()

    # -- the table's side: an opponent, and its dice ----------------------------------------------

    def take(self, table: Table) -> Input | None:
        """The next input the other board has for `table`, if any (see the module docstring)."""
        self._todo.extendleft(reversed(self._asked))
        self._asked = []
        gathered = False
        while not self.stopping:
            while self._todo and not self.stopping:
                happened = self._do(self._todo.popleft(), table)
                if happened is not None:
                    return happened
            if not self._news:
                if gathered:
                    if not (stalled := self._stalled(table)):
                        return None
                    self._todo.extend(stalled)
                    continue
                self._news.extend(self.transport.drain())
                self._news.append(TimeNow())
                gathered = True
            self._todo.extend(self._told(self._news.popleft()))
        return None

    def _stalled(self, table: Table) -> list[ToDo]:
        """With nothing left to do: if this table waits for the other board's decision while
        the other board's next action waits for this table to catch up, the two would wait
        for each other for ever; the peer names it a disagreement instead."""
        if not self.peer.ready:
            return []
        prompt = table.prompt()
        return list(self.peer.stalled()) if prompt is not None and prompt.asks == "remote_turn" else []

    def hear(self, events: Sequence[ev.Event], table: Table) -> None:
        """The events `table` committed for one input: this board's decisions go across, a
        refused action of the other board is the boards' disagreement; the state is published."""
        state = table.state_event()
        if any(map(ev.is_game, events)):
            self._asked += self.peer.local_events(events, standing(state))
        refused = next((event for event in events if isinstance(event, ev.RemoteRefused)), None)
        if refused is not None:
            self._asked += self.peer.disagree(refused.reason)
        self.publish_state(table, state)

    def roll(self) -> tuple[int, int] | None:
        """The dice both boards made for the table's next roll, or None: this board's
        commitment on its way, the rest under way.  The peer's count of the table's rolls
        says which dice are the next roll's, never the order in which things were done."""
        peer = self.peer
        if (made := peer.unrolled) is not None:
            return made
        if peer.roll.mine is None and peer.disagreement is None:  # one secret a roll, drawn once
            self._asked += peer.wants_roll(self.secret(), self.clock())
        return None

    def awaited(self) -> bool:
        """True (once each) for each of the other board's decisions or dice handed over: a
        board script's ``{"await": "remote"}`` line waits for it."""
        if self._awaited < self.arrivals:
            self._awaited += 1
            return True
        return False

    def publish_state(self, table: Table, state: ev.State | None = None) -> None:
        """The board's retained state message, for watchers."""
        self.transport.publish_state(board_state(state or table.state_event(), self.game, self.side,
                                                 table.link.value, match_length=table.config.get("match")))

    # -- what was heard ------------------------------------------------------------------------

    def _told(self, news: Heard | TimeNow) -> list[ToDo]:
        """Tell the peer one piece of news; what it asks to do."""
        match news:
            case TimeNow():
                now = self.clock()
                summed = self.drops.due(now)
                return [*([] if summed is None else [Note(summed)]), *self.peer.tick(now)]
            case Dropped():
                line = self.drops.drop(news, self.clock())
                return [] if line is None else [Note(line)]
            case Arrived(message=message):
                why = self.peer.unwanted(message)
                if why is not None:  # had already, or too far ahead: never journaled
                    return self._told(Dropped(why, f"message {message.seq} of the other board ({why.value})"))
                if not self.outbox.received(message):  # on the disk before the peer acts on it
                    return []
                return list(self.peer.received(message, self.clock()))
            case Presence(online=online):
                return list(self.peer.presence(online))
            case LinkUp():
                return [BrokerBack(), *self.peer.reconnected()]  # the broker is back: the other board next
            case LinkDown(refused=refused, line=line):  # the broker's reasons in the table's words
                return [SetLink(Link.REFUSED if refused else Link.UNREACHABLE, line)]
        return []

    def _do(self, do: ToDo, table: Table) -> Input | None:
        """Carry out one thing asked; the table's input it comes to, if any."""
        match do:
            case FeedRemote(event=event):
                self.arrivals += 1
                return Remote(event)
            case FeedRollWanted(resumed=resumed) if table.phase == Phase.ROLL and (
                    not resumed or (table.turn in table.remotes and table.wants_roll is None)):
                return Remote(RollWanted())
            case FeedRollWanted(resumed=True) if table.phase == Phase.ROLL and table.turn is self.side \
                    and table.wants_roll is None:
                # This board's player asked for the dice before the power cut (its commitment
                # is out): the press is made again, not left for a cube they may then want.
                return Press(f"{self.side.label}.turn")
            case FeedRollWanted():
                pass  # the opening roll: this table asks once its start is pressed
            case FeedRolled(first=first, second=second):
                self.arrivals += 1
                if table.wants_roll is not None and self.peer.unrolled == (first, second):
                    return Rolled(first, second)
                # else taken when the table wants them (`roll`), if it has not rolled them yet
            case SetLink(link=link, line=line):
                if link is Link.DISAGREE and table.link is not Link.DISAGREE:
                    self.outbox.disagreed(line)
                self.say(line)
                if table.link is not link:
                    self._todo.appendleft(PublishState())
                    return LinkChanged(link)
            case Send(message=message):
                if self.outbox.sent(do):  # on the disk before it is published
                    self.transport.publish(message)
            case Note(line=line):
                self.say(line)
            case Connecting() if table.remotes and table.link is not Link.CONNECTING:
                return LinkChanged(Link.CONNECTING)
            case BrokerBack() if table.link in (Link.UNREACHABLE, Link.REFUSED):
                return LinkChanged(Link.CONNECTING)
            case PublishState():
                self.publish_state(table)
        return None
