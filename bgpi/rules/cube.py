"""The doubling cube: its value, its owner, and a double on offer (docs/rules.md §3, §8).

A `Cube` knows only what the cube itself decides: whether the cube is the
player's to turn, and what take, drop and beaver do.  Whose turn it is, whether
the dice were rolled, the Crawford game, a dead cube in a match and whether
beavers are allowed belong to the game (`bgpi.rules.session.Game`).

The value has no upper limit here.  The physical cube stops at 64; GNU
Backgammon's Match ID stores the value as a 4-bit logarithm, so up to 2^15
(32768), and whatever encodes a Match ID must refuse a larger cube.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bgpi.exc import CubeError
from bgpi.rules.position import Side
from bgpi.rules.result import GameResult


@dataclass(frozen=True, slots=True)
class Offer:
    """A double on offer: `doubler` offered it, the opponent must answer.

    `beaver` is True when the offer is a beaver: the doubled player took and at
    once redoubled, so `doubler` is the beavering player and the original
    doubler must answer.
    """

    doubler: Side
    beaver: bool = False

    @property
    def taker(self) -> Side:
        """The player who must take or drop."""
        return self.doubler.opponent


@dataclass(frozen=True, slots=True)
class Cube:
    """The doubling cube.

    `value` is a power of two, 1 at the start.  `owner` is None while the cube
    is centred, else the side that may redouble.  `offer` is the double on the
    table, if any; while it stands, `value` is the value before it, so a drop
    always scores `value`.  This is also how GNU Backgammon keeps the cube, so
    the three fields map onto its Match ID (cube, owner, doubled).
    """

    value: int = 1
    owner: Side | None = None
    offer: Offer | None = None

    def __post_init__(self) -> None:
        value = self.value
        if (
            not isinstance(value, int)
            or isinstance(value, bool)
            or value < 1
            or value & (value - 1)
        ):
            raise CubeError(f"a cube value is a power of two, not {value!r}")
        if self.offer is not None and self.offer.beaver and self.owner is not self.offer.doubler:
            # A beaver is a take followed by a redouble: the beaverer owns the cube.
            raise CubeError("a beaver is offered only by the cube's owner")

    @property
    def centred(self) -> bool:
        return self.owner is None

    @property
    def turned(self) -> bool:
        """True once a double has been taken: only then does the cube have an
        owner.  Automatic doubles leave it centred (docs/rules.md §3), so they do not
        turn it; this is what the Jacoby rule asks (docs/rules.md §8)."""
        return self.owner is not None

    @property
    def offered_value(self) -> int:
        """The value if the double on offer is taken, else the value."""
        return self.value * 2 if self.offer else self.value

    def why_not_double(self, side: Side) -> str | None:
        """Why the cube does not let `side` double now, or None if it does.

        The cube refuses while a double is on offer and when the opponent owns
        it.  The game's own reasons (turn, dice, Crawford) are not checked here.
        """
        if self.offer is not None:
            return _pending(self.offer)
        if self.owner is side.opponent:
            return f"{self.owner.label} owns the cube"
        return None

    def double(self, side: Side) -> Cube:
        """`side` offers a double.  Raises CubeError with the reason if it may not."""
        _refuse(self.why_not_double(side))
        return replace(self, offer=Offer(side))

    def take(self, side: Side) -> Cube:
        """`side` takes the double on offer: the value doubles.

        After a plain double the taker owns the cube.  After a beaver the
        beaverer keeps it (docs/rules.md §8: "keeping the cube"), as in GNU
        Backgammon, so the cube then shows four times the value before the
        first double and belongs to the beaverer.
        """
        offer = self._answerable_by(side, "take")
        owner = offer.doubler if offer.beaver else side
        return Cube(self.value * 2, owner)

    def drop(self, side: Side) -> GameResult:
        """`side` drops the double on offer and loses the game at the value
        before that double, a single game (docs/rules.md §8).  Dropping a beaver
        therefore loses the value after the first double."""
        offer = self._answerable_by(side, "drop")
        return GameResult.drop(offer.doubler, self.value)

    def why_not_beaver(self, side: Side) -> str | None:
        """Why the cube does not let `side` beaver now, or None if it does.

        Only the player facing a plain double may beaver; a beaver cannot be
        beavered again.  Whether the session allows beavers is the game's
        business.
        """
        offer = self.offer
        if offer is None:
            return "no double has been offered"
        if side is offer.doubler:
            return f"{side.label} offered the double and cannot beaver it"
        if offer.beaver:
            return "a beaver cannot be beavered: take it or drop it"
        return None

    def beaver(self, side: Side) -> Cube:
        """`side`, facing a double, takes it and at once redoubles, keeping the
        cube (docs/rules.md §8, a decision).  The original doubler then answers an
        offer at four times the first value: a take leaves the beaverer owning
        the cube at that value, a drop loses twice the first value.
        """
        _refuse(self.why_not_beaver(side))
        return Cube(self.value * 2, side, Offer(side, beaver=True))

    def automatic_double(self) -> Cube:
        """A tie on the opening roll doubles the cube, which stays centred
        (docs/rules.md §3).  Whether the session allows one more is the game's
        business."""
        if self.owner is not None or self.offer is not None:
            raise CubeError("automatic doubles come only with the opening roll")
        return Cube(self.value * 2)

    def _answerable_by(self, side: Side, action: str) -> Offer:
        if self.offer is None:
            raise CubeError(f"no double has been offered to {action}")
        if side is self.offer.doubler:
            raise CubeError(f"{side.label} offered the double and cannot {action} it")
        return self.offer


def _pending(offer: Offer) -> str:
    return f"{offer.doubler.label} has doubled: {offer.taker.label} must take or drop first"


def _refuse(reason: str | None) -> None:
    if reason is not None:
        raise CubeError(reason)
