"""The table log in words, for the terminal simulator: "White plays 8/5 6/5".

`say` turns one table-log event (docs/board-script.md) into a line a player reads;
`ask` says what the board is waiting for and which buttons answer.  Points are named
in the mover's own count, as players and gnubg's notation count them.
"""

from __future__ import annotations

import json

from bgpi.hardware.locations import Location
from bgpi.rules.position import Side


def say(event: dict) -> str:
    """One line for `event`; an event without words of its own is shown as JSON."""
    kind = event.get("event")
    player = event.get("player")
    who = player.capitalize() if isinstance(player, str) else ""
    saying = _SAYINGS.get(kind)
    if saying is None:
        return json.dumps(event)
    return saying(event, who)


def ask(lights: dict) -> str:
    """What a ``lights`` event says the board waits for: "white: turn roll, cube double"."""
    if "asks" not in lights:
        return ""
    side = lights.get("side") or "either player"
    answers = ", ".join(f"{button} = {word}" for button, word in lights["answers"].items())
    return f"{_ASKS[lights['asks']]} ({side}{': ' + answers if answers else ''})"


def _own(location: Location, player: str) -> str:
    """A location in `player`'s own count: "bar", "off", or the point number."""
    if isinstance(location, str):
        return location.partition(":")[0]
    return str(location if player == "white" else 25 - location)


def _step(event: dict, who: str) -> str:
    player = event["player"]
    hit = "*" if event.get("hit") else ""
    return f"{who}: {_own(event['from'], player)}/{_own(event['to'], player)}{hit}"


def _undo(event: dict, who: str) -> str:
    player = event["player"]
    return f"{who} takes back {_own(event['to'], player)}/{_own(event['from'], player)}"


def _play(event: dict, who: str) -> str:
    dice = "".join(map(str, event["dice"]))
    if not event["move"]:
        return f"{who} cannot play {dice}: the turn passes"
    accepted = " (accepted as made)" if event.get("lenient") else ""
    return f"{who} plays {event['move']}{accepted}"


def _rejected(event: dict, who: str) -> str:
    lit = f" (lit red: {', '.join(map(str, event['points']))})" if event.get("points") else ""
    return f"Illegal: {event['reason']}{lit}" if who else f"{event['reason'].capitalize()}{lit}"


def _score(score: dict) -> str:
    return f"white {score['white']}, black {score['black']}"


def _game_over(event: dict, _who: str) -> str:
    points = event["points"]
    dropped = " (the double was dropped)" if event.get("dropped") else ""
    return (f"{event['winner'].capitalize()} wins a {event['result']}{dropped}: {points} "
            f"point{'s' if points != 1 else ''}. Score: {_score(event['score'])}")


def _mismatch(event: dict, _who: str) -> str:
    parts = []
    if event["missing"]:
        parts.append("put a checker back on " + ", ".join(event["missing"]))
    if event["extra"]:
        parts.append("take one off " + ", ".join(event["extra"]))
    return "The board does not show the game: " + " and ".join(parts) + ". Play is paused"


def _session(event: dict, _who: str) -> str:
    config = event.get("config", {})
    kind = f"a match to {config['match']}" if config.get("match") else "money play"
    if "position_id" in event:
        return f"New session: practice position {event['position_id']}, {event['turn']} to roll"
    return f"New session: {kind}"


def _state(event: dict, _who: str) -> str:
    turn = f", {event['turn']} on turn" if event.get("turn") else ""
    dice = f", dice {''.join(map(str, event['dice']))}" if event.get("dice") else ""
    return (f"State: {event['phase']}{turn}{dice}; score {_score(event['score'])}; "
            f"Position ID {event['position_id']}, Match ID {event['match_id']}")


def _lights(event: dict, _who: str) -> str:
    roles = ", ".join(f"{location} {role}" for location, role in event["roles"].items()) or "none"
    asked = ask(event)
    return f"Lights: {roles}" + (f". {asked}" if asked else "")


_SAYINGS = {
    "session": _session,
    "start": lambda e, w: "The game starts",
    "tie": lambda e, w: f"Opening roll: both {e['white']}: roll again",
    "opening": lambda e, w: (f"Opening roll: white {e['white']}, black {e['black']}: "
                             f"{e['starts']} starts with {max(e['white'], e['black'])}"
                             f"{min(e['white'], e['black'])}"),
    "roll": lambda e, w: f"{w} rolls {''.join(map(str, e['dice']))}",
    "step": _step,
    "undo": _undo,
    "rejected": _rejected,
    "ambiguous": lambda e, w: (f"The switches cannot tell the plays apart: {' or '.join(e['candidates'])}. "
                               f"{w}: cube shows the next, turn commits the one shown"),
    "play": _play,
    "double": lambda e, w: (f"{w} doubles to {e['cube']}: "
                            f"{Side.parse(e['player']).opponent.label}, take or drop"),
    "take": lambda e, w: f"{w} takes: the cube is at {e['cube']}",
    "beaver": lambda e, w: f"{w} beavers: the cube is at {e['cube']}, take or drop",
    "drop_asked": lambda e, w: f"{w}: drop? {e['reason']}",
    "drop_cancelled": lambda e, w: f"{w} does not drop: take or drop",
    "drop": lambda e, w: f"{w} drops",
    "game_over": _game_over,
    "match_over": lambda e, w: f"{e['winner'].capitalize()} wins the match, {_score(e['score'])}",
    "mismatch": _mismatch,
    "restored": lambda e, w: "The board shows the game again: play on",
    "resumed": lambda e, w: f"Resumed the session where it stopped ({e['events']} events)",
    "state": _state,
    "lights": _lights,
}

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
