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
from bgpi.table import events as ev

Line = Mapping[str, Any]
"""One line of the table log, as JSON gives it."""


def _name(player: str | None) -> str:
    return player.capitalize() if player else "The board"


def roll_text(dice: list[int] | tuple[int, int]) -> str:
    """A roll as players and gnubg write it: the higher die first, "61"."""
    return f"{max(dice)}{min(dice)}"


def point_name(player: str | None, location: Location) -> str:
    """How `player` names `location` in notation: in their own count, "bar", "off"."""
    if isinstance(location, str):
        return "bar" if is_bar(location) else "off"
    return str(location if player == "white" else 25 - location)


def _and(items: list[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    return " and ".join(item for item in [", ".join(items[:-1]), items[-1]] if item) if items else ""


def _checkers(places: Mapping[str, int], on: str) -> str:
    """How many checkers where, in words: "4 checkers on point 2", "2 checkers on point 12
    and a checker each on points 1 and 13" (`on`: the preposition, "on" or "from")."""
    named = {place: f"point {place}" if str(place).isdigit() else str(place) for place in places}
    parts = [f"{count} checkers {on} {named[place]}" for place, count in places.items() if count > 1]
    singles = [place for place, count in places.items() if count == 1]
    if len(singles) == 1:
        parts.append(f"a checker {on} {named[singles[0]]}")
    elif singles and all(str(place).isdigit() for place in singles):
        parts.append(f"a checker each {on} points {_and([str(place) for place in singles])}")
    elif singles:
        parts.append(f"a checker each {on} {_and([named[place] for place in singles])}")
    return _and(parts)


def say(event: Mapping[str, Any]) -> str | None:
    """The sentence for `event` (its JSON form); None for events that say nothing to the
    players.  Any line of a table log is read, an older version's too: a key the
    sentence does not need may be missing."""
    words = _SENTENCES.get(str(event.get("event")))
    return words(event, event.get("player")) if words is not None else None


def _session(event: Line, player: str | None) -> str:
    config = event.get("config", {})
    what = f"a match to {config['match']}" if config.get("match") else "a money session"
    practice = f" from position {event['position_id']}" if "position_id" in event else ""
    return f"New session: {what}{practice}. Set up the board and press a turn button"


def _tie(event: Line, player: str | None) -> str:
    cube = f" (the cube is now {event['cube']})" if event.get("cube", 1) > 1 else ""
    return f"Opening roll {event['white']} and {event['black']}: a tie, roll again{cube}"


def _opening(event: Line, player: str | None) -> str:
    starts = event["starts"]
    dice = (event["white"], event["black"]) if starts == "white" else (event["black"], event["white"])
    return (f"Opening roll: white {event['white']}, black {event['black']}: "
            f"{_name(starts)} starts with {roll_text(dice)}")


def _step(event: Line, player: str | None) -> str:
    hit = "*" if event.get("hit") else ""
    return f"{_name(player)} moves {point_name(player, event['from'])}/{point_name(player, event['to'])}{hit}"


def _undo(event: Line, player: str | None) -> str:
    return f"{_name(player)} takes back {point_name(player, event['to'])}/{point_name(player, event['from'])}"


def _rejected(event: Line, player: str | None) -> str:
    reason = str(event.get("reason", ""))
    return reason[:1].upper() + reason[1:] if player is None else f"Illegal: {reason}"


def _ambiguous(event: Line, player: str | None) -> str:
    if event.get("in_hand") is not None:
        (play, *_) = event.get("candidates", ["the play"])
        place = point_name(player, event["in_hand"])
        return (f"{_name(player)}: is a checker from {place} still in hand? Put it down, "
                f"or press turn again to commit {play} (its last checker hidden on a full point)")
    return (f"{_name(player)}: the board shows {' or '.join(event.get('candidates', []))}; "
            "the cube button shows the next, the turn button commits")


def _play(event: Line, player: str | None) -> str:
    move = event.get("move")
    return f"{_name(player)} plays {move}" if move else f"{_name(player)} cannot move"


def _double(event: Line, player: str | None) -> str:
    return f"{_name(player)} doubles to {event['cube']}: {Side.parse(str(player)).opponent.label}, take or drop"


def _game_over(event: Line, player: str | None) -> str:
    score = event.get("score", {})
    points = event.get("points", 1)
    how = " (resigned)" if event.get("resigned") else ""
    return (f"{_name(event['winner'])} wins {_RESULT.get(str(event.get('result')), 'the game')}{how}, "
            f"{points} point{'s' if points != 1 else ''}. "
            f"Score: white {score.get('white', 0)}, black {score.get('black', 0)}")


def _resign_offered(event: Line, player: str | None) -> str:
    other = "black" if player == "white" else "white"
    return (f"{_name(player)} offers to resign {_RESULT.get(str(event.get('result')), 'the game')}: "
            f"{other} accepts with {other}.turn, declines with {other}.cube")


def _match_over(event: Line, player: str | None) -> str:
    score = event.get("score", {})
    return f"{_name(event['winner'])} wins the match {score.get('white', 0)}-{score.get('black', 0)}"


def _mismatch(event: Line, player: str | None) -> str:
    parts = []
    if event.get("missing"):
        parts.append(f"put back {_checkers(event['missing'], 'on')}")
    if event.get("extra"):
        parts.append(f"take away {_checkers(event['extra'], 'from')}")
    return f"The board does not show the game: {'; '.join(parts) or 'check it'}. Play pauses"


def _hint(event: Line, player: str | None) -> str:
    advice = event.get("move") or event.get("advice") or "no play"
    equity = f" (equity {event['equity']:+.3f})" if isinstance(event.get("equity"), int | float) else ""
    return f"Hint for {player}: {advice}{equity}"


def _computer_play(event: Line, player: str | None) -> str:
    move = event.get("move") or "no play"
    return f"The computer ({player}) plays {move}: move its checkers as the lights show"


def _remote_play(event: Line, player: str | None) -> str:
    move = event.get("move") or "no play"
    return f"{_name(player)} plays {move} on the other board: move its checkers as the lights show"


def _remote_refused(event: Line, player: str | None) -> str:
    reason = str(event.get("reason", ""))
    return f"Refused from the other board ({player}): {reason}"


_SENTENCES: dict[str, Callable[[Line, str | None], str]] = {
    ev.NewSession.kind: _session,
    ev.Resumed.kind: lambda event, _: f"Resumed the session from the journal ({event.get('events', 0)} events)",
    ev.Start.kind: lambda event, _: "The game starts: press a turn button for the opening roll",
    ev.Tie.kind: _tie,
    ev.Opening.kind: _opening,
    ev.Roll.kind: lambda event, player: f"{_name(player)} rolls {roll_text(event['dice'])}",
    ev.Step.kind: _step,
    ev.Undo.kind: _undo,
    ev.Rejected.kind: _rejected,
    ev.Ambiguous.kind: _ambiguous,
    ev.Play.kind: _play,
    ev.Double.kind: _double,
    ev.DropAsked.kind: lambda event, player: f"{_name(player)}: drop? {event.get('reason', '')}",
    ev.DropCancelled.kind: lambda event, player: f"{_name(player)} does not drop: take or drop",
    ev.Beaver.kind: lambda event, player: f"{_name(player)} beavers: the cube is offered at {event['cube']}",
    ev.Take.kind: lambda event, player: f"{_name(player)} takes: the cube is on {event['cube']}",
    ev.Drop.kind: lambda event, player: f"{_name(player)} drops",
    ev.GameOver.kind: _game_over,
    ev.ResignOffered.kind: _resign_offered,
    ev.ResignAccepted.kind: lambda event, player: f"{_name(player)} accepts the resignation",
    ev.ResignDeclined.kind: lambda event, player: f"{_name(player)} declines the resignation: play on",
    ev.MatchOver.kind: _match_over,
    ev.Mismatch.kind: _mismatch,
    ev.Restored.kind: lambda event, _: "The board shows the game again: play on",
    ev.Hint.kind: _hint,
    ev.ComputerPlay.kind: _computer_play,
    ev.ComputerCube.kind: lambda event, player: f"The computer ({player}): {event.get('decision')}",
    ev.ComputerStopped.kind: lambda event, player: (f"The engine keeps failing ({event.get('reason', '')}): "
                                                    f"{player} is played by hand from now on"),
    ev.RemotePlay.kind: _remote_play,
    ev.RemoteRefused.kind: _remote_refused,
}
"""The sentence of each kind of event that says something to the players."""


_RESULT = {"single": "a single game", "gammon": "a gammon", "backgammon": "a backgammon"}


def tell(event: Mapping[str, Any]) -> str:
    """The terminal simulator's line for `event`: its sentence, the `state` and `lights`
    a `show` asks for in words, and JSON for an event without words."""
    kind = event.get("event")
    if kind == "state":
        turn = f", {event['turn']} on turn" if event.get("turn") else ""
        dice = f", dice {roll_text(event['dice'])}" if event.get("dice") else ""
        score = event["score"]
        return (f"State: {event['phase']}{turn}{dice}; score white {score['white']}, "
                f"black {score['black']}; Position ID {event['position_id']}, "
                f"Match ID {event['match_id']}")
    if kind == "lights":
        roles = ", ".join(f"{location} {role}" for location, role in event["roles"].items())
        asked = ask(event)
        return f"Lights: {roles or 'none'}" + (f". {asked}" if asked else "")
    return say(event) or json.dumps(event)


def ask(lights: Mapping[str, Any]) -> str:
    """What a ``lights`` event says the board waits for: "white: turn roll, cube double"."""
    if "asks" not in lights:
        return ""
    side = lights.get("side") or "either player"
    answers = ", ".join(f"{button} = {word}" for button, word in lights["answers"].items())
    return f"{ASKS[lights['asks']]} ({side}{': ' + answers if answers else ''})"


ASKS = {
    "setup": "Set up the board",
    "opening": "Ready for the opening roll",
    "roll": "To roll",
    "roll_or_double": "To roll or double",
    "move": "To move, then commit",
    "no_play": "No legal play: pass",
    "choose": "Which play was it?",
    "doubled": "Doubled: take or drop",
    "confirm_drop": "Drop? Press cube again",
    "mismatch": "Put the checkers right",
    "game_over": "Game over: set up for the next game",
    "match_over": "Match over",
    "new_session": "Choose the next session",
    "resigning": "Resign: a single game, a gammon or a backgammon?",
    "resign_offered": "A resignation is offered: accept or decline",
    "remote_turn": "The other board's player decides",
    "remote_away": "Waiting for the other board",
    "remote_refused": "The other board cannot be played with: see the log",
}
