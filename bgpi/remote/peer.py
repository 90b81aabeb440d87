"""The other board, as this board sees it: the wire's state machine (docs/remote.md).

A `Peer` is told what happened (the local table's committed events, a message from the
other board, the local table asking for dice, the time, the broker connection coming
back) and answers what to do, as values: table inputs to feed (`FeedRemote`,
`FeedRollWanted`, `FeedRolled`), the link to show (`SetLink`), messages to send (`Send`),
and lines to show that change nothing (`Note`).  It reads no clock and no socket: the same
calls give the same answers, which is what lets `Peer.rebuild` bring a board killed
mid-game back to where it was from its journal of messages (bgpi/remote/outbox.py).

What it keeps:
- the order of the wire: each board numbers its messages 1, 2, ...; a duplicate is
  dropped, a message ahead of a gap is held until the gap fills (and the other board is
  asked for what is missing), and everything sent stays in `outbox` until the other
  board's ``hello`` says it has it;
- the game's agreement: the other board's action must come when this board has the same
  number of game events and the same position and match IDs; anything else is a
  disagreement, named in one line, after which the peer stops for good (never a merge);
- the dice: both boards commit, then both reveal, and only then are there dice (bgpi/remote/dice.py).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bgpi.exc import DiceCheatError
from bgpi.remote import dice
from bgpi.remote.drops import Drop
from bgpi.remote.messages import (
    MAX_LINE,
    Action,
    ActionEvent,
    Bye,
    Commit,
    Disagree,
    Hello,
    Message,
    Reveal,
    shared_session,
)
from bgpi.rules.position import Side
from bgpi.table import events as ev
from bgpi.table.phases import Link

REVEAL_SECONDS = 10.0
"""How long the other board has to reveal its dice secret once both are committed."""

CLAIM_SECONDS = 300.0
"""How long the other board may be away (gone, stopped, or its reveal overdue) before the
player here may claim the game (`Link.ABANDONED`; `bgpi.table.resigning`)."""

MAX_HELD = 256
"""Messages held ahead of a gap at most: more is a board gone wrong, not a slow broker."""

ROLL_EVENTS = (ev.Tie, ev.Opening, ev.Roll)
"""The events that use one dice exchange each."""


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a table's game stands: its position and match IDs (`Table.state_event`'s)."""

    position_id: str
    match_id: str | None


# -- what to do ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FeedRemote:
    """Feed the table the other board's action (the core's `Remote(event)`)."""

    event: ActionEvent


@dataclass(frozen=True, slots=True)
class FeedRollWanted:
    """Feed the table that the other board's player asked for the dice (`RollWanted()`).

    `resumed`: asked again by a board restarted with a dice exchange under way (its table
    does not journal that it wanted the dice): in the other player's turn it is their
    ask; in this board's own turn, its own player's press for the dice, made again."""

    resumed: bool = False


@dataclass(frozen=True, slots=True)
class FeedRolled:
    """Feed the table the dice both boards made (`Rolled(first, second)`)."""

    first: int
    second: int


@dataclass(frozen=True, slots=True)
class SetLink:
    """Feed the table `LinkChanged(link)` and show `line`."""

    link: Link
    line: str


@dataclass(frozen=True, slots=True)
class Send:
    """Journal `message` (with `secret`, the commitment's own secret, kept on this board
    only), then publish it."""

    message: Message
    secret: bytes | None = None


@dataclass(frozen=True, slots=True)
class Note:
    """Show `line`; nothing else changes (a message that is not for this game, say)."""

    line: str


Do = FeedRemote | FeedRollWanted | FeedRolled | SetLink | Send | Note


# -- the journal's lines, as the peer reads them back ------------------------------------


@dataclass(frozen=True, slots=True)
class Sent:
    message: Message
    secret: bytes | None = None


@dataclass(frozen=True, slots=True)
class Received:
    message: Message


@dataclass(frozen=True, slots=True)
class Disagreed:
    line: str


Line = Sent | Received | Disagreed


