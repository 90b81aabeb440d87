"""Both boards lose their power again and again across whole games (issue 29).

Two simulated boards play matches to 3 through Debian's mosquitto (`tests/remote/boards.py`),
their players doubling, taking and dropping now and then, until there were 50 cuts.  Each board's power is cut at
a random write to its journals (the table's or the wire's; just before it or just after
it), over and over: while the other board's play is lit, during the dice exchange,
mid-cube-decision, anywhere.  Its hands go on at the board restarted from its state
directory, as a player goes on at a real board.  Every game must reach its end on both
boards, with the same game events, event by event.

The cuts and the players' choices are drawn from a seeded generator (the seed is
printed; set ``BGPI_CUTS_SEED`` to draw a failing run's again: which messages have crossed
the broker at a cut still varies a little from run to run).
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from bgpi.remote.mqtt import Broker
from bgpi.rules.position import Side
from bgpi.table import events as ev
from bgpi.table.phases import Phase
from tests.remote.boards import WAIT_S, Board, Mains, PowerCut
from tests.remote.conftest import Mosquitto

SEED = int(os.environ.get("BGPI_CUTS_SEED", "29"))
CUTS = 50
"""Cuts of both boards together, at least: matches are played until there are as many."""

MAX_MATCHES = 8
"""A bound on the matches played, so that cuts that fail to come fail the test."""

WRITES_APART = (1, 60)
"""A cut anywhere: how many writes to its journals a board makes before it, drawn in this range."""

WINDOWS = ("the other's play lit", "the dice exchange", "a cube decision")
"""The moments a cut is aimed at, in turn with cuts anywhere: each must get some."""

GIVE_UP_WRITES = 200
"""A cut aimed at a moment that does not come within this many writes falls where it is."""


def where(board: Board) -> str:
    """What the board is doing, as far as a cut goes: one of `WINDOWS`, or elsewhere."""
    table, peer = board.table, board.remote.peer
    if isinstance(table.hint, ev.RemotePlay):
        return WINDOWS[0]
    if table.wants_roll is not None or peer.roll.mine is not None or peer.roll.their_hash is not None:
        return WINDOWS[1]
    if table.phase is Phase.DOUBLED:
        return WINDOWS[2]
    return "elsewhere"


Cut = tuple[str, int, bool]
"""A cut: where it is aimed ("anywhere", or one of `WINDOWS`), how many writes it lets
pass first (anywhere: from now; else: in the window, entered anew), and whether it falls
just before a write or just after it."""


def random_cuts(rng: random.Random) -> Iterator[Cut]:
    """Cuts for ever: anywhere, or in one of `WINDOWS` after a few of its writes."""
    while True:
        aim = rng.choice(("anywhere", *WINDOWS))
        yield aim, rng.randint(*WRITES_APART) if aim == "anywhere" else rng.randint(0, 3), rng.random() < 0.5


class Powered:
    """One board's hands, its power cut again and again as `cuts` says: the board in use
    (`board`), the moments its cuts fell in (`windows`), a failure if any."""

    def __init__(self, board: Board, cuts: Iterator[Cut]) -> None:
        self.board, self.cuts = board, cuts
        self.windows: Counter[str] = Counter()
        self.failure: BaseException | None = None
        self.done = threading.Event()

    @property
    def mains(self) -> Mains:
        assert self.board.mains is not None
        return self.board.mains

    def arm(self) -> None:
        """The next cut, if any.  One aimed at a window falls at a write in it once the
        board is in it anew (not the one it was in when the power came back), or at the
        window's first write after it, or where it is after `GIVE_UP_WRITES`."""
        cut = next(self.cuts, None)
        if cut is None:
            self.mains.disarm()
            return
        aim, skip, before = cut
        if aim == "anywhere":
            self.mains.cut_at(skip, before)
            return
        give_up, state = self.mains.writes + GIVE_UP_WRITES, "entering"

        def moment() -> bool:
            nonlocal skip, state
            inside = where(self.board) == aim
            if state == "counting":
                skip -= 1
                return skip < 0 or not inside
            if state == "entering" and not inside:
                state = "outside"
            elif state == "outside" and inside:
                state, skip = "counting", skip - 1
                return skip < 0
            return self.mains.writes >= give_up

        self.mains.cut_when(moment, before)

    def play(self, other: Powered) -> None:
        """Play the match to its end, cut after cut; then scan on until the other board is
        done too (it may need this board's resend to finish)."""
        try:
            while True:
                self.arm()
                try:
                    self.board.play()
                    break
                except PowerCut:
                    self.windows[where(self.board)] += 1
                    self.board.crash()
                    self.board = Board.restarted(self.board)
            self.mains.disarm()
        except BaseException as error:  # noqa: BLE001 (the test thread raises it)
            self.failure = error
        finally:
            self.done.set()
        give_up = time.monotonic() + WAIT_S
        while not other.done.is_set() and time.monotonic() < give_up:
            self.board.sim.advance(self.board.sim.period)
            time.sleep(self.board.sim.period)


