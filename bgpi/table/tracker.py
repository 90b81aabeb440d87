"""The tracker: which (partial) play the board shows.

Reed switches count checkers, they do not see colours, and a point with more
checkers than switches reads full.  The tracker explains what the switches read
(`Counts`) as a node of the turn's play tree (`bgpi.rules.playtree`), allowing for
what hands do in the middle of a turn:

* one checker *in hand*: lifted from a location and not yet put down;
* a *pending hit*: the hitting checker has landed but the blot still stands on
  its point, waiting to be taken to the bar;
* an *early bar*: the blot was taken to the bar before the hitting checker lands.

Colour comes from history: every node of the tree knows whose checkers stand
where.  Where two different nodes explain the board (checkers hidden on full
points), the tracker reports both and never picks one silently.

Everything here is pure: counts in, readings out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import combinations
from operator import itemgetter

from bgpi.board.locations import Location, bar, tray
from bgpi.board.profile import Geometry
from bgpi.exc import UnreadableBoardError
from bgpi.rules.playtree import PartialPlay, PlayTree
from bgpi.rules.position import (
    BAR,
    CHECKERS,
    Checkers,
    Position,
    Side,
    absolute_point,
    own_point,
)

Counts = tuple[int, ...]
"""Checkers per sensed location, in `Sensing.locations` order, saturated at the slots."""



_NOBODY = (0,)
"""After a side's 25 counts: what that side has on the locations it cannot stand on."""


def _pick(side: Side, location: Location) -> int:
    """Where `side`'s count on `location` is among its 25 counts and `_NOBODY` (trays: none)."""
    if isinstance(location, int):
        return own_point(side, location) - 1
    return BAR - 1 if location == bar(side) else BAR


def _at_most(limit: int) -> bytes:
    """The byte translation that saturates a count at `limit`."""
    return bytes(min(count, limit) for count in range(256))


