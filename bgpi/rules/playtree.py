"""The play tree: every half-finished play of one roll, built once per roll.

At the table a turn is played a checker at a time, in any order, and may be taken
back.  The tree holds every *partial play* (the position after some steps, with
the dice still unused) so that the tracker can answer in constant time:

* is what the board shows *acceptable*, i.e. can it still be completed to a legal
  play (rules.md §4: most dice, larger die)?
* where may a checker on a given point go next, by one die or by several?
* is it a *complete* legal play, ready to commit?

It is built while the dice animate.  Its complete nodes are exactly the results of
`movegen.legal_plays`, which the tests check.
"""

from __future__ import annotations

from dataclasses import dataclass

from bgpi.rules.movegen import step_destination, take_step
from bgpi.rules.play import Dice, Step
from bgpi.rules.position import BAR, OFF, Position, Side


@dataclass(frozen=True, slots=True)
class PartialPlay:
    """A node of the tree: the position after some steps and the dice left.

    `dice_left` is sorted from high to low.  The same position can be reached
    with different dice left (bearing off a checker from the 3-point with a 5 or
    with a 6), so a node is the pair.
    """

    position: Position
    dice_left: tuple[int, ...]


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


class PlayTree:
    """Every partial play of `side` rolling `dice` in `position`."""

    def __init__(self, position: Position, side: Side, dice: Dice) -> None:
        self.side = side
        self.dice = dice
        self.root = PartialPlay(position, tuple(sorted(dice.steps, reverse=True)))
        # node -> {(source, die): (step, child)} for every single step allowed on its own
        self._steps: dict[PartialPlay, dict[tuple[int, int], tuple[Step, PartialPlay]]] = {}
        self._by_position: dict[Position, list[PartialPlay]] = {}
        self._expand()
        total = sum(dice.steps)
        self._most_dice = max(len(dice.steps) - len(node.dice_left) for node in self._steps)
        self._most_pips = max(
            total - sum(node.dice_left)
            for node in self._steps
            if len(dice.steps) - len(node.dice_left) == self._most_dice
        )
        self._complete = frozenset(node for node in self._steps if self._uses_most(node))
        self._acceptable = self._find_acceptable()
        self._reaches: dict[tuple[PartialPlay, int], tuple[Reach, ...]] = {}

    def _expand(self) -> None:
        pending = [self.root]
        while pending:
            node = pending.pop()
            if node in self._steps:
                continue
            children = {}
            own = node.position.checkers(self.side)
            opponent = node.position.checkers(self.side.opponent)
            sources = [point for point in range(BAR, 0, -1) if own[point - 1]]
            for die in set(node.dice_left):
                left = list(node.dice_left)
                left.remove(die)
                left = tuple(left)
                for source in sources:
                    destination = step_destination(own, opponent, source, die)
                    if destination is None:
                        continue
                    step, after = take_step(own, opponent, source, destination, die)
                    child = PartialPlay(Position.of(self.side, *after), left)
                    children[(source, die)] = (step, child)
                    if child not in self._steps:
                        pending.append(child)
            self._steps[node] = children
            self._by_position.setdefault(node.position, []).append(node)

    def _uses_most(self, node: PartialPlay) -> bool:
        used = len(self.dice.steps) - len(node.dice_left)
        pips = sum(self.dice.steps) - sum(node.dice_left)
        return used == self._most_dice and pips == self._most_pips

    def _find_acceptable(self) -> frozenset[PartialPlay]:
        # Children have fewer dice left than their parents, so visiting nodes by
        # dice left, fewest first, settles every child before its parent.
        acceptable: set[PartialPlay] = set(self._complete)
        for node in sorted(self._steps, key=lambda n: len(n.dice_left)):
            if any(child in acceptable for _, child in self._steps[node].values()):
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

    def steps(self, node: PartialPlay) -> list[tuple[Step, PartialPlay]]:
        """Every single step allowed from `node`, with the node it leads to."""
        return list(self._steps[node].values())

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
        frontier = [((), node, source)]
        while frontier:
            path, at, point = frontier.pop()
            for (step_source, _), (step, child) in self._steps[at].items():
                if step_source != point or child not in self._acceptable:
                    continue
                reach = Reach((*path, step), child)
                known = found.get((step.destination, child))
                if known is None or known.dice > reach.dice:
                    found[(step.destination, child)] = reach
                if step.destination != OFF:
                    frontier.append((reach.steps, child, step.destination))
        return tuple(sorted(found.values(), key=lambda r: (r.dice, -r.destination)))

