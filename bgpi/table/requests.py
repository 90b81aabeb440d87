"""What the table asks the engine: the roll's best play, a cube decision, or the chances
weighed in resigning.

The core never calls an engine: it asks, as it asks for dice (`Table.wants_advice`),
and the shell's advisor answers with an `Advised` input.  A request reads as the
mapping of its JSON form too ("for", "position_id", ...): the advisor, beyond the
core, asks gnubg in those IDs.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bgpi.rules.position import Side


class Question(StrEnum):
    """What is asked: the roll's best play, the cube decision before the roll (and
    the answer to a double), or the chances of the player on roll (for the computer's
    resignation, or its answer to one: keys "win", "win_gammon", "win_backgammon",
    "lose_gammon", "lose_backgammon", cubeless, before the roll)."""

    PLAYS = "plays"
    CUBE = "cube"
    RESIGN = "resign"


class Purpose(StrEnum):
    """Whom the answer is for: the hint button, the computer opponent, or the coach."""

    HINT = "hint"
    COMPUTER = "computer"
    COACH = "coach"


@dataclass(frozen=True, slots=True)
class AdviceRequest(Mapping[str, Any]):
    """One question for the engine, in the IDs of the player on roll (the doubler, when
    doubled); the coach's also says the play made (`played`, leading to `after`).  In a
    chouette `seat` is the member of the team whose cube the Match ID holds: the seat a
    cube decision is about, the captain's for a play."""

    question: Question
    purpose: Purpose
    player: Side
    position_id: str
    match_id: str
    jacoby: bool
    beavers: bool
    played: str | None = field(default=None)
    after: str | None = field(default=None)
    seat: str | None = field(default=None)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": self.question.value,
            "for": self.purpose.value,
            "player": self.player.label,
            "position_id": self.position_id,
            "match_id": self.match_id,
            "jacoby": self.jacoby,
            "beavers": self.beavers,
        }
        if self.played is not None:
            data |= {"played": self.played, "after": self.after}
        if self.seat is not None:
            data["seat"] = self.seat
        return data

    def __getitem__(self, key: str) -> Any:
        return self.to_json()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_json())

    def __len__(self) -> int:
        return len(self.to_json())
