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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

from bgpi.board.locations import (
    Location,
    bar,
    checkers_on,
    describe,
    in_order,
    location_of,
    own_count,
    tray,
)
from bgpi.exc import UnreadableBoardError
from bgpi.rules.ids import match_id, position_id
from bgpi.rules.notation import describe_change, format_play
from bgpi.rules.play import Step
from bgpi.rules.playtree import PartialPlay, PlayTree
from bgpi.rules.position import OFF, Side
from bgpi.rules.result import GameResult
from bgpi.table import events as ev
from bgpi.table.events import Emit
from bgpi.table.phases import Phase
from bgpi.table.state import Board, Moving, TableState
from bgpi.table.tracker import Counts, Reading, Sensing, position_as_made
from bgpi.table.watch import GRACE, Watch


class FollowingTurn:
    """The part of the table that follows the mover's hands (phases move and choose).

    Reads the board (`seen`, `now`), the game and the session's setup (lenient play);
    changes the roll being played (`state.moving`: the partial play shown, the readings,
    the candidates), the phase between move and choose, and the refusal lit
    (`state.rejected`); emits ``step``, ``undo``, ``rejected``, ``ambiguous``, ``play``
    and the game's end, and tells the `Watch` whether the board shows the game.
    """

    def __init__(self, state: TableState, board: Board, watch: Watch, emit: Emit) -> None:
        self.state, self.board, self.watch, self.emit = state, board, watch, emit
        self.won: Callable[[GameResult], None] = self.end_game
        """What a play that wins the game ends it with: `end_game`, or a chouette's own."""

    # -- the board changed -----------------------------------------------------------

    def track(self) -> None:
        """Explain the board's counts as a partial play of the roll: steps, or a refusal."""
        state, moving = self.state, self.state.current_roll()
        moving.lenient_offer = False
        tracker = moving.tracker
        before, moving.seen = moving.seen, self.board.seen
        readings = [r for r in tracker.explain(self._seen()) if tracker.plausible(r)]
        good = [r for r in readings if moving.tree.is_acceptable(r.node)]
        strayed = False
        if moving.following:  # the computer's play: no other
            followed = [r for r in good if on_the_way(moving, r.node)]
            strayed, good = bool(good) and not followed, followed
        if state.phase == Phase.CHOOSE:
            state.phase = Phase.MOVE
            moving.candidates = []
        if good:
            state.rejected = None
            self.watch.settle(True)
            self._follow(moving, good, before)
            return
        move = self._one_checker_moved(moving)
        if move is None:
            state.rejected = None
            self.watch.settle(False)
            return
        self.watch.settle(True)
        source, destination = move
        if state.rejected is None or state.rejected.points != (destination,):
            hint = state.advice.hint
            if strayed and isinstance(hint, ev.ComputerPlay):
                reason = f"the computer plays {hint.move}: move its checkers as the blue lights show"
            elif strayed and isinstance(hint, ev.RemotePlay):
                reason = (f"{hint.player.label} plays {hint.move} on the other board: "
                          "move its checkers as the blue lights show")
            else:
                reason = self._why_not(moving, source, destination)
            state.rejected = ev.Rejected(state.current_turn(), reason, (destination,))
            self.emit(state.rejected)

    def _follow(self, moving: Moving, good: list[Reading], before: Counts | None) -> None:
        """The board shows legal partial plays (`good`): go on from the likeliest one
        (`before`: what the switches read a moment ago, if known)."""
        shown = self.board.expected(moving.node.position)
        lifted = before == shown and any(r.node == moving.node and r.in_hand is not None for r in good)
        chosen = _likeliest(moving, good, self.board.seen == shown, lifted)
        if chosen is None:
            # Several partial plays explain the board (checkers hidden on full points):
            # keep the last one we knew; the commit decides, asking if need be.
            moving.reading = Reading(moving.node)
            return
        if chosen.node != moving.node:
            self._moved(moving, moving.node, chosen.node)
            moving.node = chosen.node
        moving.reading = chosen
        if chosen.in_hand is None:
            moving.in_hand_since = None
        elif moving.in_hand_since is None:
            moving.in_hand_since = self.board.now
        if moving.following:
            self.follow_plan()
        elif moving.hinted is not None and not on_the_way(moving, moving.node):
            self.state.advice.hint = moving.hinted = None  # the board left a human's hint

    def follow_plan(self) -> None:
        """Commit the play followed (the computer's, the other board's) once the board has
        shown it step by step and shows it with nothing in hand (a checker put in a tray
        without switches reads as lifted until then).  A lit step no switch can see made
        is asked for instead (`unseen_step`), and made by a press (`confirm_unseen`)."""
        moving = self.state.moving
        if moving is None or not moving.following or moving.hinted is None or self.board.seen is None:
            return
        if moving.node != moving.hinted:
            self._ask_unseen(moving, moving.hinted)
            return
        tracker = moving.tracker
        if any(reading.node == moving.hinted and reading.settled
               for reading in tracker.explain(self.board.seen) if tracker.plausible(reading)):
            self.commit(moving.hinted)

    def _ask_unseen(self, moving: Moving, goal: PartialPlay) -> None:
        """Light the next step of the play followed, and ask for a press if no switch can
        see it made: it takes a checker from a point that stays full, onto one, or into a
        tray without switches (2/off from seven checkers on the 2-point)."""
        steps = steps_between(moving.tree, moving.node, goal)
        chain = lit_chain(steps)
        after = _through(moving.tree, moving.node, chain)
        if not chain or self.board.expected(after.position) != self.board.expected(moving.node.position):
            moving.unseen = None
            return
        if after != moving.unseen:
            moving.unseen = after
            side = self.state.current_turn()
            self.emit(ev.UnseenStep(side, location_of(side, chain[0].source), location_of(side, chain[-1].destination),
                                    confirmer(self.state)))

    def confirms(self, side: Side) -> bool:
        """Whether a press of `side`'s turn button now says the lit step no switch can see is made."""
        moving = self.state.moving
        if self.state.phase != Phase.MOVE or moving is None or moving.unseen is None:
            return False
        by = confirmer(self.state)
        return by is None or side is by

    def confirm_unseen(self) -> None:
        """The lit step no switch can see is made, a press says: the play goes on from
        there (its steps logged), and commits once it stands.  Refused while the board
        does not show the play so far (a checker in hand, one misplaced)."""
        moving = self.state.current_roll()
        after = moving.unseen
        if after is None:
            return
        if self.board.seen != self.board.expected(moving.node.position):
            self.emit(ev.Rejected(confirmer(self.state), "the board does not show the play so far: move the "
                                  "checkers as the blue lights show, then press turn"))
            return
        self._moved(moving, moving.node, after)
        moving.node, moving.reading, moving.unseen = after, Reading(after), None
        self.follow_plan()

    def resume(self, events: Sequence[ev.Event]) -> None:
        """A table read back from its journal (`events`) with a play to follow lit: it goes
        on from the steps of this roll the journal holds, the lit step the one last shown.
        The switches alone cannot tell a step no switch sees, confirmed before the power
        cut: it would be asked for again, and the hands following the lights would make it
        twice.  Steps the play tree cannot retrace leave the play to the switches."""
        moving = self.state.moving
        if moving is None or not moving.following:
            return
        node = moving.tree.root
        for event in _this_roll(events):
            if isinstance(event, ev.Step | ev.Undo):
                retraced = _retrace(moving, node, event)
                if retraced is None:
                    return
                node = retraced
        moving.node, moving.reading = node, Reading(node)

    def _seen(self) -> tuple[int, ...]:
        return self.board.seen or ()

    def _one_checker_moved(self, moving: Moving) -> tuple[Location, Location] | None:
        """(from, to) if the board differs from the current node by one of the mover's
        checkers having moved, with a blot hit on the way still allowed for."""
        missing, extra = self.board.sensing.difference(self._seen(), self.board.expected(moving.node.position))
        if len(missing) != 1 or len(extra) != 1 or sum(missing.values()) != 1 or sum(extra.values()) != 1:
            return None
        (source,), (destination,) = missing, extra
        side = self.state.current_turn()
        if source == tray(side) or source == bar(side.opponent):
            return None
        if isinstance(source, int) and moving.node.position.at(source)[0] is not side:
            return None
        return source, destination

    def _why_not(self, moving: Moving, source: Location, destination: Location) -> str:
        """Why the mover's checker may not go from `source` to `destination` now."""
        side, node = self.state.current_turn(), moving.node
        name = describe(destination, side)  # in the mover's count, as the page labels the points
        if node.position.checkers(side)[24] and source != bar(side):
            return "a checker on the bar must enter first"
        if destination in (bar(side), bar(side.opponent), tray(side.opponent)):
            return f"a checker may not be put on {name}"
        if isinstance(source, str) and source != bar(side):
            return f"a checker may not be taken from {describe(source, side)}"  # the opponent's tray
        start, end = own_count(side, source), own_count(side, destination)
        if end >= start:
            return f"checkers move forward only: {describe(source, side)} to {name} goes backwards"
        if end != OFF and node.position.checkers(side.opponent)[24 - end] >= 2:
            return f"{name} is blocked: {side.opponent.label} holds it"
        if end == OFF and not node.position.all_home(side):
            return "bearing off needs every checker in the home board"
        tree = moving.tree
        for _step, child in _paths(tree, node, start, end):
            if not tree.is_acceptable(child):
                most, _ = _best_finish(tree, child)
                if most < tree.most_dice:
                    return "that leaves a die unplayable: the play must use as many dice as possible"
                return "the larger die must be played"
        dice = " and ".join(str(d) for d in node.dice_left) or "none"
        return f"no die moves a checker from {describe(source, side)} to {name} (dice left: {dice})"

    def _moved(self, moving: Moving, before: PartialPlay, after: PartialPlay) -> None:
        """Step (or undo) events for the board going from `before` to `after`."""
        side, tree = self.state.current_turn(), moving.tree
        forward = steps_between(tree, before, after)
        backward = None if forward is not None else steps_between(tree, after, before)
        if forward is None and backward is None:
            backward = steps_between(tree, tree.root, before)
            forward = steps_between(tree, tree.root, after)
        for chain in chains(backward or []):
            self.emit(ev.Undo(side, location_of(side, chain[-1].destination), location_of(side, chain[0].source)))
        for chain in chains(forward or []):
            self.emit(ev.Step(side, location_of(side, chain[0].source), location_of(side, chain[-1].destination),
                              any(step.hit for step in chain)))

    # -- the turn button -----------------------------------------------------------------

    def choose_next(self) -> None:
        """Show the next of the plays the switches cannot tell apart."""
        moving = self.state.current_roll()
        moving.choice = (moving.choice + 1) % len(moving.candidates)

    def choose_this(self) -> None:
        """Commit the play shown among those the switches cannot tell apart."""
        moving = self.state.current_roll()
        self.commit(moving.candidates[moving.choice])

    def try_commit(self) -> None:
        """The mover pressed *turn*: commit the play the board shows, ask which one it
        is, or say what is missing."""
        moving = self.state.current_roll()
        tree, tracker = moving.tree, moving.tracker
        seen = self.board.seen
        readings = [r for r in tracker.explain(seen) if tracker.plausible(r)] if seen else []
        complete: dict[object, PartialPlay] = {}
        for reading in readings:
            if reading.settled and tree.is_complete(reading.node):
                complete.setdefault(reading.node.position, reading.node)
        plays = list(complete.values())
        in_hand = None
        if len(plays) == 1 and plays[0] != moving.hinted:
            # (The hinted play, lit checker by checker, is the one the mover was following.)
            in_hand = _hidden_or_in_hand(self.board.sensing, seen, plays, readings)
        if len(complete) == 1 and in_hand is None:
            self.commit(next(iter(complete.values())))
            return
        if complete:
            # Several plays, or one play with a checker hidden on a full point that may as
            # well still be in hand: the switches cannot tell, so the mover says.
            moving.candidates = list(complete.values())
            moving.choice = 0
            self.state.phase = Phase.CHOOSE
            self.emit(ev.Ambiguous(self.state.current_turn(),
                                   tuple(format_play(steps_to(tree, node)) for node in moving.candidates),
                                   in_hand))
            return
        if self._contradicts_a_choice(moving, readings):
            return
        if self._held_all_along(moving, readings):
            return
        self._refuse_commit(moving, readings)

    def _held_all_along(self, moving: Moving, readings: list[Reading]) -> bool:
        """A checker "in hand" all along while the player commits: more likely a switch
        that does not close under a checker than a hand holding one (a mismatch)."""
        held = {reading.in_hand for reading in readings}
        since = moving.in_hand_since
        if (len(held) == 1 and None not in held and self.state.trouble.mismatch is None and since is not None
                and self.board.now - since + 1e-9 >= GRACE):
            hand = held.pop()
            assert hand is not None  # `None not in held`
            self.watch.pause({hand: 1}, {})
            return True
        return False

    def _refuse_commit(self, moving: Moving, readings: list[Reading]) -> None:
        side = self.state.current_turn()
        reason, points = self._why_not_complete(moving, readings)
        lenient = None
        if self.state.setup.lenient:
            moving.lenient_offer = True
            lenient = f"{side.opponent.label} may accept the play as made with {side.opponent.label}.turn"
        self.state.rejected = ev.Rejected(side, reason, tuple(points), lenient)  # lit until the board changes
        self.emit(self.state.rejected)

    def _contradicts_a_choice(self, moving: Moving, readings: list[Reading]) -> bool:
        """A commit that the switches only explain with a checker in hand from a point the
        game believes fuller than its switches can count, after a reading was chosen this
        game: the chosen reading may have been the wrong one, and the board holds fewer
        checkers there than the game has.  Said as a mismatch (put a checker back there),
        never as a checker in hand; play goes on once the board is put right."""
        if not self.state.guessed or self.state.rejected is not None:
            return False
        complete = [r for r in readings if r.in_hand is not None and moving.tree.is_complete(r.node)]
        if not complete:
            return False
        reading = complete[0]
        hand = reading.in_hand
        assert hand is not None  # the readings kept have a checker in hand
        sensing = self.board.sensing
        if checkers_on(reading.node.position, hand) < sensing.limits[sensing.index[hand]]:
            return False
        missing, extra = sensing.difference(self._seen(), sensing.of(reading.node.position))
        self.state.trouble.unexplained_since = self.board.now
        self.watch.pause(missing, extra, reason=(
            f"the board has fewer checkers on {describe(hand, self.state.current_turn())} than the game: a reading "
            "chosen earlier this game was not the play made; put the checkers as lit"))
        return True

    def _why_not_complete(self, moving: Moving, readings: list[Reading]) -> tuple[str, list[Location]]:
        rejected = self.state.rejected
        if rejected is not None and rejected.points:
            reason, take_back = rejected.reason, "take back the checker that may not stand there: "
            return take_back + reason.removeprefix(take_back), list(rejected.points)
        for reading in readings:
            if reading.in_hand is not None:
                return "a checker is still in hand: put it down first", [reading.in_hand]
            if reading.pending:
                return "the hit checker must go to the bar first", in_order(reading.pending)
        if self.state.trouble.mismatch is not None or not readings:
            return "the board does not show a legal play", []
        node, tree = readings[0].node, moving.tree
        if not tree.is_acceptable(node):
            return "this play cannot be completed legally", []
        side = self.state.current_turn()
        movable = in_order({location_of(side, step.source) for step, _ in tree.steps(node)})
        return f"the play is not finished: {_still_to_play(tree, node)} still to play", movable

    def commit(self, node: PartialPlay) -> None:
        """Commit the play that ends at `node` (steps the switches could not see first)."""
        state, moving = self.state, self.state.current_roll()
        side = state.current_turn()
        state.phase = Phase.MOVE
        moving.candidates = []
        if node != moving.node:
            # Steps the switches could not see (a checker put down on a full point).
            self._moved(moving, moving.node, node)
            moving.node = node
        after = node.position
        over = after.winner() is not None
        game = state.current_game().end_turn()
        coach = state.coach_request()  # asked with the position before the play
        dice = moving.dice
        play = ev.Play(side, (dice.first, dice.second), format_play(steps_to(moving.tree, node)),
                       position_id(after, side.opponent), match_id(game.match_key(over=over)))
        self.emit(play)
        if over:
            self.won(state.current_game().result(after))
        elif coach is not None:
            state.advice.wants = replace(coach, played=play.move, after=play.position_id)

    def accept_as_made(self) -> None:
        """Lenient mode: the opponent accepts an illegal play; the game goes on from the board."""
        state, moving = self.state, self.state.current_roll()
        side = state.current_turn()
        moving.lenient_offer = False
        try:
            after = position_as_made(self.board.sensing, self._seen(), state.position, side)
        except UnreadableBoardError as error:
            self.emit(ev.Rejected(side.opponent, f"cannot accept the play as made: {error}"))
            return
        over = after.winner() is not None
        dice = moving.dice
        self.emit(ev.Play(side, (dice.first, dice.second), describe_change(state.position, after, side),
                          position_id(after, side.opponent),
                          match_id(state.current_game().end_turn().match_key(over=over)), lenient=True))
        if over:
            self.won(state.current_game().result(after))

    def end_game(self, result: GameResult) -> None:
        """The game is won: its ``game_over``, and the match's end if it ends the match."""
        for event in ev.game_end(self.state.session, result):
            self.emit(event)


