"""The results of the legal plays, counted out without a search (docs/rules.md §4-§6).

`bgpi.rules.reference` finds every legal play step by step, as the rule book says.
The batch command needs only where the plays lead, for every line of its input, so
`result_keys` counts the results out directly, one way per kind of roll (two dice,
entering from the bar, bearing off, doubles; see each function), each result once,
and the tests check it against the reference on many thousands of positions.  What
a landing meets and when a checker may bear off are the rules of `bgpi.rules.steps`.

The counting is chosen for CPython's speed (each line of Python costs tens of
nanoseconds, a call in C over a whole board about the same):

* the mover's checkers are read from its counts, points 1..24 then the bar;
  doubles use a list `board` by location (0 off, 1..24, 25 the bar);
* the opponent is only seen as what a landing meets, one byte per location
  (`OPEN`, `BLOT` or `CLOSED`), made by one `bytes.translate` of `LANDING`; the
  edge of the board and the 11 pips beyond it read as closed, so that a step or two
  past point 1 needs no test of its own where bearing off cannot happen;
* each result is named by an integer key built up step by step: one hex digit
  (4 bits) per location holding the mover's count (at most 15, so a digit
  never carries into the next; hex formatting reads the counts back in one
  call), then 3 bits per point counting the landings on an opposing blot
  there.  A step adds a precomputed number (`_STEPS`, `_LAND`, `_UNIT`), so
  no tuple is built per result.  Keys are kept this short (under 180 bits)
  because adding a Python integer costs by its length;
* the counted-out paths build lists with plain loops, not sets and not
  comprehensions: each result is found once, so no hashing is needed, and in
  CPython 3.11 (Raspberry Pi OS) a comprehension is a function call of its
  own, which costs more than the loop for the few items of most lists.

This module knows nothing of the physical board and reads no clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from itertools import compress
from operator import itemgetter
from typing import Any

from bgpi.rules.play import Dice
from bgpi.rules.position import OFF, Checkers
from bgpi.rules.steps import BLOT, CLOSED, LANDING, OPEN, bears_off

__all__ = ["legal_results", "packed_results", "result_keys"]

_OFF = bytes([OPEN])  # location 0 when every checker is home
_BEYOND = bytes([CLOSED] * 11)  # kind[26..36], read as kind[-11..-1]: two dice past point 1

_LOCATIONS = 26  # 0 off, 1..24 the points, 25 the bar
_HIT_FIELDS = 4 * _LOCATIONS  # the first bit of the landings-on-blots fields
_COUNTS = (1 << _HIT_FIELDS) - 1  # the mover's counts in a key
# Hex digits and the counts they stand for, as bytes.translate tables.
_DIGIT = b"0123456789abcdef" + bytes(240)
_COUNT = bytes(int(chr(code), 16) if chr(code) in "0123456789abcdef" else 0 for code in range(256))
# _UNIT[location]: one checker there.  _LAND[kind][location]: one checker landing
# there.  A landing on a blot also counts in that point's 3-bit hit field: any
# count above zero means the blot was hit, and the count itself follows from the
# final position, so keys stay one per result.
_UNIT = tuple(1 << (4 * location) for location in range(_LOCATIONS))
_LAND = (
    _UNIT,
    tuple(unit + (1 << (_HIT_FIELDS + 3 * location)) for location, unit in enumerate(_UNIT)),
)
# _PASS[kind][point]: a checker passing over the point on its way (a hit on a blot there).
_PASS = ((0,) * _LOCATIONS, tuple(land - unit for land, unit in zip(_LAND[BLOT], _UNIT, strict=True)))
# _STEPS[pips][kind][source]: one checker moving `pips` from `source` (25 the bar) to a
# point of that kind; pips up to 11, one checker taking both of two different dice.
# (0 where the step would leave the board: `kind` reads closed there.)
_STEPS = [()] + [
    tuple(
        tuple(_LAND[meets][source - pips] - _UNIT[source] if source >= pips else 0 for source in range(_LOCATIONS))
        for meets in (OPEN, BLOT)
    )
    for pips in range(1, 12)
]
# compress(_POINTS, own): the points holding the mover's checkers (a tuple, which
# compress reads faster than a range: its numbers are made once)
_POINTS = tuple(range(1, 25))

# The bits of a key's count of checkers borne off, and of its counts outside the home board.
_BORNE_OFF = _UNIT[1] - 1
_OUTSIDE = (1 << _HIT_FIELDS) - _UNIT[7]

# A point's checkers in a play of doubles (see `_movers`): (the most steps they
# take, [(steps taken, change of key)] for each way to take them, fewest steps
# first, [the same for the extras of the next point]).
_Mover = tuple[int, list[tuple[int, int]], Sequence[tuple[int, int]]]


def legal_results(own: Checkers, opponent: Checkers, dice: Dice) -> list[tuple[Checkers, Checkers]]:
    """The distinct positions the legal plays lead to, as (own, opponent) counts.

    The fast path for callers that need only the results, such as the batch
    command: no Step or Play objects are built.
    """
    start = _start_key(own)
    return [_decode(start + change, opponent) for change in result_keys(own, opponent, dice)]


def packed_results(own: Checkers, opponent: Checkers, dice: Dice) -> list[tuple[int, Checkers]]:
    """`legal_results` with the mover's counts packed as the keys hold them: an
    integer, 4 bits a location from point 1 (bits 0-3) to the bar (bits 96-99).

    For callers that write the results out (the batch command's Position IDs read
    the counts two locations a byte), where a tuple per result would be made only
    to be read again.  The opponent's counts are one object per set of hits.
    """
    start = _start_key(own)
    opponents = {0: opponent}
    results = []
    for change in result_keys(own, opponent, dice):
        key = start + change
        hits = key >> _HIT_FIELDS
        theirs = opponents.get(hits)
        if theirs is None:
            theirs = opponents[hits] = _hit(opponent, hits)
        results.append(((key & _COUNTS) >> 4, theirs))
    return results


def result_keys(own: Checkers, opponent: Checkers, dice: Dice) -> list[int]:
    """The distinct results of the legal plays, each named by an integer key:
    what the play changes, relative to the position before it.  Each key once.

    Every kind of roll is counted out directly (two dice: every pair of
    single steps, entering first from the bar, bearing off from the highest
    point by the order of the dice; doubles: how many steps each point's
    checkers take), or the one die to play when no play of two different dice
    uses both.
    """
    kind = _kinds(opponent)
    first = dice.first
    second = dice.second
    if first != second:
        if own[24]:
            return _enter(own, kind, first, second)
        outside = sum(own[6:])
        if outside >= 2:  # one step brings at most one home, so nothing bears off
            return _two_dice(own, kind, first, second) or _one_die(own, kind, first, second, 0)
        if outside:
            return _coming_home(own, kind, first, second)
        return _bearing_off(own, kind, first, second)
    board = [0, *own]
    if own[24]:
        return _from_bar(board, kind, dice)
    if sum(own[6:]) >= 4:  # all four steps cannot even bring them home
        return _doubles(board, kind, first, 4)
    return _bear_off_doubles(board, kind, first)


def _decode(key: int, opponent: Checkers) -> tuple[Checkers, Checkers]:
    """The (own, opponent) counts that an absolute key names, given the opponent before the play."""
    # The hex digits end with the counts: the bar's first, off's last.
    own = tuple((b"%026x" % key)[-2:-27:-1].translate(_COUNT))
    hits = key >> _HIT_FIELDS
    return own, _hit(opponent, hits) if hits else opponent


def _hit(opponent: Checkers, hits: int) -> Checkers:
    """The opponent's counts after the hits that a key's landings-on-blots fields name."""
    theirs = list(opponent)
    for point in range(1, 25):
        if (hits >> (3 * point)) & 7:
            theirs[24 - point] = 0
            theirs[24] += 1
    return tuple(theirs)


def _start_key(own: Sequence[int]) -> int:
    """The absolute key of the mover's checkers before the play."""
    return int(bytes(own[::-1]).translate(_DIGIT) + b"0", 16)


