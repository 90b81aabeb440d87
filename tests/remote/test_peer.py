"""The wire's state machine (bgpi/remote/peer.py): order, agreement, dice, resume.

Two peers, white's board and black's, talk through lists: `Board` keeps what a board's
journal of messages would hold (every message it sent and received, in order), so that
a board can be rebuilt from it as after a ``kill -9``.
"""

from __future__ import annotations

import pytest

from bgpi.remote import dice
from bgpi.remote.messages import Action, Bye, Commit, Disagree, Hello, Message, Reveal
from bgpi.remote.peer import (
    CLAIM_SECONDS,
    REVEAL_SECONDS,
    Disagreed,
    Do,
    FeedRemote,
    FeedRolled,
    FeedRollWanted,
    Line,
    Note,
    Peer,
    Received,
    Send,
    Sent,
    SetLink,
    Standing,
)
from bgpi.rules.position import Side
from bgpi.rules.result import ResultKind
from bgpi.table import events as ev

WHITE, BLACK = Side.WHITE, Side.BLACK
SESSION = {"match": 5, "jacoby": False}
START = Standing("4HPwATDgc/ABMA", "cAkAAAAAAAAA")
AFTER = Standing("4HPwATDgc/ABMB", "cAkAAAAAAAAB")
SECRET_W, SECRET_B = bytes(range(32)), bytes(range(100, 132))


class Board:
    """One board's peer and the lines its journal of messages would hold."""

    def __init__(self, side: Side, session: dict | None = None) -> None:
        # Each board's own keys (its engine, which side is remote) are not compared.
        config = (session or SESSION) | {"engine": f"gnubg-{side.label}", "remote": side.opponent.label}
        self.peer = Peer("g1", side, config, START)
        self.config = config
        self.lines: list[Line] = []
        self.table: list[ev.Event] = []  # the local table's journal

    def did(self, dos: list[Do]) -> list[Do]:
        for do in dos:
            if isinstance(do, Send):
                self.lines.append(Sent(do.message, do.secret))
            elif isinstance(do, SetLink) and do.link == "disagree":
                self.lines.append(Disagreed(do.line))
        return dos

    def hear(self, message: Message, now: float = 0.0) -> list[Do]:
        self.lines.append(Received(message))
        return self.did(self.peer.received(message, now))

    def commit(self, events: list[ev.Event], standing: Standing = AFTER) -> list[Do]:
        self.table += events
        return self.did(self.peer.local_events(events, standing))

    def roll(self, secret: bytes, now: float = 0.0) -> list[Do]:
        return self.did(self.peer.wants_roll(secret, now))

    def hello(self) -> list[Do]:
        return self.did(self.peer.reconnected())

    def rebuilt(self, now: float = 0.0, standing: Standing = AFTER) -> tuple[Peer, list[Do]]:
        return Peer.rebuild("g1", self.peer.side, self.config, self.lines, self.table, standing, now)


def sent(dos: list[Do]) -> list[Message]:
    return [do.message for do in dos if isinstance(do, Send)]


def fed(dos: list[Do]) -> list[Do]:
    """What the table is fed, and the links set (not the messages)."""
    return [do for do in dos if not isinstance(do, Send)]


def deliver(dos: list[Do], to: Board, now: float = 0.0) -> list[Do]:
    out: list[Do] = []
    for message in sent(dos):
        out += to.hear(message, now)
    return out


def state(peer: Peer) -> tuple:
    return (peer.sent, peer.seen, list(peer.outbox), dict(peer.held), list(peer.ready), peer.game_events,
            peer.rolls, peer.roll, peer.last_dice, peer.disagreement, peer.standing)


def boards_met() -> tuple[Board, Board]:
    white, black = Board(WHITE), Board(BLACK)
    deliver(white.hello(), black)
    deliver(black.hello(), white)
    return white, black


@pytest.fixture
def boards() -> tuple[Board, Board]:
    return boards_met()