def _hidden_or_in_hand(sensing: Sensing, seen: Counts | None, complete: list[PartialPlay],
                       readings: list[Reading]) -> Location | None:
    """Where a checker may still be in hand from, when the board reads as well as one of
    the `complete` plays with its last checker hidden on a full point: the switches of a
    full point do not close for one more checker, so only the mover can tell."""
    if seen is None:
        return None
    full = [location for location, count, limit in zip(sensing.locations, seen, sensing.limits, strict=True)
            if isinstance(location, int) and count >= limit]
    for reading in readings:
        if reading.in_hand is None:
            continue
        for node in complete:
            if any(checkers_on(node.position, point) > checkers_on(reading.node.position, point) for point in full):
                return reading.in_hand
    return None


_HOW_MANY = {1: "one", 2: "two", 3: "three"}


def _still_to_play(tree: PlayTree, node: PartialPlay) -> str:
    """The dice a legal play still uses from `node`: "5", "6 and 5", "6 or 5" (either,
    not both, can be played), "two 6s" (where only some of a double's four can be played)."""
    used = len(tree.dice.steps) - len(node.dice_left)
    remaining = tree.most_dice - used
    if tree.dice.is_double:
        die = tree.dice.first
        return f"one {die}" if remaining == 1 else f"{_HOW_MANY.get(remaining, remaining)} {die}s"
    if remaining >= len(node.dice_left):
        return " and ".join(str(die) for die in sorted(node.dice_left, reverse=True))
    playable = sorted({step.die for step, child in tree.steps(node) if tree.is_acceptable(child)}, reverse=True)
    return " or ".join(str(die) for die in playable)