def _highest_home(own: Checkers, point: int) -> int:
    """The highest of the points 1..`point` of the home board holding a checker
    of `own`, 0 if none: stepping down from `point` mostly takes a test or two."""
    while point and not own[point - 1]:
        point -= 1
    return point


def _kinds(opponent: Checkers) -> bytes:
    """What a landing meets on each location (`LANDING`): the opponent's counts,
    reversed, stand on the mover's points 1..24; the edge (0: no bearing off but
    where the caller allows it), the bar (25) and the pips beyond the edge read closed."""
    return bytes([CLOSED, *opponent[23::-1]]).translate(LANDING) + _BEYOND


# _ROUTES[a][b][point - 1]: the locations a checker on the point passes with two
# different dice, (point, point - a, point - b, point - a - b), below 0 beyond the
# edge; compress(_ROUTES[a][b], own) gives them for the mover's points at the cost
# of the scan alone.
_ROUTES = [
    [tuple((point, point - a, point - b, point - a - b) for point in _POINTS) for b in range(7)] for a in range(7)
]


def _two_dice(own: Checkers, kind: bytes, a: int, b: int) -> list[int]:
    """Key changes of the plays of two different dice using both, when neither
    bar nor bear-off can take part (or, with location 0 open in `kind`, only
    bearing off exactly), each once.

    Then the landing points never change during the play, so a step of `a`
    and a step of `b` by different checkers can be made in either order: the
    plays are the grid of sums of a step of each die.  Two cells of the grid
    are different plays but where one step starts where the other ends: such a
    chain is one checker taking both dice.  So the grid loses both steps of a
    lone checker from its point (no play) and one of the two chains through a
    checker's middle points when both hold the mover's checkers; then come the
    one-checker plays that no chain makes: over an empty middle point, or
    hitting a blot there.  Empty when no play uses both dice.  A list, not a
    set: hashing each sum would cost more than the grid.
    """
    by_a: list[int] = []  # the changes of the single steps of a: the grid's rows (but those in `lone`)
    by_b: list[int] = []  # and of b: its columns
    # The rows of lone checkers that can take either die, with their own step of b:
    # the one column such a row skips.
    lone: list[tuple[int, int]] = []
    doubled: list[int] = []  # chains found twice in the grid
    changes: list[int] = []  # the plays: first one checker taking both dice where no chain does
    steps_a, steps_b, jumps = _STEPS[a], _STEPS[b], _STEPS[a + b]
    for source, middle_a, middle_b, end in compress(_ROUTES[a][b], own):
        meets_a = kind[middle_a]
        meets_b = kind[middle_b]
        if meets_a != CLOSED:
            step_a = steps_a[meets_a][source]
            if meets_b != CLOSED:
                step_b = steps_b[meets_b][source]
                by_b.append(step_b)
                if own[source - 1] == 1:
                    lone.append((step_a, step_b))
                else:
                    by_a.append(step_a)
            else:
                by_a.append(step_a)
        elif meets_b != CLOSED:
            by_b.append(steps_b[meets_b][source])
        else:
            continue
        meets = kind[end]
        if meets == CLOSED:
            continue
        jump = jumps[meets][source]
        # The end is on the board (or off, exactly), so both middle points are on it.
        held_a = own[middle_a - 1]
        held_b = own[middle_b - 1]
        if held_a and held_b:
            doubled.append(jump)
        elif not (held_a or held_b) and (meets_a == OPEN or meets_b == OPEN):
            changes.append(jump)
        if meets_a == BLOT:
            changes.append(jump + _PASS[BLOT][middle_a])
        if meets_b == BLOT:
            changes.append(jump + _PASS[BLOT][middle_b])
    # Then the grid, by plain loops: in CPython 3.11 a comprehension is a call of its own.
    for change_a in by_a:
        for change_b in by_b:
            changes.append(change_a + change_b)
    for change_a, own_b in lone:
        for change_b in by_b:
            if change_b != own_b:
                changes.append(change_a + change_b)
    for change in doubled:  # rare: finding each by its value costs less than noting where it is
        changes.remove(change)
    return changes


