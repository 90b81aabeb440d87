"""Following a turn on the board: from switch counts to steps, refusals and the commit.

After a roll the table holds the roll's play tree; every change of the counts is
explained by the tracker as a partial play, reported as `step` (or `undo`) events,
or refused with the reason a player understands (`rejected`).  The turn button
commits the play when the board shows exactly one complete legal play, asks
(`ambiguous`, phase `choose`) when the switches cannot tell several apart, and
says what is missing otherwise.
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace

from bgpi.board.locations import (
    Location,
    bar,
    checkers_on,
    describe,
    in_order,
    location_of,
    tray,
)
from bgpi.rules.ids import match_id, position_id
from bgpi.rules.notation import describe_change, format_play
from bgpi.rules.play import Step
from bgpi.rules.playtree import PartialPlay, PlayTree
from bgpi.rules.position import BAR, OFF, absolute_point
from bgpi.table import events as ev
from bgpi.table.phases import Phase
from bgpi.table.state import GRACE
from bgpi.table.tracker import Reading, position_as_made


class FollowingTurn:
    """The part of `Table` that follows the mover's hands (phases `move` and `choose`).

    It works on `TableState`'s fields and reports through `Table._emit`, `_settle` and
    `_game_over`, like every part of the table.
    """

    def _track(self) -> None:
        tree, tracker = self.tree, self.tracker
        self.lenient_offer = False
        readings = [r for r in tracker.explain(self.seen) if tracker.plausible(r)]
        good = [r for r in readings if tree.is_acceptable(r.node)]
        strayed = False
        if self.following:  # the computer's play: no other
            followed = [r for r in good if self._on_the_way(r.node)]
            strayed, good = bool(good) and not followed, followed
        if self.phase == Phase.CHOOSE:
            self.phase = Phase.MOVE
            self.candidates = []
        if good:
            self.rejected = None
            self._settle(True)
            here = [r for r in good if r.node == self.node]
            settled = [r for r in good if r.settled]
            nodes = {r.node for r in good}
            ahead = [r for r in settled if r.node != self.node and self._on_the_way(r.node)]
            if ahead:
                # Following a hinted play: a checker gone from its lit point into a tray
                # without switches is borne off as the hint says, not in hand.
                chosen = min(ahead, key=lambda r: len(r.node.dice_left))
            elif here:
                chosen = min(here, key=lambda r: not r.settled)
            elif len({r.node.position for r in settled}) == 1:
                chosen = settled[0]
            elif len(nodes) == 1:
                chosen = good[0]
            else:
                # Several partial plays explain the board (checkers hidden on full points):
                # keep the last one we knew; the commit decides, asking if need be.
                self.reading = Reading(self.node)
                return
            if chosen.node != self.node:
                self._moved(self.node, chosen.node)
                self.node = chosen.node
            self.reading = chosen
            if chosen.in_hand is None:
                self.in_hand_since = None
            elif self.in_hand_since is None:
                self.in_hand_since = self.now
            self._followed()
            return
        move = self._one_checker_moved()
        if move is not None:
            self._settle(True)
            source, destination = move
            if self.rejected is None or self.rejected.points != (destination,):
                reason = (f"the computer plays {self.hint.move}: move its checkers as the blue lights show"
                          if strayed else self._why_not(source, destination))
                self.rejected = ev.Rejected(self.turn, reason, (destination,))
                self._emit(self.rejected)
            return
        self.rejected = None
        self._settle(False)

    def _one_checker_moved(self) -> tuple[Location, Location] | None:
        """(from, to) if the board differs from the current node by one of the mover's
        checkers having moved, with a blot hit on the way still allowed for."""
        missing, extra = self.sensing.difference(self.seen, self.sensing.of(self.node.position))
        if len(missing) != 1 or len(extra) != 1 or sum(missing.values()) != 1 or sum(extra.values()) != 1:
            return None
        (source,), (destination,) = missing, extra
        if source == tray(self.turn) or source == bar(self.turn.opponent):
            return None
        if isinstance(source, int) and self.node.position.at(source)[0] is not self.turn:
            return None
        return source, destination

    def _why_not(self, source: Location, destination: Location) -> str:
        """Why the mover's checker may not go from `source` to `destination` now."""
        side, node, tree = self.turn, self.node, self.tree
        own = node.position.checkers(side)
        name = describe(destination)
        if own[24] and source != bar(side):
            return "a checker on the bar must enter first"
        if destination in (bar(side), bar(side.opponent), tray(side.opponent)):
            return f"a checker may not be put on {name}"
        start = BAR if source == bar(side) else absolute_point(side, source)
        end = OFF if destination == tray(side) else absolute_point(side, destination)
        if end >= start:
            return f"checkers move forward only: {describe(source)} to {name} goes backwards"
        if end != OFF and node.position.checkers(side.opponent)[24 - end] >= 2:
            return f"{name} is blocked: {side.opponent.label} holds it"
        if end == OFF and not node.position.all_home(side):
            return "bearing off needs every checker in the home board"
        for _step, child in _paths(tree, node, start, end):
            if not tree.is_acceptable(child):
                most, _ = _best_finish(tree, child)
                if most < tree.most_dice:
                    return "that leaves a die unplayable: the play must use as many dice as possible"
                return "the larger die must be played"
        dice = " and ".join(str(d) for d in node.dice_left) or "none"
        return f"no die moves a checker from {describe(source)} to {name} (dice left: {dice})"

    def _moved(self, before: PartialPlay, after: PartialPlay) -> None:
        """Step (or undo) events for the board going from `before` to `after`."""
        side = self.turn
        forward = steps_between(self.tree, before, after)
        backward = None if forward is not None else steps_between(self.tree, after, before)
        if forward is None and backward is None:
            backward = steps_between(self.tree, self.tree.root, before)
            forward = steps_between(self.tree, self.tree.root, after)
        for chain in _chains(backward or []):
            self._emit(ev.Undo(side, location_of(side, chain[-1].destination), location_of(side, chain[0].source)))
        for chain in _chains(forward or []):
            self._emit(ev.Step(side, location_of(side, chain[0].source), location_of(side, chain[-1].destination),
                               any(step.hit for step in chain)))

    def _try_commit(self) -> None:
        tree, tracker = self.tree, self.tracker
        readings = [r for r in tracker.explain(self.seen) if tracker.plausible(r)] if self.seen else []
        complete = {}
        for reading in readings:
            if reading.settled and tree.is_complete(reading.node):
                complete.setdefault(reading.node.position, reading.node)
        if len(complete) == 1:
            self._commit(next(iter(complete.values())))
            return
        if len(complete) > 1:
            self.candidates = list(complete.values())
            self.choice = 0
            self.phase = Phase.CHOOSE
            self._emit(ev.Ambiguous(self.turn, tuple(format_play(steps_to(tree, node)) for node in self.candidates)))
            return
        if self._contradicts_a_choice(readings):
            return
        held = {reading.in_hand for reading in readings}
        if (len(held) == 1 and None not in held and self.mismatch is None and self.in_hand_since is not None
                and self.now - self.in_hand_since + 1e-9 >= GRACE):
            # A checker "in hand" all along while the player commits: more likely a switch
            # that does not close under a checker than a hand holding one.
            self._mismatch({held.pop(): 1}, {})
            return
        reason, points = self._why_not_complete(readings)
        lenient = None
        if self.lenient:
            self.lenient_offer = True
            opponent = self.turn.opponent.label
            lenient = f"{opponent} may accept the play as made with {opponent}.turn"
        self.rejected = ev.Rejected(self.turn, reason, tuple(points), lenient)  # lit until the board changes
        self._emit(self.rejected)

    def _contradicts_a_choice(self, readings: list[Reading]) -> bool:
        """A commit that the switches only explain with a checker in hand from a point the
        game believes fuller than its switches can count, after a reading was chosen this
        game: the chosen reading may have been the wrong one, and the board holds fewer
        checkers there than the game has.  Said as a mismatch (put a checker back there),
        never as a checker in hand; play goes on once the board is put right."""
        if not self.guessed or self.rejected is not None:
            return False
        complete = [r for r in readings if r.in_hand is not None and self.tree.is_complete(r.node)]
        if not complete:
            return False
        reading = complete[0]
        hand = reading.in_hand
        believed = checkers_on(reading.node.position, hand)
        if believed < self.sensing.limits[self.sensing.index[hand]]:
            return False
        missing, extra = self.sensing.difference(self.seen, self.sensing.of(reading.node.position))
        self.mismatch = ev.Mismatch(missing, extra, reason=(
            f"the board has fewer checkers on {describe(hand)} than the game: a reading "
            "chosen earlier this game was not the play made; put the checkers as lit"))
        self.unexplained_since = self.now
        self._emit(self.mismatch)
        return True

    def _why_not_complete(self, readings: list[Reading]) -> tuple[str, list[Location]]:
        side = self.turn
        if self.rejected is not None and self.rejected.points:
            reason, take_back = self.rejected.reason, "take back the checker that may not stand there: "
            return take_back + reason.removeprefix(take_back), list(self.rejected.points)
        for reading in readings:
            if reading.in_hand is not None:
                return "a checker is still in hand: put it down first", [reading.in_hand]
            if reading.pending:
                return "the hit checker must go to the bar first", in_order(reading.pending)
        if self.mismatch is not None or not readings:
            return "the board does not show a legal play", []
        node = readings[0].node
        if not self.tree.is_acceptable(node):
            return "this play cannot be completed legally", []
        movable = in_order({location_of(side, step.source) for step, _ in self.tree.steps(node)})
        dice = " and ".join(str(d) for d in node.dice_left)
        return f"the play is not finished: {dice} still to play", movable

    def _commit(self, node: PartialPlay) -> None:
        side = self.turn
        self.phase = Phase.MOVE
        self.candidates = []
        if node != self.node:
            # Steps the switches could not see (a checker put down on a full point).
            self._moved(self.node, node)
            self.node = node
        steps = steps_to(self.tree, node)
        after = node.position
        over = after.winner() is not None
        game = self.game.end_turn()
        coach = self.coach_request()  # asked with the position before the play
        play = ev.Play(side, (self.dice.first, self.dice.second), format_play(steps),
                       position_id(after, side.opponent), match_id(game.match_key(over=over)))
        self._emit(play)
        if over:
            self._game_over(self.game.result(after))
        elif coach is not None:
            self.wants_advice = replace(coach, played=play.move, after=play.position_id)

    def _accept_as_made(self) -> None:
        """Lenient mode: the opponent accepts an illegal play; the game goes on from the board."""
        side = self.turn
        self.lenient_offer = False
        try:
            after = position_as_made(self.sensing, self.seen, self.position, side)
        except ValueError as error:
            self._emit(ev.Rejected(side.opponent, f"cannot accept the play as made: {error}"))
            return
        over = after.winner() is not None
        self._emit(ev.Play(side, (self.dice.first, self.dice.second), describe_change(self.position, after, side),
                           position_id(after, side.opponent), match_id(self.game.end_turn().match_key(over=over)),
                           lenient=True))
        if over:
            self._game_over(self.game.result(after))