def _likeliest(moving: Moving, good: list[Reading], unmoved: bool, lifted: bool) -> Reading | None:
    """The reading of the board to go on from, among legal ones; None when the switches
    cannot tell several partial plays apart.  `unmoved`: the board reads as the partial
    play it showed last; `lifted`: it did a moment ago, and reads as it with a checker in
    hand now."""
    settled = [r for r in good if r.settled]
    ahead = [r for r in settled if r.node != moving.node and on_the_way(moving, r.node)]
    if moving.following:
        gone_on = None if unmoved else _followed_on(moving, good, ahead, lifted)
        if gone_on is not None:
            return gone_on
    elif ahead:
        # Following a hinted play: a checker gone from its lit point into a tray
        # without switches is borne off as the hint says, not in hand.
        return min(ahead, key=lambda r: len(r.node.dice_left))
    here = [r for r in good if r.node == moving.node]
    if here:
        return min(here, key=lambda r: not r.settled)
    if len({r.node.position for r in settled}) == 1:
        return settled[0]
    if len({r.node for r in good}) == 1:
        return good[0]
    return None


def _followed_on(moving: Moving, good: list[Reading], ahead: list[Reading], lifted: bool) -> Reading | None:
    """How far a play followed has gone, if on: only as far as the switches show it made,
    to the nearest node that explains them (`ahead`: the settled readings on its way),
    keeping the steps made so far where one does: a step they cannot see is made by a
    press, never taken for made because the board reads the same after it, nor taken back
    for that reason once pressed for.  Its hitter down on the blot, the blot still there,
    is as far as it has gone (the hit is lit next).  A checker just `lifted` from the play
    so far is in hand, though it reads as a hit made where the blot's bar half reads full
    already (the blot's point holds one checker either way): no hit is made until its
    hitter is down."""
    if lifted:
        good = [r for r in good if not _hits_on_the_way(moving, r.node)]
        ahead = [r for r in ahead if not _hits_on_the_way(moving, r.node)]
    hitting = [r for r in good if r.node != moving.node and r.in_hand is None and not r.early]
    if ahead or hitting:
        return max(ahead or hitting, key=lambda r: (steps_between(moving.tree, moving.node, r.node) is not None,
                                                     len(r.node.dice_left)))
    return None