def _coming_home(own: Checkers, kind: bytes, a: int, b: int) -> list[int]:
    """`_two_dice` with one checker outside the home board: the plays that bear
    off are the ones that bring it home with one die and bear off with the other.
    When no play uses both dice, the plays of one (`_one_die`)."""
    changes = _two_dice(own, kind, a, b)  # none of them bears off
    source = own.index(1, 6) + 1  # the checker outside
    if source - max(a, b) > 6:  # not even the larger die alone brings it home
        return changes or _one_die(own, kind, a, b, 0)
    top = _highest_home(own, 6)
    for first, second in ((a, b), (b, a)):
        arrival = source - first
        if arrival > 6 or kind[arrival] == CLOSED:
            continue
        home = _STEPS[first][kind[arrival]][source]
        # All home now: the other die bears off from its own point, or from the highest one.
        highest = max(top, arrival)
        leaving = second if own[second - 1] or arrival == second else highest
        if not bears_off(leaving, second, highest):
            continue
        change = home + _UNIT[OFF] - _UNIT[leaving]
        if change not in changes:  # both orders bear it off, over two open points
            changes.append(change)
    return changes or _one_die(own, kind, a, b, 0)


def _bearing_off(own: Checkers, kind: bytes, a: int, b: int) -> list[int]:
    """Key changes of the plays of two different dice using both, every checker home.

    A step that lands on a point or bears off exactly may be made before or
    after any other step.  A step bearing off from below its die's number
    takes a checker from the highest point, which only a step of the lone
    checker there lowers.  So, by where the highest point stands:

    * below both dice: each die bears off from the highest point left;
    * below one die: that die bears off from the top point, before or after
      any step of the other (after moving the top point's lone checker, from
      the new highest point);
    * below neither: `_two_dice`'s plays, with bearing off exactly as a
      landing, and the top point's lone checker moving first.

    When no play uses both dice, the plays of one (`_one_die`).
    """
    top = _highest_home(own, 6)  # 0 once all are off
    lone_top = top > 0 and own[top - 1] == 1
    # The highest point once a checker has left the top one.
    after_top = _highest_home(own, top - 1) if lone_top else top
    low, high = (a, b) if a < b else (b, a)
    if top < low and after_top:
        return [2 * _UNIT[OFF] - _UNIT[top] - _UNIT[after_top]]
    bearing = _OFF + kind[1:]
    if top < low:
        return _one_die(own, bearing, a, b, top)  # the last checker
    if top < high:
        off = _UNIT[OFF] - _UNIT[top]
        changes: list[int] = []
        _add_single_steps(changes, own[: top - 1] if lone_top else own[:top], bearing, low, off)
        if 0 < after_top < low:  # then the low die bears off from below its number too
            changes.append(off + _UNIT[OFF] - _UNIT[after_top])
    else:
        changes = _two_dice(own, bearing, a, b)
    if lone_top:
        for first, second in ((a, b), (b, a)):
            meets = bearing[top - first]
            after = max(top - first, after_top)
            if meets != CLOSED and 0 < after < second:
                change = _STEPS[first][meets][top] + _UNIT[OFF] - _UNIT[after]
                # Both orders may take the top checker off, over two open points; and with
                # the top point at the low die, that die first is the play above.
                if change not in changes:
                    changes.append(change)
    return changes or _one_die(own, bearing, a, b, top)


