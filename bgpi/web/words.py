"""The game in words: table-log events as sentences, and the play list of the game.

`say` turns one table-log event (board-script.md) into the sentence the page shows
beside the board ("White plays 8/5 6/5", "Illegal: point 13 is blocked: black holds
it", "Black doubles to 2"); `Story` listens to every event of a session, live or read
back from the journal, and keeps the recent sentences and the current game's plays and
cube actions.  Pure: no clock, no I/O.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from bgpi.hardware.locations import Location

SENTENCES = 40
"""How many recent sentences a `Story` keeps: what fits beside the board."""

PLAY_LIST_EVENTS = ("play", "double", "take", "drop", "beaver")
"""The events the play list of a game shows, as GNU Backgammon's game list does."""


def _name(player: str | None) -> str:
    return player.capitalize() if player else "The board"


def _dice(dice: list[int]) -> str:
    return f"{dice[0]}{dice[1]}"


def own_point(player: str, location: Location) -> str:
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
            return f"{_name(player)} moves {own_point(player, event['from'])}/{own_point(player, event['to'])}{hit}"
        case "undo":
            return f"{_name(player)} takes back {own_point(player, event['to'])}/{own_point(player, event['from'])}"
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
            return f"{_name(player)} doubles to {event['cube']}"
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
    return None


_RESULT = {"single": "a single game", "gammon": "a gammon", "backgammon": "a backgammon"}


@dataclass
class Story:
    """What the page tells beside the board, from the events it has heard.

    `sentences` holds the last `SENTENCES` sentences, oldest first; `plays` the
    current game's play-list events (``play`` and the cube actions) in order, each as
    ``{"player", "kind", "dice", "move", "cube"}`` (dice and move for plays only, cube
    for cube actions only).  A new game (``start``) or session clears the play list.
    """

    sentences: deque[str] = field(default_factory=lambda: deque(maxlen=SENTENCES))
    plays: list[dict] = field(default_factory=list)

    @classmethod
    def of(cls, events) -> Story:
        """The story of `events` so far (a journal read back on resuming)."""
        story = cls()
        for event in events:
            story.hear(event)
        return story

    def hear(self, event: dict) -> None:
        """Take in one table-log event."""
        kind = event.get("event")
        if kind in ("session", "start"):
            self.plays = []
        elif kind in PLAY_LIST_EVENTS:
            entry = {"player": event.get("player"), "kind": kind}
            if kind == "play":
                entry |= {"dice": event.get("dice"), "move": event.get("move", "")}
            else:
                entry["cube"] = event.get("cube")
            self.plays.append(entry)
        sentence = say(event)
        if sentence:
            self.sentences.append(sentence)

    def as_dict(self) -> dict:
        """The story as the page's view holds it (copies: safe to hand to another thread)."""
        return {"words": list(self.sentences), "plays": [dict(entry) for entry in self.plays]}