def _hits_on_the_way(moving: Moving, node: PartialPlay) -> bool:
    """Whether the steps from the partial play shown to `node` hit a blot."""
    return any(step.hit for step in steps_between(moving.tree, moving.node, node) or [])


def on_the_way(moving: Moving, node: PartialPlay) -> bool:
    """Whether the hinted play can still be reached from `node`."""
    return moving.hinted is not None and steps_between(moving.tree, node, moving.hinted) is not None


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


def _through(tree: PlayTree, node: PartialPlay, steps: list[Step]) -> PartialPlay:
    """The node `steps` lead to from `node`, one step of the tree after another."""
    for step in steps:
        node = next(child for made, child in tree.steps(node) if made == step)
    return node


def confirmer(state: TableState) -> Side | None:
    """Whose turn button says a lit step no switch can see is made: the player at this
    board who moves the checkers of the side played elsewhere; None (either player's)
    when neither side is played here (the computer against itself)."""
    mover = state.current_turn()
    return None if mover.opponent in state.elsewhere else mover.opponent


def steps_to(tree: PlayTree, node: PartialPlay) -> list[Step]:
    """The steps from the roll's start to `node`."""
    return steps_between(tree, tree.root, node) or []


def lit_chain(steps: list[Step] | None) -> list[Step]:
    """The steps of a hinted play lit now (`steps`, those still to make, if any): its next
    checker's, up to the blot it hits on the way, if any (the hit blot must go to the bar
    before that checker goes on: lit from its point to the end, it could never be hit)."""
    if not steps:
        return []
    chain = chains(steps)[0]
    hits = [at for at, step in enumerate(chain) if step.hit]
    return chain[:hits[0] + 1] if hits else chain