# -- meeting ---------------------------------------------------------------------------------


def test_the_boards_meet_with_a_hello_and_say_connected():
    white, black = Board(WHITE), Board(BLACK)
    [hello] = sent(white.hello())
    assert hello == Hello("g1", WHITE, 1, 0, SESSION, 0)
    assert black.hear(hello) == [SetLink("connected", "the other board (white) is here")]
    assert black.peer.link == "connected"


def test_different_sessions_are_a_disagreement_naming_the_keys():
    white, black = Board(WHITE), Board(BLACK, {"match": 7, "jacoby": False})
    dos = deliver(white.hello(), black)
    assert fed(dos) == [SetLink("disagree", "the boards' sessions differ (match): start the same session on both")]
    assert black.peer.disagreement is not None
    assert deliver(white.commit([ev.Double(WHITE, 2)]), black) == []  # play stops for good
    assert black.peer.reconnected() == dos


# -- actions -----------------------------------------------------------------------------------


def test_an_action_goes_across_with_the_count_and_ids_before_it(boards):
    white, black = boards
    black.commit([ev.Start(START.position_id)], START)
    dos = white.commit([ev.Start(START.position_id), ev.Step(WHITE, 1, 2, False), ev.Double(WHITE, 2)])
    [action] = sent(dos)
    assert action == Action("g1", WHITE, 2, ev.Double(WHITE, 2), 1, START.match_id, START.position_id)
    assert deliver(dos, black) == [FeedRemote(ev.Double(WHITE, 2))]


def test_only_the_local_sides_decisions_are_sent(boards):
    white, black = boards
    events = [ev.Double(BLACK, 2), ev.Roll(WHITE, (3, 1)), ev.Hint(WHITE, (3, 1), "8/5 6/5", "x", 0.1)]
    assert sent(white.commit(events)) == []
    assert white.peer.game_events == 2  # the double and the roll; a hint is the board's own
    assert white.peer.rolls == 1


def test_every_kind_of_decision_crosses(boards):
    white, black = boards
    decisions = [ev.Take(WHITE, 2), ev.Drop(WHITE, 2), ev.Beaver(WHITE, 4), ev.ResignOffered(WHITE, ResultKind.GAMMON),
                 ev.ResignAccepted(WHITE), ev.ResignDeclined(WHITE),
                 ev.Play(WHITE, (3, 1), "8/5 6/5", "4HPwATDgc/ABMA", "cAkAAAAAAAAA")]
    for decision in decisions:
        dos = white.commit([decision])
        assert deliver(dos, black) == [FeedRemote(decision)]
        black.commit([decision])  # black's table committed it: its count moves on with white's


def test_an_action_after_a_different_count_is_a_disagreement(boards):
    white, black = boards
    black.commit([ev.Start(START.position_id)], START)
    dos = deliver(white.commit([ev.Double(WHITE, 2)]), black)
    assert fed(dos) == [SetLink("disagree", "the other board's double came after 0 game events; this board has 1")]


def test_an_action_from_a_different_position_is_a_disagreement(boards):
    white, black = boards
    black.peer.standing = AFTER
    dos = deliver(white.commit([ev.Double(WHITE, 2)]), black)
    assert fed(dos) == [SetLink("disagree", f"the boards' position IDs differ before white's double: here "
                                       f"{AFTER.position_id}, there {START.position_id}")]
    black.peer.standing = START
    assert deliver(white.commit([ev.Take(WHITE, 2)]), black) == []  # stopped: never merged


def test_an_action_from_a_different_match_is_a_disagreement(boards):
    white, black = boards
    black.peer.standing = Standing(START.position_id, "other")
    [link] = fed(deliver(white.commit([ev.Double(WHITE, 2)]), black))
    assert link == SetLink("disagree", f"the boards' match IDs differ before white's double: here other, there "
                                       f"{START.match_id}")


