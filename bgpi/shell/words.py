"""The table log in words: "White plays 8/5 6/5", "Illegal: point 13 is blocked".

`say` turns one table-log event (docs/board-script.md) into the sentence players read,
on the board's page and in the terminal simulator; `tell` is the simulator's line for
any event (the `show` events too); `ask` says what the board waits for and which
buttons answer.  Points are named in the mover's own count, as gnubg's notation does.
Pure: no clock, no I/O.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from bgpi.board.locations import Location, is_bar
from bgpi.rules.position import Side
from bgpi.rules.result import ResultKind
from bgpi.table import events as ev
from bgpi.table.doubling import DROP_CONFIRM


def _name(player: Side | None) -> str:
    return player.label.capitalize() if player is not None else "The board"


def roll_text(dice: tuple[int, int]) -> str:
    """A roll as players and gnubg write it: the higher die first, "61"."""
    return f"{max(dice)}{min(dice)}"


def point_name(player: Side, location: Location) -> str:
    """How `player` names `location` in notation: in their own count, "bar", "off"."""
    if isinstance(location, str):
        return "bar" if is_bar(location) else "off"
    return str(location if player is Side.WHITE else 25 - location)


def _and(items: list[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    return " and ".join(item for item in [", ".join(items[:-1]), items[-1]] if item) if items else ""


def _checkers(places: Mapping[Location, int], on: str) -> str:
    """How many checkers where, in words: "4 checkers on point 2", "2 checkers on point 12
    and a checker each on points 1 and 13" (`on`: the preposition, "on" or "from")."""
    named = {place: f"point {place}" if isinstance(place, int) else place for place in places}
    parts = [f"{count} checkers {on} {named[place]}" for place, count in places.items() if count > 1]
    singles = [place for place, count in places.items() if count == 1]
    if len(singles) == 1:
        parts.append(f"a checker {on} {named[singles[0]]}")
    elif singles and all(isinstance(place, int) for place in singles):
        parts.append(f"a checker each {on} points {_and([str(place) for place in singles])}")
    elif singles:
        parts.append(f"a checker each {on} {_and([named[place] for place in singles])}")
    return _and(parts)


def say(event: ev.Event) -> str | None:
    """The sentence for `event`; None for events that say nothing to the players."""
    words = _SENTENCES.get(type(event))
    return words(event) if words is not None else None


def _session(event: ev.NewSession) -> str:
    match = event.config.get("match")
    what = f"a match to {match}" if match else "a money session"
    chouette = event.config.get("chouette")
    if isinstance(chouette, dict) and isinstance(chouette.get("players"), list):
        players = [str(name) for name in chouette["players"]]
        return f"New chouette: {_and(players)}. Press a turn button for the roll-off"
    practice = f" from position {event.position_id}" if event.position_id is not None else ""
    return f"New session: {what}{practice}"


def _tie(event: ev.Tie) -> str:
    cube = f" (the cube is now {event.cube})" if event.cube > 1 else ""
    return f"Opening roll {event.white} and {event.black}: a tie, roll again{cube}"


def _opening(event: ev.Opening) -> str:
    dice = (event.white, event.black) if event.starts is Side.WHITE else (event.black, event.white)
    return (f"Opening roll: white {event.white}, black {event.black}: "
            f"{_name(event.starts)} starts with {roll_text(dice)}")


def _step(event: ev.Step) -> str:
    player, hit = event.player, "*" if event.hit else ""
    return f"{_name(player)} moves {point_name(player, event.from_)}/{point_name(player, event.to)}{hit}"


def _undo(event: ev.Undo) -> str:
    player = event.player
    return f"{_name(player)} takes back {point_name(player, event.to)}/{point_name(player, event.from_)}"


def _rejected(event: ev.Rejected) -> str:
    reason = event.reason
    return reason[:1].upper() + reason[1:] if event.player is None else f"Illegal: {reason}"


def _ambiguous(event: ev.Ambiguous) -> str:
    player = event.player
    if event.in_hand is not None:
        play = event.candidates[0] if event.candidates else "the play"
        place = point_name(player, event.in_hand)
        return (f"{_name(player)}: is a checker from {place} still in hand? Put it down, "
                f"or press turn again to commit {play} (its last checker hidden on a full point)")
    return (f"{_name(player)}: the board shows {' or '.join(event.candidates)}; "
            "the cube button shows the next, the turn button commits")


def _unseen_step(event: ev.UnseenStep) -> str:
    player = event.player
    by = f"{event.by.label}.turn" if event.by is not None else "a turn button"
    return (f"No switch sees {player.label}'s {point_name(player, event.from_)}/{point_name(player, event.to)}: "
            f"move the checker as lit, then press {by}")


def _play(event: ev.Play) -> str:
    return f"{_name(event.player)} plays {event.move}" if event.move else f"{_name(event.player)} cannot move"


