"""A committed play on one board to its first light on the other, through a local broker.

Two simulated boards (`tests/remote/boards.py`: each a `TableRunner` with its own state
directory, joined by a `RemoteGame`, hands playing their side) play a match through
Debian's mosquitto on 127.0.0.1.  Measured, for every play: from the moment the playing
board commits it (its ``play`` event, journaled) until the other board shows it (its
``remote_play`` event, after which the same call lights it).  Both boards journal to the
disk and scan at the profile's rate, the waiting one between the clock's scan periods, as
the live loop does.

Goal (issue 23): under 100 ms here.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bgpi.remote.mqtt import Broker  # noqa: E402
from bgpi.rules.position import Side  # noqa: E402
from bgpi.shell.sinks import FunctionSink  # noqa: E402
from bgpi.table import events as ev  # noqa: E402
from tests.remote.boards import Board, play_both  # noqa: E402
from tests.remote.conftest import MOSQUITTO, Mosquitto  # noqa: E402

PLAYS = 60


def timed(board: Board, kind: str, player: Side, times: list[float]) -> None:
    """Note the time of each `kind` event of `player` the board emits (a sink: once journaled)."""

    def noted(event: ev.Event) -> None:
        if event.kind == kind and getattr(event, "player", None) is player:
            times.append(time.perf_counter())

    board.sim.sinks.append(FunctionSink(noted))


def main() -> None:
    if not MOSQUITTO.exists():
        print("remote: skipped, Debian's mosquitto is not installed")
        return
    with tempfile.TemporaryDirectory() as folder:
        broker = Mosquitto(Path(folder) / "mosquitto")
        broker.start()
        try:
            where = Broker(broker.host, broker.port)
            white = Board(Path(folder) / "white", Side.WHITE, where, {"match": 3}, seed=11)
            black = Board(Path(folder) / "black", Side.BLACK, where, {"match": 3}, seed=11)
            committed: dict[Side, list[float]] = {Side.WHITE: [], Side.BLACK: []}
            shown: dict[Side, list[float]] = {Side.WHITE: [], Side.BLACK: []}
            for board in (white, black):
                timed(board, "play", board.side, committed[board.side])
                timed(board, "remote_play", board.side.opponent, shown[board.side.opponent])
            try:
                play_both(white, black, plays=PLAYS)
            finally:
                white.close()
                black.close()
        finally:
            broker.stop()
    # A board's n-th play commits, then the other shows it: pair them in order.
    delays = sorted((seen - made) * 1000 for side in Side
                    for made, seen in zip(committed[side], shown[side], strict=False))
    p95 = delays[min(len(delays) - 1, round(0.95 * len(delays)))]
    print(f"remote: committed play to the other board's first light, {len(delays)} plays through mosquitto: "
          f"median {statistics.median(delays):.1f} ms, p95 {p95:.1f} ms, worst {delays[-1]:.1f} ms "
          f"(goal under 100 ms)")


if __name__ == "__main__":
    main()