def test_a_disagreement_is_told_the_other_board_which_shows_it_too(boards):
    white, black = boards
    black.peer.standing = Standing(START.position_id, "other")
    dos = deliver(white.commit([ev.Double(WHITE, 2)]), black)
    line = f"the boards' match IDs differ before white's double: here other, there {START.match_id}"
    assert sent(dos) == [Disagree("g1", BLACK, 2, line)]
    assert deliver(dos, white) == [SetLink("disagree", f"the other board (black) found the boards disagree: {line}")]
    assert sent(white.peer.reconnected()) == []  # the other board knows: nothing is told back
    assert sent(black.peer.reconnected()) == [Disagree("g1", BLACK, 2, line)]  # told again, as it was


def test_a_disagreement_is_told_even_behind_a_gap(boards):
    white, black = boards
    gap, told = Bye("g1", BLACK, 2), Disagree("g1", BLACK, 3, "the boards differ")
    assert fed(white.hear(told)) == [SetLink("disagree", "the other board (black) found the boards disagree: "
                                                         "the boards differ")]
    assert white.hear(gap) == []


def test_an_action_ahead_of_this_table_waits_for_it(boards):
    white, black = boards
    white.commit([ev.Start(START.position_id)], START)
    dos = deliver(white.commit([ev.Double(WHITE, 2)], AFTER), black)
    assert dos == []  # black's table has not started the game yet
    assert black.commit([ev.Start(START.position_id)], START) == [FeedRemote(ev.Double(WHITE, 2))]


# -- the order of the wire ---------------------------------------------------------------------


def test_a_duplicate_is_dropped_silently(boards):
    white, black = boards
    [action] = sent(white.commit([ev.Double(WHITE, 2)]))
    assert fed(black.hear(action)) == [FeedRemote(ev.Double(WHITE, 2))]
    assert black.hear(action) == []


def test_a_message_ahead_of_a_gap_is_held_and_the_gap_asked_for(boards):
    white, black = boards
    white.commit([ev.Double(WHITE, 2)])  # lost on the way
    [commit] = sent(white.roll(SECRET_W))
    dos = black.hear(commit)
    assert [type(message) for message in sent(dos)] == [Hello] and sent(dos)[0].seen == 1
    assert fed(dos) == []
    assert black.hear(commit) == []  # held already
    # The other board answers the hello with what is missing.
    resent = deliver(white.hear(sent(dos)[0]), black)
    assert fed(resent) == [FeedRemote(ev.Double(WHITE, 2)), FeedRollWanted()]  # in white's order


def test_a_hello_resends_what_the_other_has_not_had_and_forgets_what_it_has(boards):
    white, black = boards
    lost = sent(white.commit([ev.Double(WHITE, 2)])) + sent(white.roll(SECRET_W))
    assert [message.seq for message in lost] == [2, 3]
    [hello] = sent(black.hello())
    assert sent(white.hear(hello)) == lost
    [hello] = sent(black.hear(lost[0]) + black.hear(lost[1]) + black.hello())
    assert hello.seen == 3
    white.hear(hello)
    assert white.peer.outbox == []


def test_a_hello_behind_a_gap_still_brings_the_resend(boards):
    """Each board missed a message of the other: each one's hello is behind a gap at the
    other, and must still bring the resend (else both would wait for ever)."""
    white, black = boards
    [white_lost] = sent(white.commit([ev.Double(WHITE, 2)]))
    [black_lost] = sent(black.roll(SECRET_B))
    [white_hello] = sent(white.hello())
    [black_hello] = sent(black.hello())
    assert white_lost in sent(white.hear(black_hello))  # held behind the gap, and still answered
    assert black_lost in sent(black.hear(white_hello))


def test_a_message_far_ahead_is_dropped_with_a_line(boards):
    white, black = boards
    dos = black.hear(Bye("g1", WHITE, 10_000))
    assert dos == [Note("message 10000 of the other board is too far ahead of 1: dropped")]


