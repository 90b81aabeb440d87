"""Legal plays: every distinct way to play a roll (rules.md §4–6).

The search follows GNU Backgammon's `GenerateMoves`, the rules oracle:

* every order of the two dice is tried; for doubles the steps are taken from
  points in non-increasing order, which reaches every distinct result once;
* a play that uses fewer dice than another is illegal, and among plays that use
  the same number of dice the ones with the larger total of dice win, which is
  the larger-die rule (rules.md §4);
* plays are the same play when they lead to the same position.

The board is searched as a mutable list with do/undo, and each result is named by
an integer built up step by step (4 bits a location, plus a bit per hit point),
which keeps the hot loop free of tuple building.  This module knows nothing of
the physical board and reads no clock.
"""

from __future__ import annotations

from bgpi.rules.play import Dice, Play, Step
from bgpi.rules.position import BAR, OFF, Checkers, Position, Side

# The key of a result: 4 bits per location of the mover's own count (0 = off,
# 1..24, 25 = bar), then 3 bits per point counting the mover's landings on an
# opposing blot there (any landing count above zero means the blot was hit; the
# count itself follows from the final position, so keys stay one per result).
_UNIT = tuple(1 << (4 * location) for location in range(26))
_HIT = tuple(1 << (104 + 3 * point) for point in range(25))
_HIT_FIELDS = 104

_RawStep = tuple[int, int, int, bool]  # a Step's fields, while searching


def legal_plays(position: Position, side: Side, dice: Dice) -> list[Play]:
    """All distinct legal plays of `dice` by `side` in `position`.

    Each play leads to a different position.  A roll with no legal step gives
    one play with no steps (the turn is forfeited).  The order of the list is the
    order of discovery: descending sources first, as gnubg lists them.
    """
    own = position.checkers(side)
    opponent = position.checkers(side.opponent)
    plays = []
    for raw in _search(own, opponent, dice).values():
        steps = tuple(Step(*step) for step in raw)
        plays.append(Play(side, steps, Position.of(side, *_apply(own, opponent, steps))))
    return plays


def legal_results(own: Checkers, opponent: Checkers, dice: Dice) -> list[tuple[Checkers, Checkers]]:
    """The distinct positions the legal plays lead to, as (own, opponent) counts.

    The fast path for callers that need only the results, such as the batch
    command: no Step or Play objects are built.
    """
    start = _start_key([0, *own])
    return [_decode(start + change, opponent) for change in result_keys(own, opponent, dice)]


def result_keys(own: Checkers, opponent: Checkers, dice: Dice) -> set[int]:
    """The distinct results of the legal plays, each named by an integer key:
    what the play changes, relative to the position before it.

    The common cases, where neither the bar nor bearing off can take part in the
    play, are counted out directly (two dice: every pair of single steps;
    doubles: how many steps each point's checkers take); the rest go through
    the full search.
    """
    board, closed, blot = _layout(own, opponent)
    outside = sum(own[6:])  # checkers outside the home board, the bar included
    changes = None
    if own[24]:
        changes = _from_bar(board, closed, blot, dice)
    elif dice.is_double:
        if outside >= 4:  # all four steps cannot even bring them home
            changes = _doubles(board, closed, blot, dice.first, 4)
    elif outside >= 2:  # one step brings at most one home, so nothing bears off
        changes = _two_dice(board, closed, blot, dice.first, dice.second)
    return changes or set(_search(own, opponent, dice))


def _decode(key: int, opponent: Checkers) -> tuple[Checkers, Checkers]:
    """The (own, opponent) counts that an absolute key names, given the opponent before the play."""
    own = tuple((key >> (4 * location)) & 15 for location in range(1, 26))
    hits = key >> _HIT_FIELDS
    if not hits:
        return own, opponent
    theirs = list(opponent)
    for point in range(1, 25):
        if (hits >> (3 * point)) & 7:
            theirs[24 - point] = 0
            theirs[24] += 1
    return own, tuple(theirs)


def step_destination(own: Checkers, opponent: Checkers, source: int, die: int) -> int | None:
    """Where a checker on `source` (own count, BAR for the bar) goes with `die`.

    None when the step is not allowed on its own: no checker there, a checker
    still on the bar elsewhere, a closed landing point, or a bear-off that
    rules.md §6 forbids.  Whether the whole play stays legal is the search's
    business (most dice, larger die).
    """
    if not own[source - 1]:
        return None
    if own[24] and source != BAR:
        return None
    destination = source - die
    if destination > 0:
        return None if opponent[24 - destination] >= 2 else destination
    highest = _highest(own)
    if highest > 6 or (destination < 0 and source != highest):
        return None
    return OFF