def steps_between(tree: PlayTree, start: PartialPlay, goal: PartialPlay) -> list[Step] | None:
    """The steps from `start` down the tree to `goal`, or None if `goal` is not below it.

    Breadth first; each node found keeps the node and step it was found from, so
    no path is copied on the way and the one to `goal` is read back at the end.
    Every step uses a die, so only nodes with more dice left than `goal` can lead
    to it: the search goes no deeper (an undo fails at once).
    """
    found_from: dict[PartialPlay, tuple[PartialPlay, Step] | None] = {start: None}
    queue = deque([start])
    deepest = len(goal.dice_left) + 1  # the fewest dice left a node on the way may have
    while queue:
        node = queue.popleft()
        if node == goal:
            steps = []
            while (back := found_from[node]) is not None:
                node, step = back
                steps.append(step)
            return steps[::-1]
        if len(node.dice_left) < deepest:
            continue
        for step, child in tree.steps(node):
            if child not in found_from:
                found_from[child] = (node, step)
                queue.append(child)
    return None


def steps_to(tree: PlayTree, node: PartialPlay) -> list[Step]:
    """The steps from the roll's start to `node`."""
    return steps_between(tree, tree.root, node) or []


def _chains(steps: list[Step]) -> list[list[Step]]:
    """Steps grouped by checker: a step that starts where the last one ended continues it."""
    chains: list[list[Step]] = []
    for step in steps:
        if chains and chains[-1][-1].destination == step.source and step.source != OFF:
            chains[-1].append(step)
        else:
            chains.append([step])
    return chains


def _paths(tree: PlayTree, node: PartialPlay, start: int, end: int):
    """Every (last step, node) a single checker reaches from `start` to `end` (own count)."""
    frontier = [(node, start)]
    while frontier:
        at, point = frontier.pop()
        for step, child in tree.steps(at):
            if step.source != point:
                continue
            if step.destination == end:
                yield step, child
            elif step.destination > end:
                frontier.append((child, step.destination))


def _best_finish(tree: PlayTree, node: PartialPlay) -> tuple[int, int]:
    """The most dice, and then pips, any play through `node` can use."""
    children = tree.steps(node)
    if not children:
        used = len(tree.dice.steps) - len(node.dice_left)
        return used, sum(tree.dice.steps) - sum(node.dice_left)
    return max(_best_finish(tree, child) for _, child in children)