def test_a_message_of_another_game_or_of_this_boards_side_is_one_line(boards):
    white, black = boards
    assert black.hear(Bye("g2", WHITE, 2)) == [Note("a message for game 'g2' on game 'g1''s topic: ignored")]
    assert black.hear(Bye("g1", BLACK, 2)) == [
        Note("a message on white's topic that says it is from black (this board's side): ignored")]
    assert black.peer.seen == 1


# -- the dice -----------------------------------------------------------------------------------


def exchange(white: Board, black: Board, now: float = 0.0) -> tuple[list[Do], list[Do]]:
    """A roll white asks for: what each table is fed."""
    commit = white.roll(SECRET_W, now)
    assert [type(message) for message in sent(commit)] == [Commit]
    asked = deliver(commit, black, now)
    assert fed(asked) == [FeedRollWanted()]
    answer = black.roll(SECRET_B, now)
    assert [type(message) for message in sent(answer)] == [Commit, Reveal]
    at_white = deliver(answer, white, now)
    at_black = deliver(at_white, black, now)
    return fed(at_white), fed(at_black)


def test_the_dice_come_from_both_secrets_once_both_are_revealed(boards):
    white, black = boards
    at_white, at_black = exchange(white, black)
    rolled = FeedRolled(*dice.dice_of("g1", 1, SECRET_W, SECRET_B))
    assert at_white == at_black == [rolled]
    assert white.peer.roll.number == black.peer.roll.number == 2


def test_a_commitment_comes_with_its_secret_for_the_journal_only(boards):
    white, _ = boards
    [send] = white.roll(SECRET_W)
    assert send.secret == SECRET_W
    assert send.message == Commit("g1", WHITE, 2, 1, dice.commitment(SECRET_W))
    assert white.roll(bytes(32)) == []  # asked again (a resumed table): the commitment stands


def test_roll_numbers_must_agree(boards):
    white, black = boards
    dos = black.hear(Commit("g1", WHITE, 2, 2, dice.commitment(SECRET_W)))
    assert fed(dos) == [SetLink("disagree", "the boards' roll numbers differ: the other board commits to roll 2, this "
                                       "board is at roll 1")]


def test_a_reveal_that_does_not_match_its_commitment_is_caught(boards):
    white, black = boards
    black.hear(Commit("g1", WHITE, 2, 1, dice.commitment(SECRET_W)))
    black.roll(SECRET_B)
    dos = black.hear(Reveal("g1", WHITE, 3, 1, bytes(32)))  # the secret that would give it the dice it wants
    assert fed(dos) == [SetLink("disagree", "the other board's (white) dice secret for roll 1 does not match its "
                                       "commitment")]


def test_a_second_different_commitment_for_a_roll_is_caught(boards):
    white, black = boards
    black.hear(Commit("g1", WHITE, 2, 1, dice.commitment(SECRET_W)))
    assert black.hear(Commit("g1", WHITE, 3, 1, dice.commitment(SECRET_W))) == []  # the same again: harmless
    dos = black.hear(Commit("g1", WHITE, 4, 1, dice.commitment(bytes(32))))
    assert fed(dos) == [SetLink("disagree", "the other board (white) sent a second, different dice commitment for "
                                            "roll 1")]


def test_a_reveal_before_both_commitments_is_caught(boards):
    white, black = boards
    black.hear(Commit("g1", WHITE, 2, 1, dice.commitment(SECRET_W)))
    dos = black.hear(Reveal("g1", WHITE, 3, 1, SECRET_W))  # black has not committed yet
    assert fed(dos) == [SetLink("disagree", "the other board (white) revealed its dice secret for roll 1 before both "
                                       "commitments were made")]