def _double(event: ev.Double) -> str:
    return f"{_name(event.player)} doubles to {event.cube}: {event.player.opponent.label}, take or drop"


def _game_over(event: ev.GameOver) -> str:
    score, points = event.score, event.points
    how = " (resigned)" if event.resigned else ""
    return (f"{_name(event.winner)} wins {RESULT_WORDS[event.result]}{how}, "
            f"{points} point{'s' if points != 1 else ''}. "
            f"Score: white {score.get('white', 0)}, black {score.get('black', 0)}")


def _resign_offered(event: ev.ResignOffered) -> str:
    other = event.player.opponent.label
    return (f"{_name(event.player)} offers to resign {RESULT_WORDS[event.result]}: "
            f"{other} accepts with {other.capitalize()} turn, declines with {other.capitalize()} cube")


def _claimed(event: ev.Claimed) -> str:
    return f"{_name(event.player)} claims the game the other board abandoned: {RESULT_WORDS[event.result]} resigned"


def _match_over(event: ev.MatchOver) -> str:
    score = event.score
    return f"{_name(event.winner)} wins the match {score.get('white', 0)}-{score.get('black', 0)}"


def _mismatch(event: ev.Mismatch) -> str:
    parts = []
    if event.missing:
        parts.append(f"put back {_checkers(event.missing, 'on')}")
    if event.extra:
        parts.append(f"take away {_checkers(event.extra, 'from')}")
    return f"The board does not show the game: {'; '.join(parts) or 'check it'}. Play pauses"


def _hint(event: ev.Hint | ev.CubeHint) -> str:
    if isinstance(event, ev.CubeHint):
        return f"Hint for {event.player.label}: {event.advice.value}"
    return f"Hint for {event.player.label}: {event.move or 'no play'} (equity {event.equity:+.3f})"


def _computer_play(event: ev.ComputerPlay) -> str:
    return f"The computer ({event.player.label}) plays {event.move or 'no play'}: move its checkers as the lights show"


def _remote_play(event: ev.RemotePlay) -> str:
    return (f"{_name(event.player)} plays {event.move or 'no play'} on the other board: "
            "move its checkers as the lights show")


def _remote_refused(event: ev.RemoteRefused) -> str:
    return f"Refused from the other board ({event.player.label}): {event.reason}"


def _computer_stopped(event: ev.ComputerStopped) -> str:
    return f"The engine keeps failing ({event.reason}): {event.player.label} is played by hand from now on"


def _roll_off(event: ev.RollOff) -> str:
    return "Roll-off: " + _and([f"{name} {die}" for name, die in zip(event.players, event.dice, strict=False)])


_LINE_WHY = {"roll_off": "after the roll-off", "rotation": "for the next game",
             "joined": "joins at the end of the line", "left": "leaves"}


def _line(event: ev.Line) -> str:
    box, captain, *crew = event.line
    who = event.player if event.player is not None else "The line"
    change = f"{who} {_LINE_WHY[event.why]}: "
    return change + f"{box} is the box, {captain} the captain" + (f", then {_and(crew)}" if crew else "")


def _seat_cube(event: ev.SeatDouble | ev.SeatTake | ev.SeatDrop | ev.SeatBeaver) -> str:
    how = {"seat_double": "doubles", "seat_take": "takes", "seat_drop": "drops", "seat_beaver": "beavers"}[event.kind]
    return f"{_name(event.player)} {how} on {event.seat}'s cube ({event.cube})"


def _seat_resign_offered(event: ev.SeatResignOffered) -> str:
    return f"{_name(event.player)} offers to resign {RESULT_WORDS[event.result]} to {_and(list(event.seats))}"


def _chouette_over(event: ev.ChouetteOver) -> str:
    results = _and([f"{name} {points:+d}" for name, points in event.points.items()])
    return f"The chouette game is over: {results}"


