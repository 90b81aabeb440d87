"""The play tree: every half-finished play of one roll, built once per roll.

At the table a turn is played a checker at a time, in any order, and may be taken
back.  The tree holds every *partial play* (the position after some steps, with
the dice still unused) so that the tracker can answer in constant time:

* is what the board shows *acceptable*, i.e. can it still be completed to a legal
  play (docs/rules.md §4: most dice, larger die)?
* where may a checker on a given point go next, by one die or by several?
* is it a *complete* legal play, ready to commit?

It is built while the dice animate, on a small Pi, so the search runs on integer
*node keys* rather than objects: one byte per location for the mover's count
(0 off, 1..24 the points, 25 the bar), then a bit per point whose opposing blot
has been hit, then which dice are left (an index into the roll's few multisets
of dice left).  A step is then one addition, and a node one dictionary entry.
The `PartialPlay` objects callers see are made once per node after the search,
each keeping its hash, and the `Step` objects are shared by every tree.
Whether a node is complete depends only on the dice it leaves, so complete
nodes are found by their group of dice left.

Its complete nodes are exactly the results of `reference.legal_plays`, which the
tests check.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import compress
from operator import itemgetter

from bgpi.rules.play import Dice, Step
from bgpi.rules.position import BAR, OFF, Position, Side
from bgpi.rules.steps import BLOT, CLOSED, LANDING, bears_off


@dataclass(frozen=True, slots=True)
class PartialPlay:
    """A node of the tree: the position after some steps and the dice left.

    `dice_left` is sorted from high to low.  The same position can be reached
    with different dice left (bearing off a checker from the 3-point with a 5 or
    with a 6), so a node is the pair.  Nodes are dictionary keys and compared
    everywhere in the table, so the hash is computed once and a node is equal to
    itself without comparing positions.
    """

    position: Position
    dice_left: tuple[int, ...]
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.position, self.dice_left)))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if self is other:  # a tree makes each node once: the usual case, answered at once
            return True
        if other.__class__ is not PartialPlay:
            return NotImplemented
        return self.dice_left == other.dice_left and self.position == other.position


@dataclass(frozen=True, slots=True)
class Reach:
    """Where one checker can get from a node: the step(s) it takes and the node after them."""

    steps: tuple[Step, ...]
    node: PartialPlay

    @property
    def destination(self) -> int:
        return self.steps[-1].destination

    @property
    def dice(self) -> int:
        """How many dice the checker uses: 1 for a single step, more for combined steps."""
        return len(self.steps)


# The node key: a byte per location, then hit flags, then the index of the dice left.
_UNIT = tuple(1 << (8 * location) for location in range(BAR + 1))
_HITS = 8 * (BAR + 1)  # bit _HITS + point: the opposing blot on that point was hit
_HIT_FLAGS = (1 << 32) - 1
_LEFT = _HITS + 32  # the index of the dice left, in PlayTree._lefts
_KEY_BYTES = _LEFT // 8 + 1
_LEFT_BYTE = _LEFT // 8
_POINTS_DOWN = range(BAR - 1, 0, -1)

_CHILD = itemgetter(1)  # of a (step, child) pair

# _STEPS[source][die][hit]: the one Step object for each step (a bear-off from below
# the die's number goes to OFF), shared by every tree.
_STEPS = [
    [[Step(source, max(source - die, OFF), die, hit) for hit in (False, True)] for die in range(7)]
    for source in range(BAR + 1)
]


class PlayTree:
    """Every partial play of `side` rolling `dice` in `position`."""

    def __init__(self, position: Position, side: Side, dice: Dice) -> None:
        self.side = side
        self.dice = dice
        own = position.checkers(side)
        self._opponents = {0: position.checkers(side.opponent)}  # by the hit flags of a node key
        self._lefts, self._dice_moves = _dice_left(dice)
        root_key = int.from_bytes(bytes((0, *own)), "little")
        nodes, children = self._search(root_key)
        # node -> ((step, child), ...) for every single step allowed on its own
        self._steps: dict[PartialPlay, tuple[tuple[Step, PartialPlay], ...]] = {
            nodes[key]: found for key, found in children.items()
        }
        self.root = nodes[root_key]
        # The nodes by the dice they leave, fewest dice first; a node's dice used
        # and pips played follow from its dice left alone.
        by_left: dict[tuple[int, ...], list[PartialPlay]] = {}
        for node in self._steps:
            by_left.setdefault(node.dice_left, []).append(node)
        self._by_left = sorted(by_left.items(), key=lambda group: len(group[0]))
        total, most = sum(dice.steps), len(dice.steps)
        self._most_dice = most - len(self._by_left[0][0])
        best = max(total - sum(left) for left, _ in self._by_left if most - len(left) == self._most_dice)
        self._complete = frozenset(
            node
            for left, nodes in self._by_left
            if most - len(left) == self._most_dice and total - sum(left) == best
            for node in nodes
        )
        self._acceptable = self._find_acceptable()
        self._reaches: dict[tuple[PartialPlay, int], tuple[Reach, ...]] = {}
        self._by_position: dict[Position, list[PartialPlay]] | None = None

    def _search(self, root: int) -> tuple[dict[int, PartialPlay], dict[int, tuple[tuple[Step, PartialPlay], ...]]]:
        """({node key: node}, {node key: ((step, child), ...)}) for every node below
        `root`, depth first; each node is made when it is first found."""
        moves = self._moves()
        nodes = {root: self._node(root)}
        children: dict[int, tuple[tuple[Step, PartialPlay], ...]] = {}
        pending = [root]
        while pending:
            key = pending.pop()
            if key in children:
                continue
            fields = key.to_bytes(_KEY_BYTES, "little")
            found = []
            # The bar while a checker waits there (docs/rules.md §5), else the occupied points, highest first.
            sources = [BAR] if fields[BAR] else list(compress(_POINTS_DOWN, fields[BAR - 1 : 0 : -1]))
            for die, left_change in self._dice_moves[fields[_LEFT_BYTE]]:
                by_source = moves[die]
                for source in sources:
                    move = by_source[source]
                    if move is not None:
                        change, step, blot, hit_change, hit_step = move
                        if blot and not key & blot:
                            change, step = hit_change, hit_step
                    elif bears_off(source, die, sources[0]):
                        change, step = _UNIT[OFF] - _UNIT[source], _STEPS[source][die][False]
                    else:
                        continue
                    child_key = key + change + left_change
                    child = nodes.get(child_key)
                    if child is None:
                        child = nodes[child_key] = self._node(child_key)
                    found.append((step, child))
                    if child_key not in children:
                        pending.append(child_key)
            children[key] = tuple(found)
        return nodes, children

    def _moves(self) -> list[list[tuple[int, Step, int, int, Step] | None]]:
        """[die][source]: a step of `die` from `source` onto the board, as (change of node
        key, step, the hit flag of the blot it would hit or 0, the change and step if it
        does hit); None where it leaves the board or the opponent holds the point.

        The opponent's checkers stay where they are during a play but for the blots
        hit, so what a step meets is worked out once per tree."""
        meets = bytes([CLOSED, *self._opponents[0][23::-1]]).translate(LANDING)  # by location, 0 off
        moves: list[list[tuple[int, Step, int, int, Step] | None]] = [[] for _ in range(7)]
        for die in set(self.dice.steps):
            for source in range(BAR + 1):
                destination = source - die
                if destination <= 0 or meets[destination] == CLOSED:
                    moves[die].append(None)
                    continue
                change = _UNIT[destination] - _UNIT[source]
                blot = 1 << (_HITS + destination) if meets[destination] == BLOT else 0
                moves[die].append((change, _STEPS[source][die][False], blot, change + blot, _STEPS[source][die][True]))
        return moves

    def _node(self, key: int) -> PartialPlay:
        fields = key.to_bytes(_KEY_BYTES, "little")
        hits = key >> _HITS & _HIT_FLAGS
        opponent = self._opponents.get(hits)
        if opponent is None:  # the opponent's checkers after these hits, made once per set of hits
            taken = [point for point in range(1, BAR) if hits >> point & 1]
            counts = list(self._opponents[0])
            for point in taken:
                counts[24 - point] = 0
            counts[24] += len(taken)
            opponent = self._opponents[hits] = tuple(counts)
        own = tuple(fields[1 : BAR + 1])
        position = Position(own, opponent) if self.side is Side.WHITE else Position(opponent, own)
        return PartialPlay(position, self._lefts[fields[_LEFT_BYTE]])

    def _find_acceptable(self) -> frozenset[PartialPlay]:
        # Children have fewer dice left than their parents, so visiting nodes by
        # dice left, fewest first, settles every child before its parent.
        acceptable: set[PartialPlay] = set(self._complete)
        for _, nodes in self._by_left:
            for node in nodes:
                if not acceptable.isdisjoint(map(_CHILD, self._steps[node])):
                    acceptable.add(node)
        return frozenset(acceptable)

    # -- queries -------------------------------------------------------------

    @property
    def most_dice(self) -> int:
        """How many dice a legal play of this roll uses."""
        return self._most_dice

    def nodes(self) -> list[PartialPlay]:
        """Every partial play, acceptable or not."""
        return list(self._steps)

    def find(self, position: Position) -> list[PartialPlay]:
        """The partial plays that show `position` on the board (usually one, or none)."""
        if self._by_position is None:  # built on first use: the roll does not wait for it
            self._by_position = {}
            for node in self._steps:
                self._by_position.setdefault(node.position, []).append(node)
        return self._by_position.get(position, [])

    def is_acceptable(self, node: PartialPlay) -> bool:
        """True if `node` can still be completed to a legal play."""
        return node in self._acceptable

    def is_complete(self, node: PartialPlay) -> bool:
        """True if `node` is a legal play, ready to commit."""
        return node in self._complete

    def complete_plays(self) -> list[PartialPlay]:
        """The legal plays: one node per distinct resulting position and dice left."""
        return [node for node in self._steps if node in self._complete]

    def steps(self, node: PartialPlay) -> tuple[tuple[Step, PartialPlay], ...]:
        """Every single step allowed from `node`, with the node it leads to."""
        return self._steps[node]

    def reaches(self, node: PartialPlay, source: int) -> tuple[Reach, ...]:
        """Where a checker lifted from `source` (own count) may legally go from `node`.

        Only moves after which the play can still be completed are listed: by one
        die, and by several dice taken by this one checker.  Each destination
        appears with the fewest dice that reach it (several entries when they
        differ in what they hit).
        """
        key = (node, source)
        if key not in self._reaches:
            self._reaches[key] = self._walk(node, source) if node in self._acceptable else ()
        return self._reaches[key]

    def _walk(self, node: PartialPlay, source: int) -> tuple[Reach, ...]:
        found: dict[tuple[int, PartialPlay], Reach] = {}
        frontier: list[tuple[tuple[Step, ...], PartialPlay, int]] = [((), node, source)]
        while frontier:
            path, at, point = frontier.pop()
            for step, child in self._steps[at]:
                if step.source != point or child not in self._acceptable:
                    continue
                reach = Reach((*path, step), child)
                known = found.get((step.destination, child))
                if known is None or known.dice > reach.dice:
                    found[(step.destination, child)] = reach
                if step.destination != OFF:
                    frontier.append((reach.steps, child, step.destination))
        return tuple(sorted(found.values(), key=lambda r: (r.dice, -r.destination)))


def _dice_left(dice: Dice) -> tuple[list[tuple[int, ...]], list[list[tuple[int, int]]]]:
    """The multisets of dice a play of `dice` can leave (high to low; the whole roll
    first), and for each, its distinct dice in increasing order with the change of
    node key that playing one makes."""
    lefts = [tuple(sorted(dice.steps, reverse=True))]
    moves: list[list[tuple[int, int]]] = []
    for index, left in enumerate(lefts):  # grows while it is read: every multiset reachable from the roll
        playable = []
        for die in sorted(set(left)):
            remaining = list(left)
            remaining.remove(die)
            rest = tuple(remaining)
            if rest not in lefts:
                lefts.append(rest)
            playable.append((die, (lefts.index(rest) - index) << _LEFT))
        moves.append(playable)
    return lefts, moves
