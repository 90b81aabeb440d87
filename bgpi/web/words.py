"""The game in words beside the board: the recent sentences and the play list of the game.

The sentences are `bgpi.shell.words.say`'s ("White plays 8/5 6/5", "Illegal: point 13
is blocked: black holds it"), as the terminal simulator says them; `Story` listens to
every event of a session, live or read back from the journal, and keeps the recent
sentences and the current game's plays and cube actions.  Pure: no clock, no I/O.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from bgpi.records.sheet import SheetRow
from bgpi.shell.words import (
    ASKS,  # the board's questions, worded once for terminal and page
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


def prompt_words(lights: ev.Lights) -> str:
    """What the board waits for, in words a player reads: "White: To move, then commit.
    Press White turn to commit." (from the ``lights`` event's prompt)."""
    if lights.asks is None:
        return ""
    heading = ASKS[lights.asks] + "."
    if lights.side is not None:
        heading = f"{lights.side.label.capitalize()}: {heading}"
    buttons: dict[str, list[str]] = {}  # the same answer from both players' buttons is said once
    for button, word in lights.answers.items():
        buttons.setdefault(word, []).append(button_name(button))
    presses = [f"{' or '.join(names)} {_purpose(word)}" for word, names in buttons.items()]
    if not presses:
        return heading
    return f"{heading} Press {'; '.join(presses)}."


def _purpose(word: str) -> str:
    """An answer after the button that gives it: "to commit", "for the opening roll"."""
    if word.startswith("new "):
        return f"for a {word}"
    if word.startswith(("opening ", "next ")):
        return f"for the {word}"
    if word.startswith("this "):
        return f"for {word}"
    return f"to {word}"