def chains(steps: list[Step]) -> list[list[Step]]:
    """Steps grouped by checker: a step that starts where the last one ended continues it."""
    chains: list[list[Step]] = []
    for step in steps:
        if chains and chains[-1][-1].destination == step.source and step.source != OFF:
            chains[-1].append(step)
        else:
            chains.append([step])
    return chains


def _this_roll(events: Sequence[ev.Event]) -> Sequence[ev.Event]:
    """The events since the last roll (or opening roll) among `events`."""
    starts = [at for at, event in enumerate(events) if isinstance(event, ev.Roll | ev.Opening)]
    return events[starts[-1] + 1:] if starts else ()


def _retrace(moving: Moving, node: PartialPlay, event: ev.Step | ev.Undo) -> PartialPlay | None:
    """The partial play a journaled step (or undo) of the play followed leads to from
    `node`, on the way to the play where it can be; None where the play tree has none."""
    tree, side = moving.tree, event.player
    if {event.from_, event.to} - {bar(side), tray(side), *range(1, 25)}:
        return None  # not one of the mover's own moves: no journal of this table's
    start, end = own_count(side, event.from_), own_count(side, event.to)
    if isinstance(event, ev.Undo):
        return next((before for before in tree.nodes() if node in _chain_ends(tree, before, end, start)), None)
    made = [child for child in _chain_ends(tree, node, start, end)
            if any(step.hit for step in steps_between(tree, node, child) or []) == event.hit]
    return next((child for child in made if on_the_way(moving, child)), made[0] if made else None)


def _chain_ends(tree: PlayTree, node: PartialPlay, start: int, end: int) -> list[PartialPlay]:
    """The partial plays one checker taken from `start` to `end` (own count) makes of `node`."""
    return [child for _, child in _paths(tree, node, start, end)]


def _paths(tree: PlayTree, node: PartialPlay, start: int, end: int) -> Iterator[tuple[Step, PartialPlay]]:
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