def play_a_match(folder: Path, broker: Broker, seed: int, cuts: dict[Side, Iterator[Cut]],
                 match: int = 3) -> tuple[Powered, Powered]:
    """Two boards in `folder` play a match through `broker`, each board's power cut as
    `cuts` says for its side, to its end alike on both.  Returns both."""
    white, black = (Powered(Board(folder / side.label, side, broker, {"match": match}, seed, doubles=0.2,
                                  drops=0.3, mains=Mains()), cuts[side])
                    for side in (Side.WHITE, Side.BLACK))
    threads = [threading.Thread(target=one.play, args=(other,)) for one, other in ((white, black), (black, white))]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        failures = [f"{one.board.side.label}'s board: {one.failure}; {one.board.describe()}"
                    for one in (white, black) if one.failure is not None]
        assert not failures, "\n".join(failures)
        for one in (white, black):
            assert one.board.table.phase is Phase.MATCH_OVER
        assert white.board.game_events() == black.board.game_events()
        said = white.board.said + black.board.said
        assert not [line for line in said if "disagree" in line or "differ" in line], said
    finally:
        white.board.close()
        black.board.close()
    return white, black


def test_boards_whose_power_is_cut_at_random_moments_play_every_game_to_its_end_alike(tmp_path: Path,
                                                                                      mosquitto: Mosquitto) -> None:
    print(f"power cuts seeded with {SEED} (BGPI_CUTS_SEED={SEED} plays them again)")
    broker = Broker(mosquitto.host, mosquitto.port)
    windows: Counter[str] = Counter()
    for match in range(MAX_MATCHES):
        seed = SEED * 1000 + match
        rng = random.Random(seed)
        cuts = {side: random_cuts(random.Random(rng.random())) for side in (Side.WHITE, Side.BLACK)}
        try:
            white, black = play_a_match(tmp_path / f"match-{match}", broker, seed, cuts)
            windows += white.windows + black.windows
        except AssertionError as failure:
            raise AssertionError(f"seed {SEED}, match {match + 1}: {failure}") from None
        if windows.total() >= CUTS:
            break
    print(f"{windows.total()} cuts in {match + 1} matches: {dict(windows)}")
    assert windows.total() >= CUTS
    assert set(WINDOWS) <= windows.keys(), windows


def test_a_board_whose_power_is_cut_at_each_step_of_the_dice_exchange_gets_the_roll_back(tmp_path: Path,
                                                                                       mosquitto: Mosquitto) -> None:
    """Issue 29, item 2: each board's power cut at each write of a dice exchange (from
    the ask for the dice to the roll in the table's journal), before and after it, one
    exchange after another through a game: the restarted board gets the roll back and
    both play on to the end."""
    steps = [("the dice exchange", skip, before) for skip in range(6) for before in (True, False)]
    white, black = play_a_match(tmp_path, Broker(mosquitto.host, mosquitto.port), 31,
                                {side: iter(steps) for side in (Side.WHITE, Side.BLACK)}, match=1)
    assert (white.mains.cuts, black.mains.cuts) == (len(steps), len(steps))