def _highest(own: Checkers | list[int]) -> int:
    """The highest own point (25 for the bar) that holds a checker, 0 if none."""
    for index in range(24, -1, -1):
        if own[index]:
            return index + 1
    return 0


def _layout(own: Checkers, opponent: Checkers) -> tuple[list[int], list[bool], list[bool]]:
    """The mover's counts by own point (0 off, 25 the bar), and which points are closed or blots."""
    facing = opponent[23::-1]  # the opponent's counts on the mover's points 1..24
    closed = [False, *map(_CLOSED.__getitem__, facing), True]
    blot = [False, *map(_BLOT.__getitem__, facing), False]
    return [0, *own], closed, blot


_CLOSED = (False, False) + (True,) * 14  # by the opponent's count on a point
_BLOT = (False, True) + (False,) * 14


def _start_key(board: list[int]) -> int:
    return sum(count * unit for count, unit in zip(board, _UNIT))


def _landing(source: int, destination: int, blot: list[bool]) -> int:
    """The change of key when one checker moves from `source` to `destination` on the board."""
    return _UNIT[destination] - _UNIT[source] + (_HIT[destination] if blot[destination] else 0)


def _two_dice(board: list[int], closed: list[bool], blot: list[bool], a: int, b: int) -> set[int]:
    """Key changes of the plays of two different dice using both, when neither
    bar nor bear-off can take part.

    Then the landing points never change during the play, so two steps of
    different checkers can be made in either order, and one checker taking both
    dice needs either middle point open.  Empty when no play uses both dice.
    """
    occupied = [point for point in range(24, 0, -1) if board[point]]
    by_a = [(s, s - a, _landing(s, s - a, blot)) for s in occupied if s - a > 0 and not closed[s - a]]
    by_b = [(s, s - b, _landing(s, s - b, blot)) for s in occupied if s - b > 0 and not closed[s - b]]
    changes = {
        change_a + change_b
        for source_a, _, change_a in by_a
        for source_b, _, change_b in by_b
        if source_a != source_b or board[source_a] > 1
    }
    for first, second in ((by_a, b), (by_b, a)):
        for _, middle, change in first:
            end = middle - second
            if end > 0 and not closed[end]:
                changes.add(change + _landing(middle, end, blot))
    return changes


def _doubles(board: list[int], closed: list[bool], blot: list[bool], die: int, steps: int) -> set[int]:
    """Key changes of the plays of `steps` steps of `die` when neither bar nor
    bear-off can take part.

    Landing points never change during the play, so each point's checkers can be
    moved on their own: the play is how many steps each checker takes.  The
    results are built up point by point, by the number of steps used so far.
    """
    by_steps: dict[int, set[int]] = {0: {0}}
    for source in range(24, 0, -1):
        if not board[source]:
            continue
        # walk[k]: the change of key when one checker from `source` takes k steps
        walk = [0]
        point = source
        while len(walk) <= steps and point - die > 0 and not closed[point - die]:
            walk.append(walk[-1] + _landing(point, point - die, blot))
            point -= die
        if len(walk) == 1:
            continue
        moves = [
            (sum(split), sum(walk[taken] for taken in split))
            for split in _SPLITS[min(board[source], 4)][len(walk) - 1]
        ]
        grown = {used: set(keys) for used, keys in by_steps.items()}
        for used, keys in by_steps.items():
            for taken, change in moves:
                if used + taken <= steps:
                    grown.setdefault(used + taken, set()).update(key + change for key in keys)
        by_steps = grown
    return by_steps[max(by_steps)]


def _from_bar(board: list[int], closed: list[bool], blot: list[bool], dice: Dice) -> set[int]:
    """Key changes of the plays with checkers on the bar (rules.md §5): enter
    them all first, then play on.

    A checker entered this turn stands on the opponent's home board, too far
    from home to bear off with what is left of the roll.
    """
    on_bar = board[25]
    if dice.is_double:
        die = dice.first
        if closed[25 - die]:
            return {0}
        entering = min(on_bar, 4)
        entered = entering * _landing(25, 25 - die, blot)
        if entering == 4 or on_bar > 4:
            return {entered}
        board[25] -= entering
        board[25 - die] += entering
        return {entered + change for change in _doubles(board, closed, blot, die, 4 - entering)}
    entries = [die for die in dice if not closed[25 - die]]
    if on_bar >= 2 or not entries:
        return {sum(_landing(25, 25 - die, blot) for die in entries[:on_bar])}
    changes = set()
    for die, other in ((dice.first, dice.second), (dice.second, dice.first)):
        if die not in entries:
            continue
        board[25] -= 1
        board[25 - die] += 1
        entered = _landing(25, 25 - die, blot)
        for source in range(24, 0, -1):
            end = source - other
            if board[source] and end > 0 and not closed[end]:
                changes.add(entered + _landing(source, end, blot))
        board[25] += 1
        board[25 - die] -= 1
    if changes:
        return changes
    # Only one die can be played: the larger one if it can enter (rules.md §4).
    return {_landing(25, 25 - max(entries), blot)}