@dataclass(slots=True)
class DiceRoll:
    """One dice exchange under way: roll `number` of the session."""

    number: int
    mine: bytes | None = None  # this board's secret, once committed
    their_hash: str | None = None  # the other board's commitment
    theirs: bytes | None = None  # the other board's secret, once revealed and checked
    revealed: bool = False  # this board's secret sent
    due: float | None = None  # when the other's secret is overdue


class Peer:
    """The other board of game `game`, seen from the board playing `side`.

    Its attributes are for reading (and for tests): `sent` (the last seq used), `seen`
    (the last seq received in order), `outbox` (sent, not yet acknowledged), `held`
    (received ahead of a gap), `ready` (received, waiting for this table to catch up),
    `game_events` and `rolls` (the local table's counts), `roll` (the exchange under way),
    `link` (what the peer last said of the link), `disagreement` (its line, if any)."""

    def __init__(self, game: str, side: Side, session: Mapping[str, Any],
                 standing: Standing = Standing("", None)) -> None:
        self.game = game
        self.side = side
        self.other = side.opponent
        self.session = shared_session(session)
        self.standing = standing
        self.sent = 0
        self.outbox: list[Message] = []
        self.seen = 0
        self.held: dict[int, Message] = {}
        self.ready: deque[Message] = deque()
        self.asked = 0  # the first missing seq last asked for
        self.game_events = 0
        self.rolls = 0
        self.roll = DiceRoll(1)
        self.last_dice: tuple[int, int] | None = None
        self.link = Link.CONNECTING
        self.away_since = 0.0  # when the link last became away: the claim's clock
        self.disagreement: str | None = None
        self._theirs = False  # the other board found the disagreement, and told this one
        self.now = 0.0  # the latest time told: when a reveal sent now falls due
        self._replayed: list[Action] | None = None  # while rebuilding: the actions acted on

    # -- what the local table did --------------------------------------------------------

    def local_events(self, events: Iterable[ev.Event], standing: Standing) -> list[Do]:
        """The local table committed `events` (one input's, in order); its game stands at
        `standing` after them.  Its own side's decisions go to the other board, stamped
        with the count and IDs before them; an action of the other board waiting for
        this table to catch up may now be fed."""
        out: list[Do] = []
        before = self.standing
        for event in events:
            if isinstance(event, ActionEvent) and event.player is self.side and self.disagreement is None:
                out.append(self._send(Action(self.game, self.side, self.sent + 1, event, self.game_events,
                                             before.match_id, before.position_id)))
            self._count(event)
        self.standing = standing
        return out + self._drain()

    def _count(self, event: ev.Event) -> None:
        self.game_events += ev.is_game(event)
        self.rolls += isinstance(event, ROLL_EVENTS)

    def wants_roll(self, secret: bytes, now: float) -> list[Do]:
        """The local table wants dice: commit to `secret` (fresh from `secrets.token_bytes`)
        for the roll under way.  Nothing if already committed (a resumed board asking again)."""
        self.now = now
        if self.disagreement is not None or self.roll.mine is not None:
            return []
        commit = Commit(self.game, self.side, self.sent + 1, self.roll.number, dice.commitment(secret))
        return self._committed(commit, secret)

    def reconnected(self) -> list[Do]:
        """The broker connection is (back) up: greet the other board (tell it again the
        boards disagree, if they do)."""
        if self.disagreement is not None:
            return [SetLink(Link.DISAGREE, self.disagreement), *([] if self._theirs else [self._tell_disagreement()])]
        self.link = Link.CONNECTING
        return [self._hello()]

    def presence(self, online: bool) -> list[Do]:
        """The other board's presence changed (``offline``: its last will, it is gone;
        ``online``: it is (back) on the broker, and is greeted: a board restarted learns
        from this board's hello that it is here)."""
        if online and self.disagreement is None:
            return [self._hello()]
        if online:
            return []
        return self._away(f"the other board ({self.other.label}) is gone: waiting for it to come back")

    def tick(self, now: float) -> list[Do]:
        """The time is `now`: the other board that has not revealed its dice in time is
        away; away for `CLAIM_SECONDS`, it has abandoned the game."""
        self.now = now
        due = self.deadline
        if due is None or now < due:
            return []
        if self.link is Link.AWAY:
            self.link = Link.ABANDONED
            return [SetLink(Link.ABANDONED, f"the other board ({self.other.label}) has been away for "
                                            f"{CLAIM_SECONDS:g} s: the game may be claimed here (hold turn, "
                                            f"then turn)")]
        return self._away(f"the other board ({self.other.label}) did not reveal its dice for roll "
                          f"{self.roll.number} within {REVEAL_SECONDS:g} s: waiting for it")

    @property
    def deadline(self) -> float | None:
        """When `tick` may next change something; None if time alone changes nothing."""
        if self.link is Link.AWAY:
            return self.away_since + CLAIM_SECONDS
        roll = self.roll
        if roll.due is None or roll.theirs is not None or self.link in (Link.ABANDONED, Link.DISAGREE):
            return None
        return roll.due

    def _away(self, line: str) -> list[Do]:
        """The other board is away (gone, stopped, its reveal overdue): said once, and the
        claim's clock starts."""
        if self.link in (Link.AWAY, Link.ABANDONED, Link.DISAGREE):
            return []
        self.link, self.away_since = Link.AWAY, self.now
        return [SetLink(Link.AWAY, line)]

    # -- what the other board sent -----------------------------------------------------------

    def unwanted(self, message: Message) -> Drop | None:
        """Why the other board's `message` (its seal checked) is not taken: this board has it
        (a resend, a replay), or it is too far ahead of a gap; None for a message to journal
        and act on (`received`)."""
        if message.seq <= self.seen or message.seq in self.held:
            return Drop.REPEATED
        if message.seq > self.seen + 1 + MAX_HELD:
            return Drop.TOO_FAR
        return None

    def received(self, message: Message, now: float) -> list[Do]:
        """A message from the broker, already journaled and parsed (`messages.parse`)."""
        self.now = now
        if self.disagreement is not None:
            return []
        if message.game != self.game:
            return [Note(f"a message for game {message.game!r} on game {self.game!r}'s topic: ignored")]
        if message.sender is not self.other:
            return [Note(f"a message on {self.other.label}'s topic that says it is from {message.sender.label}"
                         f" (this board's side): ignored")]
        if message.seq <= self.seen or message.seq in self.held:
            return []  # a duplicate: the broker's redelivery, or a resend
        out: list[Do] = []
        if message.seq > self.seen + 1 + MAX_HELD:
            return [Note(f"message {message.seq} of the other board is too far ahead of {self.seen}: dropped")]
        self.held[message.seq] = message
        if isinstance(message, Hello):  # acted on at once: a hello behind a gap must still bring the resend
            out += self._greeted(message)
        if isinstance(message, Disagree):  # at once too: a board that disagrees resends nothing
            self._theirs = True
            return self.disagree(f"the other board ({self.other.label}) found the boards disagree: {message.line}",
                                 tell=False)
        while self.seen + 1 in self.held:
            self.seen += 1
            self.ready.append(self.held.pop(self.seen))
        if self.held and self.asked != self.seen + 1:
            self.asked = self.seen + 1
            out.append(self._hello())  # "I have up to seen": the other resends what is missing
        return out + self._drain()

    def _drain(self) -> list[Do]:
        """Act on the messages received in order, stopping at an action this table is not ready for."""
        out: list[Do] = []
        while self.ready and self.disagreement is None:
            head = self.ready[0]
            if isinstance(head, Action) and self._replayed is None and head.at > self.game_events:
                break  # this table has not yet committed what the other board had before it
            self.ready.popleft()
            out += self._act(head)
        return out

    def _act(self, message: Message) -> list[Do]:
        match message:
            case Action():
                return self._action(message)
            case Commit():
                return self._commit(message)
            case Reveal():
                return self._reveal(message)
            case Bye():
                return self._away(f"the other board ({self.other.label}) stopped: waiting for it to come back")
        return []  # a hello: acted on when it arrived

    def _greeted(self, hello: Hello) -> list[Do]:
        if hello.session != self.session:
            different = sorted(key for key in hello.session.keys() | self.session.keys()
                               if hello.session.get(key) != self.session.get(key))
            return self.disagree(f"the boards' sessions differ ({', '.join(different)}): "
                                  f"start the same session on both")
        self.outbox = [message for message in self.outbox if message.seq > hello.seen]
        out: list[Do] = [Send(message) for message in self.outbox]
        if self.link != Link.CONNECTED:
            self.link = Link.CONNECTED
            out.append(SetLink(Link.CONNECTED, f"the other board ({self.other.label}) is here"))
        return out

    def _action(self, action: Action) -> list[Do]:
        event = action.event
        if self._replayed is not None:
            self._replayed.append(action)
            return []
        if action.at < self.game_events:
            return self.disagree(f"the other board's {event.kind} came after {action.at} game events; this board "
                                  f"has {self.game_events}")
        here = self.standing
        if (action.position_id, action.match_id) != (here.position_id, here.match_id):
            which = "position" if action.position_id != here.position_id else "match"
            there = action.position_id if which == "position" else action.match_id
            mine = here.position_id if which == "position" else here.match_id
            return self.disagree(f"the boards' {which} IDs differ before {self.other.label}'s {event.kind}: "
                                  f"here {mine}, there {there}")
        return [FeedRemote(event)]

    def stalled(self) -> list[Do]:
        """The local table waits for the other board's decision (the shell says so): if the
        other board's next action waits in turn for this table to catch up, nothing will
        ever move either board.  A disagreement, named, never a silent stall."""
        head = self.ready[0] if self.ready else None
        if not isinstance(head, Action) or head.at <= self.game_events:
            return []
        return self.disagree(f"the boards' games differ: the other board's {head.event.kind} came after {head.at} "
                             f"game events; this board has {self.game_events} and waits for the other board")

    # -- the dice -------------------------------------------------------------------------------

    @property
    def unrolled(self) -> tuple[int, int] | None:
        """The dice both boards made that the local table has not rolled yet, if any: those
        of the exchange after the table's last roll (`rolls`), once it is done."""
        made = self.last_dice is not None and self.roll.number - 1 == self.rolls + 1
        return self.last_dice if made else None

    def _committed(self, commit: Commit, secret: bytes) -> list[Do]:
        self.roll.mine = secret
        return [self._send(commit, secret), *self._send_reveal()]

    def _commit(self, commit: Commit) -> list[Do]:
        roll = self.roll
        if commit.roll != roll.number:
            return self.disagree(f"the boards' roll numbers differ: the other board commits to roll {commit.roll}, "
                                  f"this board is at roll {roll.number}")
        if roll.their_hash is not None:
            if roll.their_hash == commit.hash:
                return []
            return self.disagree(f"the other board ({self.other.label}) sent a second, different dice commitment "
                                  f"for roll {roll.number}")
        roll.their_hash = commit.hash
        if roll.mine is None:
            return [FeedRollWanted()]
        return self._send_reveal()

    def _send_reveal(self) -> list[Do]:
        roll = self.roll
        if roll.mine is None or roll.their_hash is None or roll.revealed:
            return []
        roll.revealed = True
        roll.due = self.now + REVEAL_SECONDS
        return [self._send(Reveal(self.game, self.side, self.sent + 1, roll.number, roll.mine))]

    def _reveal(self, reveal: Reveal) -> list[Do]:
        roll = self.roll
        if reveal.roll != roll.number:
            return self.disagree(f"the boards' roll numbers differ: the other board reveals roll {reveal.roll}, "
                                  f"this board is at roll {roll.number}")
        if roll.their_hash is None or roll.mine is None:
            return self.disagree(f"the other board ({self.other.label}) revealed its dice secret for roll "
                                  f"{roll.number} before both commitments were made")
        try:
            dice.check_reveal(roll.number, reveal.secret, roll.their_hash, self.other)
        except DiceCheatError as error:
            return self.disagree(str(error))
        white, black = (roll.mine, reveal.secret) if self.side is Side.WHITE else (reveal.secret, roll.mine)
        self.last_dice = dice.dice_of(self.game, roll.number, white, black)
        self.roll = DiceRoll(roll.number + 1)
        out: list[Do] = [FeedRolled(*self.last_dice)]
        if self.link in (Link.AWAY, Link.ABANDONED):
            self.link = Link.CONNECTED
            out.append(SetLink(Link.CONNECTED, f"the other board ({self.other.label}) is back"))
        return out

    # -- sending ----------------------------------------------------------------------------------

    def _send(self, message: Message, secret: bytes | None = None) -> Send:
        self.sent = message.seq
        self.outbox.append(message)
        return Send(message, secret)

    def _hello(self) -> Send:
        return self._send(Hello(self.game, self.side, self.sent + 1, self.seen, self.session, self.game_events))

    def disagree(self, line: str, tell: bool = True) -> list[Do]:
        """The boards disagree (found here, or the table refused the other's action:
        `Table.remote_refusal`; or, not to `tell`, the other board said so): say so, tell
        the other board, and stop for good."""
        if self.disagreement is not None:
            return []
        self.disagreement = line
        self.link = Link.DISAGREE
        return [SetLink(Link.DISAGREE, line), *([self._tell_disagreement()] if tell else [])]

    def _tell_disagreement(self) -> Send:
        """The other board told the boards disagree: the message sent before, again, else a new one."""
        told = next((message for message in self.outbox if isinstance(message, Disagree)), None)
        if told is not None:
            return Send(told)
        return self._send(Disagree(self.game, self.side, self.sent + 1, (self.disagreement or "")[:MAX_LINE]))

    # -- resuming -----------------------------------------------------------------------------------

    @classmethod
    def rebuild(cls, game: str, side: Side, session: Mapping[str, Any], lines: Iterable[Line],
                table_events: Sequence[ev.Event], standing: Standing, now: float,
                standing_before: Callable[[int], Standing] | None = None) -> tuple[Peer, list[Do]]:
        """The peer of a board restarted: its journal of messages `lines` replayed in
        order, against the local table's journal `table_events` (read back) and its
        `standing`.  Returns it and what to do now: this board's own action its table
        journaled but the wire's journal never sent (cut off between the two journals:
        sent now, stamped with `standing_before(i)`, where the table stood before
        ``table_events[i]``), the dice made but not yet rolled, the other board's action the
        table had not committed, the roll the other player asked for."""
        peer = cls(game, side, session)
        peer.now = now
        peer._replayed = []
        for line in lines:
            match line:
                case Sent(message=message, secret=secret):
                    peer._adopt(message, secret)
                case Received(message=message):
                    peer.received(message, now)
                case Disagreed(line=text):
                    peer.disagree(text, tell=False)  # the message that told it follows, if it was sent
        replayed, peer._replayed = peer._replayed, None
        sent_up_to = max((line.message.at for line in lines
                          if isinstance(line, Sent) and isinstance(line.message, Action)), default=-1)
        unsent: list[Do] = []
        for index, event in enumerate(table_events):
            if isinstance(event, ActionEvent) and event.player is side and peer.game_events > sent_up_to \
                    and standing_before is not None and peer.disagreement is None:
                before = standing_before(index)
                unsent.append(peer._send(Action(game, side, peer.sent + 1, event, peer.game_events,
                                                before.match_id, before.position_id)))
            peer._count(event)
        peer.standing = standing
        # The other's actions this table has not committed yet: fed again, in order.
        peer.ready.extendleft(reversed([action for action in replayed if action.at >= peer.game_events]))
        if peer.disagreement is not None:
            return peer, [SetLink(Link.DISAGREE, peer.disagreement)]
        out = unsent
        under_way = peer.roll.their_hash is not None or peer.roll.mine is not None
        if peer.unrolled is not None:
            out.append(FeedRolled(*peer.unrolled))  # made, journaled, but the table never rolled them
            under_way = True
        if under_way:  # the table does not journal that it wanted the dice
            out.append(FeedRollWanted(resumed=True))
        return peer, out + peer._drain()

    def _adopt(self, message: Message, secret: bytes | None) -> None:
        """A message this board sent, read back: the replay made it again already (a reply
        to a message received), or it came from the local table (an action, a commit, a hello)."""
        if message.seq <= self.sent:
            return
        if isinstance(message, Commit) and secret is not None and message.roll == self.roll.number:
            self._committed(message, secret)
        else:
            self._send(message)