def _one_die(own: Checkers, kind: bytes, a: int, b: int, top: int) -> list[int]:
    """Key changes of the plays of one die of two different ones, when no play
    uses both: the larger die if it can be played, else the smaller (docs/rules.md
    §4); no step if neither can.  Not from the bar.

    `top` is the highest point when every checker is home (`kind` then reads
    location 0 open: bearing off exactly), 0 when bearing off cannot take part.
    Each step of a die leads to a different result.
    """
    for die in (a, b) if a > b else (b, a):
        changes: list[int] = []
        _add_single_steps(changes, own, kind, die, 0)
        if 0 < top < die:  # from below the die's number: the highest point
            changes.append(_UNIT[OFF] - _UNIT[top])
        if changes:
            return changes
    return [0]


def _add_single_steps(changes: list[int], own: Checkers | bytes, kind: bytes, die: int, start: int) -> None:
    """Add to `changes` the change `start` followed by one step of `die` from
    each of the mover's points (`own` counts from point 1, and may stop early),
    wherever `kind` lets it land."""
    steps = _STEPS[die]
    for source in compress(_POINTS, own):
        meets = kind[source - die]
        if meets != CLOSED:
            changes.append(start + steps[meets][source])


def _doubles(board: list[int], kind: bytes, die: int, steps: int, start: int = 0) -> list[int]:
    """Key changes of the plays of `steps` steps of `die` when neither bar nor
    bear-off can take part, after the change `start` (checkers entered); each
    once.

    Landing points never change during the play, so each point's checkers can be
    moved on their own: the play is how many steps each checker takes, and the
    most steps any play uses (`target`) is known before the search.
    """
    movers, capacity = _movers(board, kind, die, steps)
    target = min(steps, capacity)
    return _knapsack(movers, capacity, target, target, start)[target]