def _splits(checkers: int, reach: int) -> list[tuple[int, ...]]:
    """Ways to share 1..4 steps among `checkers` alike checkers that go at most `reach` steps each."""
    found = set()

    def share(left: int, most: int, taken: tuple[int, ...]) -> None:
        if taken:
            found.add(taken)
        if len(taken) < checkers:
            for steps in range(1, min(most, left) + 1):
                share(left - steps, steps, (*taken, steps))

    share(4, reach, ())
    return sorted(found)


# _SPLITS[checkers][reach], for 1..4 alike checkers that may take 1..4 steps each
_SPLITS = [[[]] * 5] + [[[]] + [_splits(c, r) for r in range(1, 5)] for c in range(1, 5)]


def _search(own: Checkers, opponent: Checkers, dice: Dice) -> dict[int, tuple[_RawStep, ...]]:
    """The legal plays as {result key (relative): steps}, first-found steps for each result.

    Steps are kept as plain (source, destination, die, hit) tuples here: the
    search makes many more of them than it keeps.
    """
    board, closed, blot = _layout(own, opponent)
    found: dict[int, tuple[_RawStep, ...]] = {}
    best = [0, 0]  # the most dice used so far, and the largest total of them
    path: list[_RawStep] = []
    doubles = dice.is_double

    def save(used: int, pips: int, key: int) -> None:
        if used < best[0] or (used == best[0] and pips < best[1]):
            return
        if used > best[0] or pips > best[1]:
            found.clear()
            best[0], best[1] = used, pips
        if key not in found:
            found[key] = tuple(path)

    def search(rolls: tuple[int, ...], depth: int, top: int, pips: int, key: int) -> None:
        if depth == len(rolls):
            save(depth, pips, key)
            return
        die = rolls[depth]
        if board[25]:
            sources = (25,)
        else:
            sources = range(top, 0, -1)
        moved = False
        for source in sources:
            if not board[source]:
                continue
            destination = source - die
            if destination > 0:
                if closed[destination]:
                    continue
            else:
                if any(board[7:]):  # a checker outside the home board or on the bar
                    continue
                if destination < 0:
                    highest = 6
                    while not board[highest]:
                        highest -= 1
                    if source != highest:
                        continue
                destination = 0
            hit = blot[destination] and not board[destination]
            board[source] -= 1
            board[destination] += 1
            path.append((source, destination, die, hit))
            search(
                rolls,
                depth + 1,
                source if doubles else 24,
                pips + die,
                key - _UNIT[source] + _UNIT[destination] + (_HIT[destination] if blot[destination] else 0),
            )
            path.pop()
            board[source] += 1
            board[destination] -= 1
            moved = True
        if not moved:
            save(depth, pips, key)

    if doubles:
        search(dice.steps, 0, 24, 0, 0)
    else:
        search((dice.first, dice.second), 0, 24, 0, 0)
        search((dice.second, dice.first), 0, 24, 0, 0)
    return found


def _apply(own: Checkers, opponent: Checkers, steps: tuple[Step, ...]) -> tuple[Checkers, Checkers]:
    """The (own, opponent) counts after `steps`."""
    for step in steps:
        _, (own, opponent) = take_step(own, opponent, step.source, step.destination, step.die)
    return own, opponent


def take_step(
    own: Checkers, opponent: Checkers, source: int, destination: int, die: int
) -> tuple[Step, tuple[Checkers, Checkers]]:
    """Move one checker from `source` to `destination` (own count), hitting a blot there.

    The step is not checked: `step_destination` says whether it is allowed.
    """
    mine = list(own)
    theirs = list(opponent)
    mine[source - 1] -= 1
    hit = False
    if destination != OFF:
        mine[destination - 1] += 1
        if theirs[24 - destination] == 1:
            hit = True
            theirs[24 - destination] = 0
            theirs[24] += 1
    return Step(source, destination, die, hit), (tuple(mine), tuple(theirs))