def test_a_board_that_does_not_reveal_in_time_is_away_and_then_abandons_the_game(boards):
    white, black = boards
    deliver(white.roll(SECRET_W, 100.0), black, 100.0)
    black_commit, black_reveal = sent(black.roll(SECRET_B, 100.0))
    assert sent(white.hear(black_commit, 100.0))[0].kind == "reveal"  # white reveals; black withholds its own
    assert white.peer.deadline == 100.0 + REVEAL_SECONDS
    assert white.peer.tick(100.0 + REVEAL_SECONDS - 0.1) == []
    assert white.peer.tick(100.0 + REVEAL_SECONDS) == [
        SetLink("away", f"the other board (black) did not reveal its dice for roll 1 within {REVEAL_SECONDS:g} s: "
                        f"waiting for it")]
    assert white.peer.tick(200.0) == []  # said once
    assert white.peer.disagreement is None  # the connection is lost, not the game
    assert white.peer.deadline == 100.0 + REVEAL_SECONDS + CLAIM_SECONDS
    assert white.peer.tick(100.0 + REVEAL_SECONDS + CLAIM_SECONDS) == [
        SetLink("abandoned", f"the other board (black) has been away for {CLAIM_SECONDS:g} s: the game may be "
                             f"claimed here (hold turn, then turn)")]
    assert white.peer.deadline is None and white.peer.tick(1000.0) == []  # said once
    assert white.hear(black_reveal, 1000.0) == [FeedRolled(*dice.dice_of("g1", 1, SECRET_W, SECRET_B)),
                                                SetLink("connected", "the other board (black) is back")]


def test_a_claim_goes_across_as_an_action(boards):
    white, black = boards
    assert black.peer.presence(False)[0].link == "away"
    black.peer.tick(CLAIM_SECONDS)
    assert black.peer.link == "abandoned"
    claim = ev.Claimed(BLACK, ResultKind.BACKGAMMON)
    (action,) = sent(black.commit([claim], START))
    assert isinstance(action, Action) and action.event == claim and action.at == 0
    assert fed(white.hear(action)) == [FeedRemote(claim)]


def test_a_board_that_played_on_while_its_messages_were_lost_disagrees_with_a_claim(boards):
    white, black = boards
    (action,) = sent(black.commit([ev.Claimed(BLACK, ResultKind.BACKGAMMON)], START))
    white.commit([ev.Double(WHITE, 2)], AFTER)  # white doubled; black never heard of it
    assert fed(white.hear(action)) == [
        SetLink("disagree", "the other board's claim came after 0 game events; this board has 1")]


def test_presence_and_bye(boards):
    white, black = boards
    assert black.peer.presence(False) == [SetLink("away", "the other board (white) is gone: waiting for it to come "
                                                          "back")]
    assert black.peer.presence(False) == []
    assert fed(deliver(white.hello(), black)) == [SetLink("connected", "the other board (white) is here")]
    assert black.hear(Bye("g1", WHITE, white.peer.sent + 1)) == [
        SetLink("away", "the other board (white) stopped: waiting for it to come back")]


# -- resuming after kill -9 -----------------------------------------------------------------------


def a_game_so_far(white: Board, black: Board) -> None:
    for board in (white, black):
        board.commit([ev.Start(START.position_id)], START)
    exchange(white, black)
    for board in (white, black):
        board.commit([ev.Opening(4, 2, WHITE, 1)], START)
    play = ev.Play(WHITE, (4, 2), "8/4 6/4", AFTER.position_id, AFTER.match_id)
    assert fed(deliver(white.commit([play]), black)) == [FeedRemote(play)]


def test_a_peer_rebuilt_from_its_journal_is_the_same(boards):
    white, black = boards
    a_game_so_far(white, black)
    black.commit([ev.Play(WHITE, (4, 2), "8/4 6/4", AFTER.position_id, AFTER.match_id)])
    for board in (white, black):
        peer, dos = board.rebuilt()
        assert state(peer) == state(board.peer)
        assert dos == []


