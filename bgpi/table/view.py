"""What the table shows: the role of every location on the LEDs, and the `state` event.

Roles come from the phase: setup guidance, mismatch guidance, the candidate play
being chosen, or, while moving, the lifted checker's source and its legal
destinations, hits awaited on the bar and refused placements.  Colours and blinking
are `bgpi.table.lights`' business.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bgpi.board.locations import (
    BARS,
    LOCATIONS,
    TRAYS,
    Location,
    bar,
    checkers_on,
    location_of,
)
from bgpi.rules.ids import match_id, position_id
from bgpi.rules.position import BAR, Position, Side, absolute_point
from bgpi.rules.session import Game
from bgpi.table import events as ev
from bgpi.table.chairs import ChairsView, chouette_state
from bgpi.table.lights import Lighting, Prompt, both_buttons, own_buttons
from bgpi.table.phases import CubeWord, Link, Phase
from bgpi.table.resigning import CLAIMABLE
from bgpi.table.state import Board, Moving, TableState
from bgpi.table.turn import confirmer, lit_chain, on_the_way, steps_between

Roles = dict[Location, str]

_EMPTY = Position((0,) * 25, (0,) * 25)


class TableView:
    """The part of the table that says what the board shows.

    Reads the whole state and the board; changes nothing."""

    def __init__(self, state: TableState, board: Board) -> None:
        self.state, self.board = state, board
        self.chairs = ChairsView(state) if state.chouette is not None else None

    def set_up(self) -> bool:
        """Whether the board shows the position the next game starts from."""
        return self.board.seen is not None and self.board.seen == self.board.expected(self.state.position)

    def lighting(self) -> Lighting:
        """The roles of the board's locations now (blinking is the lights layer's business)."""
        state = self.state
        roles, hint_from = self.hint_roles()  # under everything else
        combined: set[Location] = set()
        moving = state.moving
        if state.phase == Phase.SETUP:
            self._setup_roles(roles)
        elif state.trouble.mismatch is not None:
            roles.update({location: "missing" for location in state.trouble.mismatch.missing})
            roles.update({location: "extra" for location in state.trouble.mismatch.extra})
        elif state.phase == Phase.CHOOSE and moving is not None:
            self._candidate_roles(roles, moving)
        elif state.phase == Phase.MOVE and moving is not None:
            combined = self._moving_roles(roles, moving)
        chairs = self.chairs.chairs(self.set_up()) if self.chairs is not None else None
        if chairs is not None:
            roles.update(chairs.roles)
        combined = {location for location in combined if roles[location] == "destination"}
        hint_from = {location for location in hint_from if roles.get(location) == "hint"}
        return Lighting(roles=roles, combined=frozenset(combined), hint_from=frozenset(hint_from),
                        dice=self._dice_shown(), turn=state.turn, prompt=self.prompt(),
                        asked=chairs.asked if chairs else frozenset(), captain=chairs.captain if chairs else None)

    def _setup_roles(self, roles: Roles) -> None:
        """Setting up: where checkers are missing, and where there are too many."""
        board = self.board
        seen = board.seen or board.expected(_EMPTY)
        missing, extra = board.sensing.difference(seen, board.expected(self.state.position))
        roles.update({location: "setup" for location in missing})
        roles.update({location: "extra" for location in extra})

    def _candidate_roles(self, roles: Roles, moving: Moving) -> None:
        """The candidate shown as a play: where its checkers came from and went to."""
        shown = moving.candidates[moving.choice].position
        for location in LOCATIONS:
            after, before = checkers_on(shown, location), checkers_on(self.state.position, location)
            if after != before:
                roles[location] = "destination" if after > before else "source"

    def _moving_roles(self, roles: Roles, moving: Moving) -> set[Location]:
        """Moving: hits awaited on the bar, the lifted checker's source and where it may
        go (returned: those reached with more than one die), refused placements."""
        reading, combined = moving.reading, set()
        for point in reading.pending:
            roles[point] = "hit"
        source = reading.in_hand
        if source is not None and reading.node == moving.node:
            roles[source] = "source"
            combined = self._destinations(roles, moving, source)
        if self.state.rejected is not None:
            for location in self.state.rejected.points:
                roles[location] = "rejected"
        return combined

    def _destinations(self, roles: Roles, moving: Moving, source: Location) -> set[Location]:
        side, node = self.state.current_turn(), moving.node
        if source == bar(side):
            start = BAR
        elif isinstance(source, int) and node.position.at(source)[0] is side:
            start = absolute_point(side, source)
        else:
            return set()  # a checker from the tray, or not the mover's: nowhere to go
        combined: set[Location] = set()
        for reach in moving.tree.reaches(node, start):
            location = location_of(side, reach.destination)
            if roles.get(location) != "destination":
                roles[location] = "destination"
                if reach.dice > 1:
                    combined.add(location)
                else:
                    combined.discard(location)
        return combined

    def hint_roles(self) -> tuple[Roles, set[Location]]:
        """The `hint` roles now, and which of them blink (the checker to move, or a 'no')."""
        advice = self.state.advice
        hint = advice.hint
        if hint is None and advice.hint_failed is not None:
            # No engine answered the hint button: all four corners of the bar and trays
            # blink blue for a moment, a look no advice ever has.
            corners: set[Location] = {*BARS, *TRAYS}
            return dict.fromkeys(corners, "hint"), corners
        if hint is None and advice.coached is not None:
            # The better play, flashed where the play made lost too much: its checkers' points.
            coached = advice.coached
            return ({**dict.fromkeys(coached.from_, "hint"), **dict.fromkeys(coached.to, "hint")},
                    set(coached.from_) - set(coached.to))
        if hint is None:
            return {}, set()
        if isinstance(hint, ev.CubeHint):
            sides = tuple(Side) if hint.advice == CubeWord.BEAVER else (hint.player,)
            roles: Roles = {bar(side): "hint" for side in sides}
            return roles, set() if hint.advice.yes else set(roles)
        moving = self.state.moving
        if self.state.phase != Phase.MOVE or moving is None or moving.hinted is None \
                or not on_the_way(moving, moving.node):
            return {}, set()
        steps = steps_between(moving.tree, moving.node, moving.hinted)
        if not steps:
            return {}, set()
        # The play a checker at a time: the next checker's point blinks and where the play
        # takes it stays steady (24 and 16 for 24/16, not the 22 on the way; but 11 and 5
        # for 11/5*/off: the blot hit on the way goes to the bar first), so which goes
        # where is never in doubt; once it stands there, the next checker's move is lit.
        side = self.state.current_turn()
        chain = lit_chain(steps)
        source, destination = location_of(side, chain[0].source), location_of(side, chain[-1].destination)
        return {source: "hint", destination: "hint"}, {source}

    def _dice_shown(self) -> tuple[int, int] | None:
        """The roll on the dice LEDs; when only one of two different dice can be played,
        the playable one first (the lights show the second die red)."""
        dice = self.state.dice
        if not dice:
            return None
        first, second = dice.first, dice.second
        moving = self.state.moving
        if moving is not None and first != second and moving.tree.most_dice == 1:
            tree = moving.tree
            playable = {step.die for step, child in tree.steps(tree.root) if tree.is_acceptable(child)}
            if playable == {second}:
                return second, first
        return first, second

    def prompt(self) -> Prompt | None:
        """What the board waits for, who answers and with which button; None in the
        moments nobody is asked (the dice rolling, a game ending)."""
        prompt = self._game_prompt()
        if not self.state.setup.remotes or self.state.trouble.mismatch is not None:
            return prompt
        return self._remote_prompt(prompt)

    def _remote_prompt(self, prompt: Prompt | None) -> Prompt | None:
        """A remote game's prompt: the link when it is not there (but for a lit step to
        confirm), else the other board's player when they are asked (their play being
        carried out shows as the computer's)."""
        if prompt is not None:
            prompt = replace(prompt, answers=self._remote_answers(prompt.answers))
        link = self.board.link
        if link in (Link.REFUSED, Link.DISAGREE):
            return Prompt("remote_refused")
        if prompt is not None and prompt.asks == "confirm_step":
            # The other board's play, lit here, goes on without it: shown as away, a step no
            # switch sees made would stay lit with nothing asking for the press it waits for.
            return prompt
        if link == Link.ABANDONED and self.state.phase in CLAIMABLE:
            return self._claim_prompt(prompt)
        if link.waiting:  # play may go on meanwhile: the answers and the roll still show
            return Prompt("remote_away", None, prompt.answers, dead_dice=prompt.dead_dice) if prompt else \
                Prompt("remote_away")
        if prompt is None or prompt.side not in self.state.setup.remotes or prompt.asks not in _REMOTE_ASKS:
            return prompt
        if isinstance(self.state.advice.hint, ev.RemotePlay):
            return prompt  # the other board's play, lit for the hands here
        return Prompt("remote_turn", prompt.side, {}, dead_dice=prompt.dead_dice)

    def _claim_prompt(self, prompt: Prompt | None) -> Prompt:
        """The other board abandoned the game: the player here may claim it, a held *turn*
        asking (the roll and the answers still show), then *turn* claiming."""
        state = self.state
        claimer = state.claimer
        if claimer is not None:
            return Prompt("remote_claim", claimer, own_buttons(claimer, turn="claim the game", cube="back"))
        claims = {f"hold {side.label}.turn": "claim the game" for side in Side if side not in state.setup.remotes}
        return Prompt("remote_abandoned", None, {**(prompt.answers if prompt else {}), **claims},
                      dead_dice=prompt.dead_dice if prompt else 0)

    def _remote_answers(self, answers: Mapping[str, str]) -> dict[str, str]:
        """The answers of this board's own buttons: the other board's player presses
        theirs there, and no session is chosen here."""
        remote = {side.label for side in self.state.setup.remotes}
        return {button: word for button, word in answers.items()
                if button.split()[-1].partition(".")[0] not in remote and word not in _SESSION_WORDS}

    def _game_prompt(self) -> Prompt | None:
        state = self.state
        phase = state.phase
        if state.trouble.mismatch is not None:
            return Prompt("mismatch")
        if self.chairs is not None and (chouette := self.chairs.prompt(self.set_up())) is not None:
            return chouette
        if phase == Phase.NEW_SESSION:
            return Prompt("new_session", None, {**both_buttons("cube", "next choice"),
                                                **both_buttons("turn", "start it"),
                                                **both_buttons("cube", "back", held=True)},
                          number=state.choosing)
        if phase == Phase.MATCH_OVER:
            winner = state.session.winner
            return Prompt("match_over", winner,
                          {**both_buttons("turn", "new match"), **both_buttons("cube", "choose session")},
                          number=None if winner is None else state.session.score[winner])
        if phase == Phase.SETUP:
            return self._setup_prompt()
        if phase in (Phase.RESIGNING, Phase.RESIGNED):
            return self._resign_prompt()
        if phase == Phase.ROLL:
            return self._pair_rolls(_roll_prompt(state.current_turn(), state.current_game()))
        if phase == Phase.DOUBLED:
            return self._doubled_prompt()
        if phase == Phase.CHOOSE:
            turn = state.current_turn()
            return Prompt("choose", turn, own_buttons(turn, cube="next reading", turn="this reading"))
        if phase == Phase.MOVE:
            return self._move_prompt(state.current_turn(), state.current_roll())
        return None

    def _resign_prompt(self) -> Prompt:
        """Choosing what to resign (the resigner), or answering an offer (the opponent);
        the dice add up to the points at stake."""
        state = self.state
        offer = state.resignation
        kind = offer.result if offer is not None else state.resigning
        stake = kind.multiplier * state.current_game().cube.value
        if offer is not None:
            taker = offer.player.opponent
            return Prompt("resign_offered", taker, own_buttons(taker, turn="accept", cube="decline"), number=stake)
        resigner = state.current_turn() if state.resigner is None else state.resigner
        answers = {**own_buttons(resigner, cube="single, gammon, backgammon", turn="offer"),
                   f"hold {resigner.label}.cube": "back"}
        return Prompt("resigning", resigner, answers, number=stake)

    def _doubled_prompt(self) -> Prompt:
        game = self.state.current_game()
        taker = self.state.asked()
        if self.state.drop_asked is not None:
            return Prompt("confirm_drop", taker, own_buttons(taker, cube="drop", turn="back"))
        answers = own_buttons(taker, turn="take", cube="drop (press twice)")
        if game.why_not_beaver(taker) is None:
            answers[f"hold {taker.label}.cube"] = "beaver"
        return Prompt("doubled", taker, answers)

    def _move_prompt(self, turn: Side, moving: Moving) -> Prompt:
        most, steps = moving.tree.most_dice, len(moving.dice.steps)
        dead = 0 if most == steps else 2 if most == 0 else 1
        if moving.unseen is not None:  # the lit step of a play followed: a press says it is made
            by = confirmer(self.state)
            return Prompt("confirm_step", by, {f"{side.label}.turn": "confirm the lit move"
                                               for side in ((by,) if by is not None else Side)}, dead_dice=dead)
        answers = own_buttons(turn, turn="pass" if dead == 2 else "commit")
        if moving.lenient_offer:
            answers[f"{turn.opponent.label}.turn"] = "accept the play as made"
        return Prompt("no_play" if dead == 2 else "move", turn, answers, dead_dice=dead)

    def _pair_rolls(self, prompt: Prompt) -> Prompt:
        """With pairs, a roll's prompt says which of the pair rolls: the dice show 1 or 2 pips."""
        pairs, side = self.state.setup.pairs, prompt.side
        if pairs is None or side is None:
            return prompt
        return replace(prompt, number=pairs.rolling(side, self.state.session.game_number) + 1)

    def _setup_prompt(self) -> Prompt:
        state = self.state
        set_up = self.set_up()
        new_session = both_buttons("cube", "new session")
        on_roll = state.practice_turn
        if set_up and on_roll is not None:
            # The practice position is set: its player on roll starts the game.
            prompt = self._pair_rolls(_roll_prompt(on_roll, state.practice_game()))
            others = own_buttons(on_roll.opponent, cube="new session")
            return replace(prompt, answers={**others, **prompt.answers})
        if set_up:
            return Prompt("opening", None, {**both_buttons("turn", "opening roll"), **new_session})
        if state.last_result is not None:
            return Prompt("game_over", state.last_result.winner, new_session, number=state.last_result.points)
        return Prompt("setup", None, new_session)

    def state_event(self) -> ev.State:
        """The `state` event: where the table stands."""
        state = self.state
        turn = state.turn
        dice = (state.dice.first, state.dice.second) if state.dice else None
        moving = state.moving
        board = None
        if moving is not None and moving.node != moving.tree.root and turn is not None:
            board = position_id(moving.node.position, turn)
        game_match = None
        if state.game is not None and state.game.turn is not None:  # none while a remote game's opening roll is made
            game_match = match_id(state.game.match_key(dice or (0, 0)))
        players, rollers, chouette = self._players()
        return ev.State(
            state.phase, turn, dice, position_id(state.position, Side.WHITE if turn is None else turn),
            game_match, state.session.score.as_dict(), board, players, rollers, chouette,
        )

    def _players(self) -> tuple[dict[str, str] | None, dict[str, str] | None, dict[str, Any] | None]:
        """The names a session of pairs or a chouette gives each side, who rolls for each
        pair this game, and the chouette's state."""
        setup, seating = self.state.setup, self.state.chouette
        if setup.pairs is not None:
            game = self.state.session.game_number
            return ({side.label: setup.pairs.names(side) for side in Side},
                    {side.label: setup.pairs.roller(side, game) for side in Side}, None)
        if seating is None:
            return None, None, None
        named = None
        if len(seating.line) >= 2:
            named = {seating.box_side.label: seating.roles.box, seating.box_side.opponent.label: seating.captain}
        return named, None, chouette_state(seating)


_SESSION_WORDS = ("new session", "choose session", "new match")
"""The answers that choose a session, which a remote game's boards agree on when they meet."""

_REMOTE_ASKS = ("roll", "roll_or_double", "move", "no_play", "choose", "doubled", "resign_offered")
"""The prompts that ask the other board's player, when they are asked: `remote_turn` instead."""


def _roll_prompt(side: Side, game: Game) -> Prompt:
    if game.may_double(side):
        return Prompt("roll_or_double", side, own_buttons(side, turn="roll", cube="double"))
    return Prompt("roll", side, own_buttons(side, turn="roll"))

