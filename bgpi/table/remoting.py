"""A remote game: the other board's decisions, checked as this board's presses are.

In a remote game (the session's ``remote`` setting) each board runs the whole game; the
other board's player plays one side.  Their committed events arrive as `Remote` inputs
(`bgpi.table.inputs`) and go through the same parts a press would use: the `Doubling`
for the cube, the `Resigning` for resignations.  Their play is checked against this
board's roll (the same dice; the position after it a legal play of the roll) and shown
as a ``remote_play``, lit and followed exactly as the computer's play is
(`FollowingTurn.follow_plan`), committing itself as ``play`` once the board shows it.
`RollWanted` makes the table want the dice when the remote player is on roll.

Anything the game does not allow where it stands (out of turn, the wrong phase, an
illegal play, other dice, another play while one is lit, an event of this board's own side) is a ``remote_refused``
event that changes nothing else: the shell names the disagreement.
"""

from __future__ import annotations

from bgpi.exc import CubeError, PositionIdError
from bgpi.rules.ids import match_id, position_from_id, position_id
from bgpi.rules.notation import format_play
from bgpi.rules.playtree import PartialPlay
from bgpi.rules.position import Side
from bgpi.table import events as ev
from bgpi.table.doubling import Doubling
from bgpi.table.events import Emit
from bgpi.table.inputs import RollWanted
from bgpi.table.phases import Phase, RollFor
from bgpi.table.resigning import CLAIMABLE, OPENS_FROM, Resigning
from bgpi.table.state import Board, TableState
from bgpi.table.turn import FollowingTurn, steps_to

CUBE_ACTIONS = (ev.Double, ev.Take, ev.Drop, ev.Beaver)
ANSWERS = (ev.ResignAccepted, ev.ResignDeclined)
ACCEPTED = (*CUBE_ACTIONS, *ANSWERS, ev.Play, ev.ResignOffered, ev.Claimed, RollWanted)
"""What the other board may send: its own side's decisions, and its ask for the dice."""

_ROLL = "roll"
"""The kind a refused `RollWanted` is named by."""


