"""The table log in words: "White plays 8/5 6/5", "Illegal: point 13 is blocked".

`say` turns one table-log event (docs/board-script.md) into the sentence players read,
on the board's page and in the terminal simulator; `tell` is the simulator's line for
any event (the `show` events too); `ask` says what the board waits for and which
buttons answer.  Points are named in the mover's own count, as gnubg's notation does.
Pure: no clock, no I/O.
"""

from __future__ import annotations

import json

from bgpi.board.locations import Location
from bgpi.rules.position import Side


def _name(player: str | None) -> str:
    return player.capitalize() if player else "The board"


def _dice(dice: list[int]) -> str:
    return f"{dice[0]}{dice[1]}"


def point_name(player: str, location: Location) -> str:
    """How `player` names `location` in notation: in their own count, "bar", "off"."""
    if isinstance(location, str):
        return "bar" if location.startswith("bar:") else "off"
    return str(location if player == "white" else 25 - location)


def _places(places: dict[str, int]) -> str:
    return ", ".join(f"{count} on {place}" if count > 1 else place for place, count in places.items())


def say(event: dict) -> str | None:
    """The sentence for `event`; None for events that say nothing to the players."""
    kind = event.get("event")
    player = event.get("player")
    match kind:
        case "session":
            config = event.get("config", {})
            what = f"a match to {config['match']}" if config.get("match") else "a money session"
            practice = f" from position {event['position_id']}" if "position_id" in event else ""
            return f"New session: {what}{practice}. Set up the board and press a turn button"
        case "resumed":
            return f"Resumed the session from the journal ({event.get('events', 0)} events)"
        case "start":
            return "The game starts: press a turn button for the opening roll"
        case "tie":
            return (f"Opening roll {event['white']} and {event['black']}: a tie, roll again"
                    + (f" (the cube is now {event['cube']})" if event.get("cube", 1) > 1 else ""))
        case "opening":
            starts = event["starts"]
            dice = (event["white"], event["black"]) if starts == "white" else (event["black"], event["white"])
            return (f"Opening roll: white {event['white']}, black {event['black']}: "
                    f"{_name(starts)} starts with {dice[0]}{dice[1]}")
        case "roll":
            return f"{_name(player)} rolls {_dice(event['dice'])}"
        case "step":
            hit = "*" if event.get("hit") else ""
            return f"{_name(player)} moves {point_name(player, event['from'])}/{point_name(player, event['to'])}{hit}"
        case "undo":
            return f"{_name(player)} takes back {point_name(player, event['to'])}/{point_name(player, event['from'])}"
        case "rejected":
            if player is None:
                return str(event.get("reason", ""))[:1].upper() + str(event.get("reason", ""))[1:]
            return f"Illegal: {event.get('reason', '')}"
        case "ambiguous":
            return (f"{_name(player)}: the board shows {' or '.join(event.get('candidates', []))}; "
                    "the cube button shows the next, the turn button commits")
        case "play":
            move = event.get("move")
            return f"{_name(player)} plays {move}" if move else f"{_name(player)} cannot move"
        case "double":
            return (f"{_name(player)} doubles to {event['cube']}: "
                    f"{Side.parse(player).opponent.label}, take or drop")
        case "drop_asked":
            return f"{_name(player)}: drop? {event.get('reason', '')}"
        case "drop_cancelled":
            return f"{_name(player)} does not drop: take or drop"
        case "beaver":
            return f"{_name(player)} beavers: the cube is offered at {event['cube']}"
        case "take":
            return f"{_name(player)} takes: the cube is on {event['cube']}"
        case "drop":
            return f"{_name(player)} drops"
        case "game_over":
            score = event.get("score", {})
            points = event.get("points", 1)
            return (f"{_name(event['winner'])} wins {_RESULT.get(event.get('result'), 'the game')}, "
                    f"{points} point{'s' if points != 1 else ''}. "
                    f"Score: white {score.get('white', 0)}, black {score.get('black', 0)}")
        case "match_over":
            score = event.get("score", {})
            return (f"{_name(event['winner'])} wins the match "
                    f"{score.get('white', 0)}-{score.get('black', 0)}")
        case "mismatch":
            parts = []
            if event.get("missing"):
                parts.append(f"put back a checker on {_places(event['missing'])}")
            if event.get("extra"):
                parts.append(f"take away the checker on {_places(event['extra'])}")
            return f"The board does not show the game: {'; '.join(parts) or 'check it'}. Play pauses"
        case "restored":
            return "The board shows the game again: play on"
        case "hint":
            advice = event.get("move") or event.get("advice") or "no play"
            equity = f" (equity {event['equity']:+.3f})" if isinstance(event.get("equity"), int | float) else ""
            return f"Hint for {player}: {advice}{equity}"
        case "computer_play":
            move = event.get("move") or "no play"
            return f"The computer ({player}) plays {move}: move its checkers as the lights show"
        case "computer_cube":
            return f"The computer ({player}): {event.get('decision')}"
    return None


_RESULT = {"single": "a single game", "gammon": "a gammon", "backgammon": "a backgammon"}


def tell(event: dict) -> str:
    """The terminal simulator's line for `event`: its sentence, the `state` and `lights`
    a `show` asks for in words, and JSON for an event without words."""
    kind = event.get("event")
    if kind == "state":
        turn = f", {event['turn']} on turn" if event.get("turn") else ""
        dice = f", dice {_dice(event['dice'])}" if event.get("dice") else ""
        score = event["score"]
        return (f"State: {event['phase']}{turn}{dice}; score white {score['white']}, "
                f"black {score['black']}; Position ID {event['position_id']}, "
                f"Match ID {event['match_id']}")
    if kind == "lights":
        roles = ", ".join(f"{location} {role}" for location, role in event["roles"].items())
        asked = ask(event)
        return f"Lights: {roles or 'none'}" + (f". {asked}" if asked else "")
    return say(event) or json.dumps(event)


def ask(lights: dict) -> str:
    """What a ``lights`` event says the board waits for: "white: turn roll, cube double"."""
    if "asks" not in lights:
        return ""
    side = lights.get("side") or "either player"
    answers = ", ".join(f"{button} = {word}" for button, word in lights["answers"].items())
    return f"{_ASKS[lights['asks']]} ({side}{': ' + answers if answers else ''})"


_ASKS = {
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
}
