"""The legal plays of a roll, found step by step as the rule book says.

This is the reference coding of the movement rules (docs/rules.md §4-§6), written to
be checked against the rule book in one sitting; the faster codings (the counted-out
results of `bgpi.rules.movegen`, the play tree of `bgpi.rules.playtree`) are tested
against it.

* A step moves one checker by one die, down from a point holding one of the mover's
  checkers.  While a checker is on the bar, entering it is the only step (§5).
* A step lands on an open point or on a blot, which it hits (§5); never on a point
  the opponent has closed (§4).  `bgpi.rules.steps` holds these two rules of a step.
* A step bears off only when every checker is home: from the point of the die's
  number, or from the highest point below it when no checker stands higher (§6).
* A play uses as many dice as can be played (all four of doubles), and when only one
  of two dice can be played, the larger one if it can (§4).  So every way of playing
  the dice is tried, in both orders of two dice, and the ways that use the most dice,
  and among those the largest dice, are kept.
* Two ways are the same play when they lead to the same position: the first way
  found is the play's steps.  A roll with no legal step gives one play with no steps
  (the turn is forfeited, §4).

For doubles the steps are tried from the highest point down, each step from the
point of the one before or a lower point.  That finds every play, since the steps
of one number can always be put in that order: a step from a higher point never
needs a step from a lower point to come first.  And it finds each play at its own
steps in that order, without trying them in every other order as well.

The search goes highest point first, as GNU Backgammon's GenerateMoves does, and the
plays come in the order found.

>>> from bgpi.rules.play import Dice
>>> from bgpi.rules.position import Position, Side
>>> from bgpi.rules.notation import format_play
>>> [format_play(play.steps) for play in legal_plays(Position.start(), Side.WHITE, Dice(3, 1))][:3]
['24/23 24/21', '24/20', '24/21 8/7']
"""

from __future__ import annotations

from bgpi.rules.play import Dice, Play, Step
from bgpi.rules.position import BAR, OFF, Checkers, Position, Side
from bgpi.rules.steps import BLOT, CLOSED, LANDING, bears_off

_Way = tuple[tuple[Step, ...], Checkers, Checkers]
"""One way to play a roll: its steps, and the mover's and the opponent's checkers after them."""


def legal_plays(position: Position, side: Side, dice: Dice) -> list[Play]:
    """Every distinct legal play of `dice` by `side` in `position`, in the order found.

    Each play leads to a different position.  A roll that cannot be played gives one
    play with no steps.
    """
    own, opponent = position.checkers(side), position.checkers(side.opponent)
    ways: list[_Way] = []
    if dice.is_double:
        _play_on(own, opponent, dice.steps, (), ways, top=BAR)
    else:
        for order in ((dice.first, dice.second), (dice.second, dice.first)):
            _play_on(own, opponent, order, (), ways, top=None)
    most = max(len(steps) for steps, _, _ in ways)
    largest = max(_pips(steps) for steps, _, _ in ways if len(steps) == most)
    plays: dict[Position, Play] = {}
    for steps, mine, theirs in ways:
        if len(steps) == most and _pips(steps) == largest:
            after = Position.of(side, mine, theirs)
            if after not in plays:
                plays[after] = Play(side, steps, after)
    return list(plays.values())


def _play_on(
    own: Checkers,
    opponent: Checkers,
    dice: tuple[int, ...],
    steps: tuple[Step, ...],
    ways: list[_Way],
    top: int | None,
) -> None:
    """Add to `ways` every way to go on after `steps` with the `dice` left, used in
    the order given: a way ends when no die is left or the next one cannot be played.
    For doubles `top` is the point of the last step, and no step comes from above it;
    None for two dice."""
    found = legal_steps(own, opponent, dice[0], BAR if top is None else top) if dice else []
    if not found:
        ways.append((steps, own, opponent))
    for step in found:
        mine, theirs = move(own, opponent, step.source, step.destination)
        _play_on(mine, theirs, dice[1:], (*steps, step), ways, None if top is None else step.source)


def legal_steps(own: Checkers, opponent: Checkers, die: int, top: int = BAR) -> list[Step]:
    """The steps of `die` that the rules allow now, on their own (docs/rules.md §4-§6),
    from the points `top` and below, highest point first.

    `own` and `opponent` are the two sides' checkers, each in its own count.
    """
    sources = [BAR] if own[BAR - 1] else [point for point in range(top, OFF, -1) if own[point - 1]]
    highest = next((point for point in range(BAR, OFF, -1) if own[point - 1]), OFF)
    found = []
    for source in sources:
        destination = source - die
        if destination > OFF:
            meets = LANDING[opponent[BAR - 1 - destination]]  # the opponent's own point 25 - destination
            if meets != CLOSED:
                found.append(Step(source, destination, die, meets == BLOT))
        elif bears_off(source, die, highest):
            found.append(Step(source, OFF, die))
    return found


def move(own: Checkers, opponent: Checkers, source: int, destination: int) -> tuple[Checkers, Checkers]:
    """Both sides' checkers after one of the mover's goes from `source` to `destination`
    (its own count), hitting a blot where it lands.  The step is not checked."""
    mine = list(own)
    mine[source - 1] -= 1
    if destination == OFF:
        return tuple(mine), opponent
    mine[destination - 1] += 1
    if opponent[BAR - 1 - destination] != 1:
        return tuple(mine), opponent
    theirs = list(opponent)
    theirs[BAR - 1 - destination] = 0
    theirs[BAR - 1] += 1
    return tuple(mine), tuple(theirs)


def _pips(steps: tuple[Step, ...]) -> int:
    """The dice a way uses, added up: the larger die wins where only one is played."""
    return sum(step.die for step in steps)