def test_a_rebuilt_board_feeds_again_the_action_its_table_never_committed(boards):
    white, black = boards
    a_game_so_far(white, black)  # black was fed white's play, and was killed before its table committed it
    peer, dos = black.rebuilt(standing=START)
    assert dos == [FeedRemote(ev.Play(WHITE, (4, 2), "8/4 6/4", AFTER.position_id, AFTER.match_id))]
    assert peer.local_events([ev.Play(WHITE, (4, 2), "8/4 6/4", AFTER.position_id, AFTER.match_id)], AFTER) == []


def test_a_rebuilt_board_rolls_the_dice_its_table_never_rolled(boards):
    white, black = boards
    for board in (white, black):
        board.commit([ev.Start(START.position_id)], START)
    exchange(white, black)  # the dice are made; black is killed before its table rolls them
    peer, dos = black.rebuilt(standing=START)
    # ... and, as its table never journals that it wanted them, the other player's ask again
    assert dos == [FeedRolled(*dice.dice_of("g1", 1, SECRET_W, SECRET_B)), FeedRollWanted(resumed=True)]


def test_a_rebuilt_board_keeps_its_secret_of_a_roll_in_flight(boards):
    white, black = boards
    deliver(white.roll(SECRET_W), black)
    peer, dos = white.rebuilt()
    assert peer.roll.mine == SECRET_W
    assert peer.wants_roll(bytes(32), 0.0) == []  # the resumed table asks again: the journaled secret stands
    # Black commits; the rebuilt white reveals the journaled secret, and the dice are the same.
    answer = black.roll(SECRET_B)
    at_white = [do for message in sent(answer) for do in peer.received(message, 0.0)]
    assert Reveal("g1", WHITE, peer.sent, 1, SECRET_W) in sent(at_white)
    assert FeedRolled(*dice.dice_of("g1", 1, SECRET_W, SECRET_B)) in at_white


def test_a_rebuilt_board_asks_its_table_for_the_roll_the_other_wanted(boards):
    white, black = boards
    deliver(white.roll(SECRET_W), black)  # black heard the commitment; killed before its table asked
    peer, dos = black.rebuilt()
    assert dos == [FeedRollWanted(resumed=True)]


def test_a_board_killed_after_its_own_commitment_and_reveal_asks_its_table_again():
    """Issue 29, item 2: black answered white's roll (commitment and reveal journaled) and
    was killed before white's reveal came: its table, which never journals that it wanted
    the dice, is asked again; white's reveal, sent again, makes the dice."""
    white, black = boards_met()
    deliver(white.roll(SECRET_W), black)
    answer = black.roll(SECRET_B)
    assert [type(message) for message in sent(answer)] == [Commit, Reveal]
    peer, dos = black.rebuilt()
    assert dos == [FeedRollWanted(resumed=True)]
    at_white = deliver(answer, white)
    [reveal] = [message for message in sent(at_white) if isinstance(message, Reveal)]
    assert peer.received(reveal, 0.0) == [FeedRolled(*dice.dice_of("g1", 1, SECRET_W, SECRET_B))]


def test_an_action_journaled_by_the_table_but_never_sent_is_sent_when_the_board_resumes():
    """Killed between the table's journal and the wire's: the play is in the one, not the
    other.  Rebuilt, the board sends it, stamped with where its table stood before it."""
    white, black = boards_met()
    for board in (white, black):
        board.commit([ev.Start(START.position_id)], START)
    play = ev.Play(WHITE, (4, 2), "8/4 6/4", AFTER.position_id, AFTER.match_id)
    white.table.append(play)  # on the table's journal only
    peer, dos = Peer.rebuild("g1", WHITE, white.config, white.lines, white.table, AFTER, 0.0,
                             lambda index: START if index == 1 else AFTER)
    [action] = sent(dos)
    assert action == Action("g1", WHITE, white.peer.sent + 1, play, 1, START.match_id, START.position_id)
    assert fed(deliver(dos, black)) == [FeedRemote(play)]
    again, dos = Peer.rebuild("g1", WHITE, white.config, [*white.lines, Sent(action)], white.table, AFTER, 0.0,
                              lambda index: START)
    assert sent(dos) == []  # sent once