_SENTENCES: dict[type, Callable[[Any], str]] = {
    ev.NewSession: _session,
    ev.Resumed: lambda event: f"Resumed the session from the journal ({event.events} events)",
    ev.Start: lambda event: "The game starts: press a turn button for the opening roll",
    ev.Tie: _tie,
    ev.Opening: _opening,
    ev.Roll: lambda event: f"{_name(event.player)} rolls {roll_text(event.dice)}",
    ev.Step: _step,
    ev.Undo: _undo,
    ev.Rejected: _rejected,
    ev.Ambiguous: _ambiguous,
    ev.UnseenStep: _unseen_step,
    ev.Play: _play,
    ev.Double: _double,
    ev.DropAsked: lambda event: (f"{_name(event.player)}: drop? Press {_name(event.player)} cube again within "
                                 f"{DROP_CONFIRM:g} s to drop, {_name(event.player)} turn to go back"),
    ev.DropCancelled: lambda event: f"{_name(event.player)} does not drop: take or drop",
    ev.Beaver: lambda event: f"{_name(event.player)} beavers: the cube is offered at {event.cube}",
    ev.Take: lambda event: f"{_name(event.player)} takes: the cube is on {event.cube}",
    ev.Drop: lambda event: f"{_name(event.player)} drops",
    ev.GameOver: _game_over,
    ev.ResignOffered: _resign_offered,
    ev.ResignAccepted: lambda event: f"{_name(event.player)} accepts the resignation",
    ev.ResignDeclined: lambda event: f"{_name(event.player)} declines the resignation: play on",
    ev.Claimed: _claimed,
    ev.MatchOver: _match_over,
    ev.Mismatch: _mismatch,
    ev.Restored: lambda event: "The board shows the game again: play on",
    ev.Hint: _hint,
    ev.CubeHint: _hint,
    ev.ComputerPlay: _computer_play,
    ev.ComputerCube: lambda event: f"The computer ({event.player.label}): {event.decision.value}"
                                   + ("" if event.seat is None else f" on {event.seat}'s cube"),
    ev.ComputerStopped: _computer_stopped,
    ev.RemotePlay: _remote_play,
    ev.RemoteRefused: _remote_refused,
    ev.RollOff: _roll_off,
    ev.Line: _line,
    ev.SeatDouble: _seat_cube,
    ev.SeatTake: _seat_cube,
    ev.SeatDrop: _seat_cube,
    ev.SeatBeaver: _seat_cube,
    ev.Captain: lambda event: f"{event.player} is captain",
    ev.SeatResignOffered: _seat_resign_offered,
    ev.SeatResignAccepted: lambda event: f"{_name(event.player)} accepts the resignation for {event.seat}",
    ev.SeatResignDeclined: lambda event: f"{_name(event.player)} declines the resignation for {event.seat}",
    ev.ChouetteOver: _chouette_over,
}
"""The sentence of each class of event that says something to the players."""


RESULT_WORDS = {ResultKind.SINGLE: "a single game", ResultKind.GAMMON: "a gammon",
                ResultKind.BACKGAMMON: "a backgammon"}


def tell(event: ev.Event) -> str:
    """The terminal simulator's line for `event`: its sentence, the `state` and `lights`
    a `show` asks for in words, and JSON for an event without words."""
    match event:
        case ev.State():
            turn = f", {event.turn.label} on turn" if event.turn is not None else ""
            dice = f", dice {roll_text(event.dice)}" if event.dice else ""
            score = event.score
            return (f"State: {event.phase.json}{turn}{dice}; score white {score['white']}, "
                    f"black {score['black']}; Position ID {event.position_id}, "
                    f"Match ID {event.match_id}")
        case ev.Lights():
            roles = ", ".join(f"{location} {role}" for location, role in event.roles.items())
            asked = ask(event)
            return f"Lights: {roles or 'none'}" + (f". {asked}" if asked else "")
    return say(event) or json.dumps(event.to_json())


def ask(lights: ev.Lights, buttons: Mapping[str, str] | None = None) -> str:
    """What a ``lights`` event says the board waits for: "To roll (white: white.turn =
    roll)"; `buttons` names the buttons otherwise (the terminal's ``wt``), a held one
    as "hold wt"."""
    if lights.asks is None:
        return ""
    side = lights.side.label if lights.side is not None else "either player"
    names = buttons or {}

    def named(button: str) -> str:
        held, _, name = button.rpartition(" ")
        return f"{held} {names.get(name, name)}".lstrip()

    answers = ", ".join(f"{named(button)} = {word}" for button, word in lights.answers.items())
    return f"{ASKS[lights.asks]} ({side}{': ' + answers if answers else ''})"


ASKS = {
    "setup": "Set up the board",
    "opening": "Ready for the opening roll",
    "roll": "To roll",
    "roll_or_double": "To roll or double",
    "move": "To move, then commit",
    "no_play": "No legal play: pass",
    "choose": "Which play was it?",
    "confirm_step": "No switch sees the lit move: make it, then confirm",
    "doubled": "Doubled: take or drop",
    "confirm_drop": f"Drop? Press cube again within {DROP_CONFIRM:g} s",
    "mismatch": "Put the checkers right",
    "game_over": "Game over: set up for the next game",
    "match_over": "Match over",
    "new_session": "Choose the next session",
    "resigning": "Resign: a single game, a gammon or a backgammon?",
    "resign_offered": "A resignation is offered: accept or decline",
    "remote_turn": "The other board's player decides",
    "remote_away": "Waiting for the other board",
    "remote_abandoned": "The other board abandoned the game: hold turn to claim it",
    "remote_claim": "Claim the game? turn claims it, cube backs out",
    "remote_refused": "The other board cannot be played with: see the log",
    "roll_off": "Roll-off: roll for the places in the line",
    "seats": "Choose the seats, one after the other",
    "seat_doubled": "A seat's double: take or drop",
    "results": "The chouette game's results",
    "computer_turn": "The computer decides",
}