class Remoting:
    """The part of the table that takes the other board's decisions.

    Reads the game, the phase and the session's remote side; changes the dice asked for
    (`state.wants_roll`) and ends this board's own choice of what to resign when the
    other board acts; emits ``remote_play`` and ``remote_refused``, and has the remote
    player's cube actions made by the `Doubling`, their resignations (and their claim
    of a game this board abandoned) by the `Resigning` and their play committed by the
    `FollowingTurn` once the board shows it."""

    def __init__(self, state: TableState, board: Board, follower: FollowingTurn, doubling: Doubling,
                 resigning: Resigning, emit: Emit) -> None:
        self.state, self.board, self.emit = state, board, emit
        self.follower, self.doubling, self.resigning = follower, doubling, resigning

    def received(self, event: ev.Event | RollWanted) -> None:
        """The other board committed `event` for its own side (or asked for the dice)."""
        kind = _ROLL if isinstance(event, RollWanted) else event.kind
        player = self._player(event)
        if not self.state.setup.remotes:
            self._refuse(player, kind, "this session is no remote game")
            return
        if not isinstance(event, ACCEPTED):
            self._refuse(player, kind, f"the other board may not send a {kind} event")
            return
        if player not in self.state.setup.remotes:
            self._refuse(player, kind, f"{player.label} is played at this board, not the other")
            return
        self.resigning.withdraw()  # this board's choice of what to resign, if any, gives way
        reason = self._why_not(player, event)
        if reason is not None:
            self._refuse(player, kind, reason)
        else:
            self._carry_out(player, event)

    def _player(self, event: ev.Event | RollWanted) -> Side:
        """Who the event is of: its player; the remote player for the dice (and for an
        event without a player, which is refused)."""
        player = getattr(event, "player", None)
        if isinstance(player, Side):
            return player
        turn, remotes = self.state.turn, self.state.setup.remotes
        if turn is not None and (turn in remotes or not remotes):
            return turn
        return next(iter(remotes), Side.BLACK)

    def _refuse(self, player: Side, kind: str, reason: str) -> None:
        self.emit(ev.RemoteRefused(player, kind, reason))

    # -- is it allowed? ------------------------------------------------------------------

    def _why_not(self, player: Side, event: ev.Event | RollWanted) -> str | None:
        """Why the game does not allow `player`'s `event` where it stands; None if it does."""
        state = self.state
        what = f"the other board's {_ROLL if isinstance(event, RollWanted) else event.kind}"
        if isinstance(event, RollWanted) and state.phase == Phase.OPENING:
            return None  # the table already wants the opening roll
        if state.game is None or state.phase not in _PHASES[type(event)]:
            return f"{what} is not allowed now: {self._where()}"
        asked = self._asked()
        if player is not asked and not isinstance(event, ev.ResignOffered | ev.Claimed):  # in either's turn
            return f"{what} is not allowed now: {asked.label} decides, not {player.label}"
        if isinstance(event, RollWanted):
            return None if state.wants_roll is None else f"{what} is asked for already"
        if isinstance(event, CUBE_ACTIONS):
            return self._why_not_cube(what, event)
        if isinstance(event, ev.Play):
            return self._why_not_play(what, event)
        return None

    def _asked(self) -> Side:
        """Who decides now: the opponent of a resigner, the taker of a double, else the player on turn."""
        state = self.state
        if state.phase == Phase.RESIGNED and state.resignation is not None:
            return state.resignation.player.opponent
        return state.asked()

    def _where(self) -> str:
        """Where the game stands, in a few words."""
        state = self.state
        if state.game is None or state.turn is None:
            return "no game is in progress" if state.phase != Phase.OPENING else "the opening roll is awaited"
        turn = state.current_turn().label
        if state.phase in (Phase.MOVE, Phase.CHOOSE):
            return f"{turn} has rolled"
        if state.phase == Phase.DOUBLED:
            return f"a double awaits {state.taker().label}'s answer"
        if state.phase == Phase.RESIGNED:
            return f"a resignation awaits {self._asked().label}'s answer"
        if state.phase == Phase.OVER:
            return "the game is over"
        return f"{turn} is on roll"

    def _why_not_cube(self, what: str, event: ev.Double | ev.Take | ev.Drop | ev.Beaver) -> str | None:
        game, player = self.state.current_game(), event.player
        try:
            match event:
                case ev.Double():
                    cube = game.double(player).cube.offered_value
                case ev.Beaver():
                    cube = game.beaver(player).cube.offered_value
                case ev.Take():
                    cube = game.cube.offered_value
                case ev.Drop():
                    cube = game.cube.value
        except CubeError as refusal:
            return f"{what} is not allowed now: {refusal}"
        if isinstance(event, ev.Double) and (late := self.doubling.too_late(event.player)) is not None:
            return f"{what} is not allowed now: {late}"
        if cube != event.cube:
            return f"{what} says the cube is {event.cube}; here it is {cube}"
        return None

    def _why_not_play(self, what: str, event: ev.Play) -> str | None:
        state, moving = self.state, self.state.current_roll()
        dice = (moving.dice.first, moving.dice.second)
        if tuple(event.dice) != dice:
            return f"{what} is of the dice {_dice(event.dice)}, not of this roll's {_dice(dice)}"
        lit = state.advice.hint
        if isinstance(lit, ev.RemotePlay) and (lit.player, lit.dice, lit.position_id) != \
                (event.player, tuple(event.dice), event.position_id):
            return f"{what} is lit already: {lit.move}"
        if self._node(event) is None:
            return f"{what} ({event.move or 'no play'}) is not a legal play of {_dice(dice)} here"
        over = position_from_id(event.position_id, event.player.opponent).winner() is not None
        expected = match_id(state.current_game().end_turn().match_key(over=over))
        if event.match_id != expected:
            return f"{what} leaves the Match ID {event.match_id}; here it is {expected}"
        return None

    def _node(self, event: ev.Play) -> PartialPlay | None:
        """The complete play of the roll whose position `event.position_id` is, if any."""
        tree = self.state.current_roll().tree
        try:
            after = position_from_id(event.position_id, event.player.opponent)
        except PositionIdError:
            return None
        return next((node for node in tree.find(after) if tree.is_complete(node)), None)

    # -- carrying it out ---------------------------------------------------------------

    def _carry_out(self, player: Side, event: ev.Event | RollWanted) -> None:
        state = self.state
        match event:
            case RollWanted():
                if state.phase == Phase.ROLL:
                    state.wants_roll = RollFor.TURN
            case ev.Double():
                self.doubling.double(player)
            case ev.Take():
                self.doubling.take(player)
            case ev.Drop():
                self.doubling.drop(player)  # the other board confirmed it there
            case ev.Beaver():
                self.doubling.beaver(player)
            case ev.ResignOffered(result=result):
                state.wants_roll = None  # the dice asked for this turn wait until play goes on
                self.resigning.offer(player, result)
            case ev.ResignAccepted():
                self.resigning.answer(player, "turn")
            case ev.ResignDeclined():
                self.resigning.answer(player, "cube")
            case ev.Claimed():
                self.resigning.claim(player)  # this board was away: the other one claimed the game there
            case ev.Play():
                self._play(event)

    def _play(self, event: ev.Play) -> None:
        """Show the other board's play as lights to follow; it commits once the board shows
        it.  The same play again (a board resumed with it lit, and resynchronised) stays lit."""
        if isinstance(self.state.advice.hint, ev.RemotePlay):
            return
        moving = self.state.current_roll()
        node = self._node(event)
        tree, side = moving.tree, event.player
        assert node is not None  # checked by _why_not_play
        self.emit(ev.RemotePlay(side, (moving.dice.first, moving.dice.second),
                                format_play(steps_to(tree, node)),  # this board's words, not the wire's
                                position_id(node.position, side.opponent)))
        self.follower.follow_plan()  # a roll that cannot be played commits at once


_PHASES: dict[type, tuple[Phase, ...]] = {
    RollWanted: (Phase.ROLL,),
    ev.Double: (Phase.ROLL,),
    ev.Take: (Phase.DOUBLED,),
    ev.Drop: (Phase.DOUBLED,),
    ev.Beaver: (Phase.DOUBLED,),
    ev.Play: (Phase.MOVE, Phase.CHOOSE),
    ev.ResignOffered: OPENS_FROM,
    ev.ResignAccepted: (Phase.RESIGNED,),
    ev.ResignDeclined: (Phase.RESIGNED,),
    ev.Claimed: CLAIMABLE,
}
"""The phases in which the other board may send each kind."""


def _dice(dice: tuple[int, int]) -> str:
    return f"{dice[0]}-{dice[1]}"