def test_a_reply_never_journaled_is_made_again_with_the_same_number(boards):
    white, black = boards
    [commit] = sent(white.roll(SECRET_W))
    black.roll(SECRET_B)
    dos = black.hear(commit)  # black would reveal now...
    [reveal] = sent(dos)
    black.lines.pop()  # ...but was killed before the reveal reached its journal
    peer, _ = black.rebuilt()
    assert peer.outbox[-1] == reveal  # made again, the same: sent on the next hello


def test_a_disagreement_stays_after_a_restart(boards):
    white, black = boards
    black.commit([ev.Start(START.position_id)], START)
    deliver(white.commit([ev.Double(WHITE, 2)]), black)
    peer, dos = black.rebuilt()
    assert fed(dos) == [SetLink("disagree", "the other board's double came after 0 game events; this board has 1")]
    assert peer.received(Bye("g1", WHITE, 99), 0.0) == []


def test_a_refusal_of_the_table_stops_the_peer(boards):
    white, black = boards
    line = "the other board's double is not allowed now: white has rolled"
    assert fed(black.peer.disagree(line)) == [SetLink("disagree", line)]
    assert black.peer.disagree("again") == []
    assert deliver(white.commit([ev.Take(WHITE, 2)]), black) == []
    assert black.peer.wants_roll(SECRET_B, 0.0) == []


def test_the_other_board_coming_online_is_greeted(boards):
    white, black = boards
    [hello] = sent(black.did(black.peer.presence(True)))
    assert isinstance(hello, Hello) and hello.seen == black.peer.seen


def test_a_table_waiting_for_an_action_that_waits_for_it_is_a_disagreement(boards):
    """Issue 29, item 2: never both waiting for ever.  Black's table lacks a roll white's
    has: white's play comes after one game event more than black has, and waits for
    black's table, which waits for white: said as a disagreement when the shell finds the
    table waiting for the other board."""
    white, black = boards
    white.commit([ev.Start(START.position_id), ev.Opening(4, 2, WHITE, 1)], START)
    black.commit([ev.Start(START.position_id)], START)  # the opening roll never reached black's table
    dos = deliver(white.commit([ev.Play(WHITE, (4, 2), "8/4 6/4", AFTER.position_id, AFTER.match_id)]), black)
    line = ("the boards' games differ: the other board's play came after 2 game events; this board has 1 "
            "and waits for the other board")
    stalled = black.peer.stalled()
    assert dos == [] and [do for do in stalled if isinstance(do, SetLink)] == [SetLink("disagree", line)]
    assert sent(stalled) == [Disagree("g1", BLACK, 2, line)]  # told the other board too
    assert black.peer.stalled() == []  # said once


def test_nothing_waiting_is_no_stall(boards):
    white, black = boards
    assert black.peer.stalled() == []


def test_the_dice_made_are_the_tables_next_roll_until_it_rolls_them(boards):
    """Which dice the table takes is told by its count of rolls, never by the order in
    which the dice and its ask came (a board restarted with them made asks at once)."""
    white, black = boards
    for board in (white, black):
        board.commit([ev.Start(START.position_id)], START)
    assert white.peer.unrolled is None
    exchange(white, black)
    made = dice.dice_of("g1", 1, SECRET_W, SECRET_B)
    assert white.peer.unrolled == black.peer.unrolled == made
    white.commit([ev.Opening(*made, WHITE if made[0] > made[1] else BLACK, 1)])
    assert white.peer.unrolled is None  # rolled: the next ask is a new exchange
    assert [type(message) for message in sent(white.roll(SECRET_W))] == [Commit]
