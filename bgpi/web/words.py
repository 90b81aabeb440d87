"""The game in words beside the board: the recent sentences and the play list of the game.

The sentences are `bgpi.shell.words.say`'s ("White plays 8/5 6/5", "Illegal: point 13
is blocked: black holds it"), as the terminal simulator says them; `Story` listens to
every event of a session, live or read back from the journal, and keeps the recent
sentences and the current game's plays and cube actions.  Pure: no clock, no I/O.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any

from bgpi.records.sheet import SheetRow
from bgpi.rules.position import Side
from bgpi.rules.result import ResultKind
from bgpi.shell.words import (
    ASKS,  # the board's questions, worded once for terminal and page
    RESULT_WORDS,
    say,
)
from bgpi.table import events as ev

SENTENCES = 40
"""How many recent sentences a `Story` keeps: what fits beside the board."""

PLAY_LIST_EVENTS = (ev.Play, ev.Double, ev.Take, ev.Drop, ev.Beaver)
"""The events the play list of a game shows, as GNU Backgammon's game list does."""


@dataclass
class Story:
    """What the page tells beside the board, from the events it has heard.

    `sentences` holds the last `SENTENCES` sentences, oldest first; `plays` the
    current game's play-list events (``play`` and the cube actions) in order, each as
    ``{"player", "kind", "dice", "move", "cube"}`` (dice and move for plays only, cube
    for cube actions only).  A new game (``start``) or session clears the play list.
    `sheet` holds a chouette's score sheet, a row a game (`SheetRow.as_json`), until a new
    session.
    """

    sentences: deque[str] = field(default_factory=lambda: deque(maxlen=SENTENCES))
    plays: list[dict[str, Any]] = field(default_factory=list)
    sheet: list[dict[str, Any]] = field(default_factory=list)  # a chouette's score sheet, a row a game

    @classmethod
    def of(cls, events: Iterable[ev.Event]) -> Story:
        """The story of `events` so far (a journal read back on resuming)."""
        story = cls()
        for event in events:
            story.hear(event)
        return story

    def hear(self, event: ev.Event) -> None:
        """Take in one table-log event."""
        if isinstance(event, ev.NewSession):
            self.sheet = []
        if isinstance(event, ev.ChouetteOver):
            self.sheet.append(SheetRow.of(len(self.sheet) + 1, event).as_json())
        if isinstance(event, ev.NewSession | ev.Start):
            self.plays = []
        elif isinstance(event, PLAY_LIST_EVENTS):
            entry: dict[str, Any] = {"player": event.player.label, "kind": event.kind}
            if isinstance(event, ev.Play):
                entry |= {"dice": list(event.dice), "move": event.move}
            else:
                entry["cube"] = event.cube
            self.plays.append(entry)
        sentence = say(event)
        if sentence:
            self.sentences.append(sentence)

    def as_dict(self) -> dict[str, Any]:
        """The story as the page's view holds it (copies: safe to hand to another thread)."""
        return {"words": list(self.sentences), "plays": [dict(entry) for entry in self.plays],
                "sheet": [dict(row) for row in self.sheet]}


def button_name(button: str) -> str:
    """A button as its label on the page reads: "white.turn" is "White turn",
    "hold black.cube" is "hold Black cube"."""
    held, _, name = button.rpartition(" ")
    side, _, kind = name.partition(".")
    label = f"{side.capitalize()} {kind}" if kind else side.capitalize()
    return f"{held} {label}" if held else label


def prompt_words(lights: ev.Lights, computers: Collection[Side] = (), resigning: ResultKind | None = None) -> str:
    """What the board waits for, in words a player reads: "White: To move, then commit.
    Press White turn to commit." (from the ``lights`` event's prompt).  A player the
    computer plays (`computers`) is named so, and its play, which it commits itself, asks
    nobody to press anything; what is resigned (`resigning`) and the session the chooser
    shows are named, not left to the dice's pips.

    >>> prompt_words(ev.Lights({}, "new_session", None, {"white.turn": "start it"}, number=3))
    'Choose the next session: a match to 3. Press White turn to start it.'
    """
    if lights.asks is None:
        return ""
    heading = _heading(lights, resigning)
    side = lights.side
    if side is not None and lights.asks not in ("game_over", "match_over"):  # the banner names the winner
        computer = side in computers
        heading = f"{side.label.capitalize()}{' (the computer)' if computer else ''}: {heading}"
        if computer and lights.asks in ("move", "no_play"):
            return (f"{heading} The computer's play shows in blue: move its checkers as the lights show; "
                    "it commits itself.")
        if computer and lights.asks not in ("game_over", "match_over"):
            return f"{heading} The computer decides."
    buttons: dict[str, list[str]] = {}  # the same answer from both players' buttons is said once
    for button, word in lights.answers.items():
        buttons.setdefault(word, []).append(button_name(button))
    presses = [f"{' or '.join(names)} {_purpose(word)}" for word, names in buttons.items()]
    if not presses:
        return heading
    return f"{heading} Press {'; '.join(presses)}."


def _heading(lights: ev.Lights, resigning: ResultKind | None) -> str:
    """The situation as a sentence, naming what the dice's pips show where they show a choice."""
    asks, number = lights.asks, lights.number
    if asks == "new_session" and number is not None:
        return f"Choose the next session: {f'a match to {number}' if number else 'money play'}."
    if asks == "resigning" and resigning is not None:
        return f"Resign {RESULT_WORDS[resigning]} ({_points(number)} at stake)?"
    if asks == "resign_offered" and resigning is not None and lights.side is not None:
        return (f"{lights.side.opponent.label.capitalize()} offers to resign {RESULT_WORDS[resigning]} "
                f"({_points(number)}): accept or decline.")
    heading = ASKS[str(asks)]
    return heading if heading.endswith("?") else f"{heading}."


def _points(number: int | None) -> str:
    return f"{number} point{'' if number == 1 else 's'}"


def _purpose(word: str) -> str:
    """An answer after the button that gives it: "to commit", "for the opening roll"."""
    if word.startswith("new "):
        return f"for a {word}"
    if word.startswith(("opening ", "next ")):
        return f"for the {word}"
    if word.startswith("this "):
        return f"for {word}"
    if word == "back":
        return "to go back"
    if word == "choose session":
        return "to choose a new session"
    return f"to {word}"