class Sensing:
    """What the switches of a board can see of a position."""

    def __init__(self, geometry: Geometry) -> None:
        self.locations: tuple[Location, ...] = geometry.sensed()
        self.limits = tuple(geometry.slots(location) for location in self.locations)
        self.index = {location: i for i, location in enumerate(self.locations)}
        # A position is counted a side at a time: a point holds one side's checkers or the
        # other's, so the counts are the sum.  A side's 25 counts (points in its own count,
        # then its bar), with a zero after them, are picked into sensed-location order...
        self._picks = {side: itemgetter(*(_pick(side, location) for location in self.locations)) for side in Side}
        # ...and its borne-off checkers are added where its tray is sensed.
        self._tray_units = {side: 1 << (8 * self.index[tray(side)]) if tray(side) in self.index else 0 for side in Side}
        # Saturating is a byte translation at the most switches any location has, then
        # one for each location with fewer (the bar halves, usually): counts in a row of
        # readings, a byte per location each, are saturated all at once.
        most = max(self.limits)
        self._at_most = _at_most(most)
        self._fewer = [(slot, _at_most(limit)) for slot, limit in enumerate(self.limits) if limit < most]

    def side_key(self, side: Side, checkers: Checkers) -> int:
        """How many of `side`'s `checkers` (in its own count) stand on each sensed location,
        not saturated, as one integer in the form of `key`.  A position's true counts are
        the sum of its two sides' keys.

        Play trees have hundreds of nodes that differ only in the mover's checkers, so the
        tracker counts them this way: a pick of the counts into bytes, no list per location."""
        key = int.from_bytes(bytes(self._picks[side](checkers + _NOBODY)), "little")
        tray_unit = self._tray_units[side]
        return key + (CHECKERS - sum(checkers)) * tray_unit if tray_unit else key

    def raw_key(self, position: Position) -> int:
        """The true number of checkers on each sensed location, as one integer in the form of `key`."""
        return self.side_key(Side.WHITE, position.white) + self.side_key(Side.BLACK, position.black)

    def raw(self, position: Position) -> list[int]:
        """The true number of checkers on each sensed location (not saturated)."""
        return list(self.raw_key(position).to_bytes(len(self.locations), "little"))

    def _saturated(self, raw: Iterable[int]) -> bytes:
        """`raw`, one reading or several in a row (a byte per sensed location each),
        saturated at each location's switches."""
        counts = bytes(raw).translate(self._at_most)
        if not self._fewer:
            return counts
        saturated = bytearray(counts)
        size = len(self.locations)
        for slot, at_most in self._fewer:
            saturated[slot::size] = saturated[slot::size].translate(at_most)
        return bytes(saturated)

    def saturate(self, raw: Iterable[int]) -> Counts:
        return tuple(self._saturated(raw))

    def of(self, position: Position) -> Counts:
        """What the switches read when the board shows `position`."""
        return tuple(self._saturated(self.raw_key(position).to_bytes(len(self.locations), "little")))

    def counts(self, by_location: Mapping[Location, int]) -> Counts:
        """Counts from {location: closed switches}; missing locations read 0."""
        return self.saturate(by_location.get(location, 0) for location in self.locations)

    def key(self, raw: Iterable[int]) -> int:
        """What the switches read for `raw` counts, as one integer with a byte per
        location: one checker more or less on a location is one addition, and a
        dictionary lookup hashes one number."""
        return int.from_bytes(self._saturated(raw), "little")

    def saturated_keys(self, raw_keys: list[int]) -> list[int]:
        """`key` of each of `raw_keys` (counts in that form: `raw_key`, `side_key`),
        saturated all at once: a play tree's nodes are read by the thousand."""
        size = len(self.locations)
        counts = self._saturated(b"".join([raw.to_bytes(size, "little") for raw in raw_keys]))
        return [int.from_bytes(counts[start : start + size], "little") for start in range(0, len(counts), size)]

    def difference(self, seen: Counts, expected: Counts) -> tuple[dict[Location, int], dict[Location, int]]:
        """({location: checkers missing}, {location: checkers extra}) of `seen` against `expected`."""
        missing, extra = {}, {}
        for location, have, want in zip(self.locations, seen, expected, strict=False):
            if have < want:
                missing[location] = want - have
            elif have > want:
                extra[location] = have - want
        return missing, extra


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to explain the board: a node of the tree, and what hands are doing.

    `pending` are the points (absolute) of blots hit this turn that still stand on
    their point; `early` the points of blots already put on the bar before the
    hit; `in_hand` the location a checker was lifted from, if one is in hand.
    """

    node: PartialPlay
    pending: frozenset[int] = frozenset()
    early: frozenset[int] = frozenset()
    in_hand: Location | None = None

    @property
    def settled(self) -> bool:
        """True when the board shows the node itself, nothing in hand or on the way."""
        return not (self.pending or self.early or self.in_hand is not None)


class Tracker:
    """Explains switch counts as partial plays of one roll's play tree.

    Every node is indexed by what the switches would read, with each subset of
    its hits still pending, so that the common readings are one dictionary
    lookup, and a checker in hand or an early bar a few more.  The index is
    keyed by `Sensing.key`, so that "one checker more here" is an addition, not
    a copy of the counts.
    """

    def __init__(self, tree: PlayTree, sensing: Sensing) -> None:
        self.tree = tree
        self.sensing = sensing
        self.side = tree.side
        root = tree.root.position
        self._opponent_bar = sensing.index.get(bar(self.side.opponent))
        self._blots = [
            absolute_point(self.side.opponent, point)
            for point in range(1, 25)
            if root.checkers(self.side.opponent)[point - 1] == 1
        ]
        self._unit = [1 << (8 * slot) for slot in range(len(sensing.locations))]
        # (slot, location, limit, one more checker there) for each sensed location
        self._lifts = list(zip(range(len(sensing.locations)), sensing.locations, sensing.limits, self._unit,
                               strict=True))
        self._opponent = self.side.opponent
        self._own_off_board = (bar(self.side), tray(self.side))
        # what the switches read (Sensing.key) -> [(node, pending hits)]; Readings are made
        # only for what is read, so that the roll does not wait for hundreds of them
        self._index: dict[int, list[tuple[PartialPlay, frozenset[int]]]] = {}
        # Nodes with the same hits share the opponent's checkers: their part of the counts
        # and the readings of their hits are worked out once for each.
        hit_readings: dict[Checkers, tuple[int, list[tuple[frozenset[int], int]]]] = {}
        side_key = sensing.side_key
        raw_keys: list[int] = []
        entries: list[tuple[PartialPlay, frozenset[int]]] = []
        for node in tree.nodes():
            position = node.position
            theirs = position.checkers(self._opponent)
            known = hit_readings.get(theirs)
            if known is None:
                known = hit_readings[theirs] = (side_key(self._opponent, theirs), self._hit_readings(theirs))
            theirs_key, readings = known
            raw = side_key(self.side, position.checkers(self.side)) + theirs_key
            for pending, change in readings:
                raw_keys.append(raw + change)
                entries.append((node, pending))
        for key, entry in zip(sensing.saturated_keys(raw_keys), entries, strict=True):
            self._index.setdefault(key, []).append(entry)

    def _hit_readings(self, theirs: Checkers) -> list[tuple[frozenset[int], int]]:
        """(pending hits, change of the counts' key) for every subset of the hits that left
        the opponent with `theirs`, none pending first: a pending hit's blot is still on
        its point, not on the bar."""
        hits = [point for point in self._blots if not theirs[own_point(self._opponent, point) - 1]]
        readings: list[tuple[frozenset[int], int]] = [(frozenset(), 0)]
        for size in range(1, len(hits) + 1):
            for pending in combinations(hits, size):
                change = 0
                for point in pending:
                    change += self._unit[self.sensing.index[point]]
                    if self._opponent_bar is not None:
                        change -= self._unit[self._opponent_bar]
                readings.append((frozenset(pending), change))
        return readings

    def explain(self, seen: Counts) -> list[Reading]:
        """Every reading that explains `seen`: settled ones, ones with a checker in
        hand, and ones with a blot put on the bar early (with or without a checker
        in hand).

        All are returned because, with full points, one board can read as several
        of them (a checker put down on a full point reads like one still in hand):
        the caller decides.
        """
        key = self.sensing.key(seen)
        found = [Reading(node, pending, in_hand=in_hand) for node, pending, in_hand in self._matches(seen, key)]
        if self._opponent_bar is None or not seen[self._opponent_bar]:
            return found
        # A blot may be on the bar already: put it back on each point it may have come from.
        for point in self._blots:
            slot = self.sensing.index[point]
            if seen[slot]:
                continue
            before = list(seen)
            before[slot] += 1
            before[self._opponent_bar] -= 1
            before_key = key + self._unit[slot] - self._unit[self._opponent_bar]
            for node, pending, in_hand in self._matches(before, before_key):
                if node.position.at(point) == (self.side.opponent, 1):
                    found.append(Reading(node, pending, frozenset({point}), in_hand))
        return found

    def plausible(self, reading: Reading) -> bool:
        """False for a checker in hand that the player on turn has no business lifting:
        an opponent's checker other than a blot about to be hit, or a borne-off one."""
        location = reading.in_hand
        if location is None or location in self._own_off_board:
            return True
        if not isinstance(location, int):
            return False
        holder, count = reading.node.position.at(location)
        return holder is self.side or (count == 1 and location in self._blots)

    def _matches(self, seen: Counts | list[int], key: int) -> list[tuple[PartialPlay, frozenset[int], Location | None]]:
        """(node, pending hits, location in hand) for every node that reads as `seen`
        (whose `Sensing.key` is `key`): settled, then with one checker lifted."""
        found: list[tuple[PartialPlay, frozenset[int], Location | None]] = [
            (node, pending, None) for node, pending in self._index.get(key, ())
        ]
        for slot, location, limit, one in self._lifts:
            if seen[slot] >= limit:
                continue  # lifting one from a full location may leave it reading full: seen below
            for node, pending in self._index.get(key + one, ()):
                found.append((node, pending, location))
        return found


def position_as_made(sensing: Sensing, seen: Counts, before: Position, mover: Side) -> Position:
    """The position the board shows after `mover` moved as they pleased from `before`
    (lenient mode: an illegal play the opponent accepted).

    The opponent's checkers are where they were, but for as many blots as the
    opponent's bar half gained, which went there (if more than one choice of blots
    fits the board, it refuses); every other checker on a point is the mover's.  Checkers the switches
    cannot count are found from the 15 the mover owns: borne off when the trays are
    not sensed and no point reads full, else on the one full point.
    Raises UnreadableBoardError (a ValueError) when the board cannot be read one way only.
    """
    opponent = mover.opponent
    reading = dict(zip(sensing.locations, seen, strict=False))
    before_theirs = before.checkers(opponent)
    gained = reading.get(bar(opponent), before_theirs[24]) - before_theirs[24]
    blots = [point for point in range(1, 25) if before.at(point) == (opponent, 1)]
    if not 0 <= gained <= len(blots):
        raise UnreadableBoardError(f"{opponent.label}'s bar holds checkers that were never hit")
    made = set()
    for hit in combinations(blots, gained):
        try:
            made.add(_as_made(sensing, reading, before, mover, hit))
        except UnreadableBoardError as error:
            problem = error
    if len(made) > 1:
        raise UnreadableBoardError(f"cannot tell which of {opponent.label}'s blots were hit")
    if not made:
        raise problem
    return made.pop()


def _as_made(sensing: Sensing, reading: dict[Location, int], before: Position, mover: Side,
             hit: tuple[int, ...]) -> Position:
    """`position_as_made` with the blots on the points `hit` taken to the bar."""
    opponent = mover.opponent
    theirs = list(before.checkers(opponent))
    for point in hit:
        theirs[absolute_point(opponent, point) - 1] = 0
    theirs[24] += len(hit)
    mine = [0] * 25
    full = []
    for point in range(1, 25):
        count = reading.get(point, 0)
        limit = sensing.limits[sensing.index[point]]
        if theirs[absolute_point(opponent, point) - 1]:
            if count != min(theirs[absolute_point(opponent, point) - 1], limit):
                raise UnreadableBoardError(f"point {point} does not hold {opponent.label}'s checkers as before")
            continue
        mine[absolute_point(mover, point) - 1] = count
        if count >= limit:
            full.append(point)
    mine[24] = reading.get(bar(mover), 0)
    if tray(mover) in reading:
        unseen = 15 - reading[tray(mover)] - sum(mine)
    else:
        unseen = sum(before.checkers(mover)) - sum(mine)
        if unseen > 0 and not full:
            unseen = 0  # borne off: the trays are not sensed
    if unseen < 0:
        raise UnreadableBoardError(f"more checkers than {mover.label} owns")
    if unseen:
        if len(full) != 1:
            raise UnreadableBoardError("cannot tell where checkers hidden on full points stand")
        mine[absolute_point(mover, full[0]) - 1] += unseen
    made = Position.of(mover, tuple(mine), tuple(theirs))
    problems = made.problems()
    if problems:
        raise UnreadableBoardError("; ".join(problems))
    return made