def _bear_off_doubles(board: list[int], kind: bytes, die: int) -> list[int]:
    """Key changes of the plays of doubles when bearing off can take part (no
    checker on the bar, fewer than four outside the home board).

    Steps taken from points in non-increasing order reach every result (as in
    the reference search, `bgpi.rules.reference`), and in that order what lies above a point is final when
    its turn comes.  So a play splits in two: first the steps from the points
    `die` and up, moving on or bearing off exactly, each point's checkers on
    their own as in `_doubles`, where a bear-off needs no checker left outside
    at the end; then, only if no checker is left on the points `die` and up,
    the steps bearing off from below `die`, each from the highest point then
    (docs/rules.md §6).  Every checker on those points has one way to leave them:
    step on until it lands below `die` or bears off exactly; so the only play
    with steps of the second kind is that one, followed by as many of them as
    the roll has left.
    """
    counts_outside = board[7:25]
    outside = any(counts_outside)
    if outside:
        coming = 0  # the steps that bring every checker home; the bear-off needs one more
        for point in compress(range(7, 25), counts_outside):
            coming -= board[point] * ((6 - point) // die)
        if coming >= 4:
            return _doubles(board, kind, die, 4)
    bearing = _OFF + kind[1:]  # what a step meets, bearing off exactly included
    if not any(board[die:25]):  # every checker below `die`: the steps of the second kind only
        return [_clear_and_bear_off(board, bearing, die)[1]]
    movers, capacity = _movers(board, bearing, die, 4)
    most = min(4, capacity)  # the most steps of the first kind
    by_used = _knapsack(movers, capacity, most, 0 if outside else most, 0)
    found = by_used[most]
    if outside:
        start = _start_key(board[1:])
        # A bear-off needs every checker home by then, so by the end of the play.
        while not (found := [key for key in by_used[most] if not (key & _BORNE_OFF and (start + key) & _OUTSIDE)]):
            most -= 1
    used, cleared = _clear_and_bear_off(board, bearing, die)
    if used > most:
        return [cleared]
    if used and used == most:
        found.append(cleared)
    return found


def _clear_and_bear_off(board: list[int], bearing: bytes, die: int) -> tuple[int, int]:
    """(steps taken, key change) of the play that empties the points `die` and
    up, then bears off from the highest point below `die` with the steps left
    (see `_bear_off_doubles`); (0, 0) when that leaves no step to bear off
    from below `die` (then it is one of the plays that only move on or bear
    off exactly), or when it cannot be played."""
    hop = _STEPS[die]
    below = board[:die]  # the counts on the points below `die` (index 0 not used)
    used = 0
    change = 0
    for source in compress(range(die, 25), board[die:25]):
        count = board[source]
        used += count * (source // die)
        if used >= 4:
            return 0, 0
        point = source
        while point >= die:
            meets = bearing[point - die]
            if meets == CLOSED:
                return 0, 0
            change += count * hop[meets][point]
            point -= die
        below[point] += count
    cleared = used
    for point in range(die - 1, 0, -1):
        taken = below[point]
        if taken:
            if taken > 4 - used:
                taken = 4 - used
            change += taken * (_UNIT[OFF] - _UNIT[point])
            used += taken
            if used == 4:
                break
    return (used, change) if used > cleared else (0, 0)


def _movers(board: list[int], kind: bytes, die: int, steps: int) -> tuple[list[_Mover], int]:
    """The points whose checkers can take up to `steps` steps of `die`, where
    they land as `kind` says (it does not change during the play), as
    `_Mover`s; and the steps all of them could take.

    A checker's walk stops on the first point holding its own: going on from
    there is the same as one of the checkers waiting there going on.  So the
    points' checkers move on their own and no play is counted twice.  The
    plays this leaves out are those where more checkers leave a point than it
    held, some having come from the point above on the same line of steps:
    these are the point's extras, counted with the point above.  There are
    none where the point holds `steps` - 1 checkers or more (the ones coming
    take a step of the roll), and a play has extras at one point at most
    (it would take five steps).  The points are taken line by line, so that
    the point above comes just before.
    """
    plain_halves = _HALVES[die]
    plain_moves = _plain_moves(die)
    lines, counts = _LINES[die]
    each_step = range(steps)
    movers: list[_Mover] = []
    capacity = 0
    above = None  # (checkers, reach, halves) of the point above when its walk stops on this one
    for source in compress(lines, counts(board)):
        reach = 0
        blots = 0  # the steps landing on a blot, one bit each
        point = source - die
        for _ in each_step:
            meets = kind[point]
            if meets:
                if meets == CLOSED:
                    break
                blots |= 1 << reach
            reach += 1
            if board[point]:
                break
            point -= die
        if not reach:
            above = None
            continue
        checkers = board[source]
        if blots:
            halves, moves = _hitting_walk(die, source, checkers if checkers < 4 else 4, reach, blots)
        else:
            halves = plain_halves[source]
            moves = plain_moves[source][checkers][reach]
        most = checkers * reach  # more than `steps` when they are many: no matter
        if above:
            checkers_above, reach_above, halves_above = above
            ways = _extras(checkers_above, reach_above, checkers, reach)
            extras = [
                (taken, halves_above[first] + halves_above[second] + halves[third] + halves[fourth])
                for taken, first, second, third, fourth in ways
                if taken <= steps
            ] if ways else []
            if extras:
                most_above, moves_above, _ = movers[-1]
                movers[-1] = most_above, moves_above, extras
                beyond = extras[-1][0] - most_above - most  # an extra may take more steps than both points alone
                if beyond > 0:
                    most += beyond
        movers.append((most, moves, ()))
        capacity += most
        stop = board[source - reach * die]  # the checkers on the point where the walk ends
        above = (checkers, reach, halves) if 0 < stop < steps - 1 else None
    return movers, capacity


@lru_cache(maxsize=4096)
def _hitting_walk(
    die: int, source: int, checkers: int, reach: int, blots: int
) -> tuple[list[int], list[tuple[int, int]]]:
    """The halves (see `_halves`) and the moves (see `_Mover`) of `checkers`
    checkers walking up to `reach` steps from `source`, the steps in the bit
    mask `blots` landing on a blot (counted in the key) and the others on an
    open point.  The last 4096 made are kept (a few megabytes): a position's
    walks often hit the same blots as another's (one pass over the 20000
    positions of the self-play corpus makes 1428 different ones, and finds
    half of its walks already made)."""
    hop = _STEPS[die]
    walk = []
    change = 0
    for step, point in enumerate(range(source, source - reach * die, -die)):
        change += hop[BLOT if blots >> step & 1 else OPEN][point]
        walk.append(change)
    halves = [walk[0] + walk[0], *walk, 0]
    return halves, [(taken, halves[first] + halves[second]) for taken, first, second in _MOVES[checkers][reach]]


def _knapsack(movers: list[_Mover], capacity: int, target: int, floor: int, start: int) -> list[list[int]]:
    """The key changes of the plays that take up to `target` steps from
    `movers` (see `_movers`; all together they can take `capacity`), after the
    change `start`, by steps taken; the levels from `floor` up are complete,
    each play once.

    The results are built up point by point in `by_used[steps used so far]`,
    extended in place from the most steps down; a level that the points still to
    come cannot complete to `floor` is no longer grown (nor read: what grows a
    live level is live).  A point's extras replace its steps and the next
    point's: they grow from the levels before the point, and join them after
    the next one.  Plain loops: most levels hold a few plays, too few to pay
    for a comprehension's call.
    """
    by_used: list[list[int]] = [[start], [], [], [], []]  # the levels above `target` stay empty
    if not movers:
        return by_used
    # The first point's plays all grow from `start`.
    (most, moves, extras), *others = movers
    rest = capacity - most  # the steps the points still to come could take
    for taken, change in moves:
        if taken > target:
            break
        by_used[taken].append(start + change)
    joining = [(taken, start + change) for taken, change in extras if taken <= target] if extras else ()
    for most, moves, extras in others:
        rest -= most
        if extras:
            ready = []
            for taken, change in extras:
                for used in range(target + 1 - taken):
                    for key in by_used[used]:
                        ready.append((used + taken, key + change))
        lowest = floor - rest  # the fewest steps of a level the points to come can complete
        # From the most steps down, so that each level grows from levels this point has not grown yet.
        for total in _LEVELS[target][lowest] if lowest > 0 else _LEVELS[target][1]:
            level = by_used[total]
            for taken, change in moves:
                if taken > total:
                    break
                for key in by_used[total - taken]:
                    level.append(key + change)
        for used, key in joining:
            by_used[used].append(key)
        joining = ready if extras else ()
    return by_used


def _enter(own: Checkers, kind: bytes, a: int, b: int) -> list[int]:
    """Key changes of the plays of two different dice with checkers on the bar
    (docs/rules.md §5), each once: enter them all first, then play on.

    A checker entered this turn stands on the opponent's home board, too far
    from home to bear off with what is left of the roll.  Plain loops, not
    comprehensions: a play from the bar has few steps, and in CPython 3.11 a
    comprehension costs a function call of its own.
    """
    entries = []  # (die, change of key) for each die that can enter
    for die in (a, b):
        meets = kind[25 - die]
        if meets != CLOSED:
            entries.append((die, _STEPS[die][meets][25]))
    if own[24] >= 2 or not entries:  # each die that can enters a checker, and that is all
        entered = 0
        for _, change in entries:
            entered += change
        return [entered]
    # The landing points do not change when the checker enters, so the other
    # die moves any checker already on a point, or the entered one: different
    # plays, but for the entered checker going on when both dice enter on an
    # open point (hitting no blot).
    changes: list[int] = []
    for die, entered in entries:
        other = a + b - die
        entry = 25 - die
        if not own[entry - 1]:  # then the entered checker is not among the points below
            meets = kind[entry - other]
            if meets != CLOSED:
                changes.append(entered + _STEPS[other][meets][entry])
        _add_single_steps(changes, own, kind, other, entered)
    end = 25 - a - b
    if kind[25 - a] == kind[25 - b] == OPEN and kind[end] != CLOSED:
        changes.remove(_STEPS[a + b][kind[end]][25])
    if changes:
        return changes
    # Only one die can be played: the larger one if it can enter (docs/rules.md §4).
    return [max(entries)[1]]


def _from_bar(board: list[int], kind: bytes, dice: Dice) -> list[int]:
    """Key changes of the plays of doubles with checkers on the bar (docs/rules.md
    §5): enter them all first, then play on.

    A checker entered this turn stands on the opponent's home board, too far
    from home to bear off with what is left of the roll.
    """
    on_bar = board[25]
    die = dice.first
    entry = 25 - die
    if kind[entry] == CLOSED:
        return [0]
    entering = min(on_bar, 4)
    entered = entering * (_LAND[kind[entry]][entry] - _UNIT[25])
    if entering == 4 or on_bar > 4:
        return [entered]
    board[25] -= entering
    board[entry] += entering
    return _doubles(board, kind, die, 4 - entering, entered)


def _partitions(checkers: int, reach: int, total: int = 4) -> list[tuple[int, ...]]:
    """The ways up to `checkers` alike checkers can share at most `total`
    steps, at most `reach` each, as the steps of each checker that moves, most
    first; the first way moves none."""
    ways = []

    def share(left: int, most: int, taken: tuple[int, ...]) -> None:
        ways.append(taken)
        if len(taken) < checkers:
            for steps in range(1, min(most, left) + 1):
                share(left - steps, steps, (*taken, steps))

    share(total, reach, ())
    return ways


def _halves(taken: tuple[int, ...]) -> tuple[int, int]:
    """Where the change of key of a way to share at most 4 steps (see
    `_partitions`) lies in a walk's halves: two indexes, each for a half of the
    checkers: -1 none, k one checker going k steps, 0 two checkers going one
    step each (with at most 4 steps, a half of two checkers is always 1 + 1)."""
    first, second = taken[: len(taken) // 2], taken[len(taken) // 2 :]
    return _half(first), _half(second)


def _half(taken: tuple[int, ...]) -> int:
    """One index of `_halves`: -1 no checker, k one checker going k steps, 0 two checkers."""
    return -1 if not taken else taken[0] if len(taken) == 1 else 0


@cache
def _extras(checkers: int, reach: int, below: int, reach_below: int) -> list[tuple[int, int, int, int, int]]:
    """The extras of a point holding `below` checkers that walk `reach_below`
    steps, under a point whose `checkers` walk `reach` steps to it (see
    `_movers`), fewest steps first: (steps in all, the halves of the point
    above, the halves of the point below)."""
    extras: list[tuple[int, int, int, int, int]] = []
    for above in _partitions(checkers, reach):
        coming = above.count(reach)
        for leaving in _partitions(below + coming, reach_below, 4 - sum(above)):
            if len(leaving) > below:
                extras.append((sum(above) + sum(leaving), *_halves(above), *_halves(leaving)))
    return sorted(extras)


# _MOVES[checkers][reach]: the ways to move some of `checkers` alike checkers
# going at most `reach` steps each, fewest steps first, as (steps in all,
# halves; see `_halves`); checkers above 4 move like 4 (a play has 4 steps).
_MOVES = [
    [sorted((sum(way), *_halves(way)) for way in _partitions(checkers, reach)[1:]) for reach in range(5)]
    for checkers in range(5)
]
_MOVES += [_MOVES[4]] * 11
# _HALVES[die][source]: the halves (see `_halves`) of a walk from `source`
# meeting no blot (0 where it would leave the board).
_HALVES: list[list[list[int]]] = [[]] + [
    [
        [2 * (_UNIT[source - die] - _UNIT[source]) if source >= die else 0]
        + [_UNIT[source - die * steps] - _UNIT[source] if source >= die * steps else 0 for steps in range(1, 5)]
        + [0]
        for source in range(25)
    ]
    for die in range(1, 7)
]


@cache
def _plain_moves(die: int) -> list[list[list[list[tuple[int, int]]]]]:
    """[source][checkers][reach]: the moves (see `_Mover`) of the walks of
    `die` that meet no blot.  Built on first use, a die at a time: the table
    would take longer than the rest of the module to import."""
    table = []
    for source, halves in enumerate(_HALVES[die]):
        by_checkers = [
            [
                [(taken, halves[first] + halves[second]) for taken, first, second in ways]
                for ways in by_reach[: source // die + 1]
            ]
            for by_reach in _MOVES[:5]
        ]
        table.append(by_checkers + [by_checkers[4]] * 11)
    return table


# _LINES[die]: the points line by line of `die`'s steps (24, 24 - die, ...; then
# 23, 23 - die, ...; and so on), and what reads the mover's counts on them from a board.
_LINES: list[tuple[tuple[int, ...], itemgetter[Any]]] = [((), itemgetter(0))]  # no die 0
for _die in range(1, 7):
    _order = tuple(point for top in range(24, 24 - _die, -1) for point in range(top, 0, -_die))
    _LINES.append((_order, itemgetter(*_order)))
# _LEVELS[target][lowest]: the levels a point grows, from `target` down to `lowest` (at least 1).
_LEVELS = [[range(target, lowest - 1, -1) for lowest in range(target + 1)] for target in range(5)]
