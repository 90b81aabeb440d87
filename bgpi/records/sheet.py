"""A chouette's score sheet: a row a game and a running total a player, always summing to
zero (docs/chouette.md).

Each row says who was box (and partner) and captain, and for every player who played
the game their cube, their result and why ("gammon", "dropped", "the box resigned a
single game", ...); the totals after it are the ``chouette_over`` event's, the table's
own count.  `sheet_csv` writes it for a spreadsheet (`bgpi export --sheet FILE`).

>>> from bgpi.rules.chouette import LineChange
>>> from bgpi.rules.result import ResultKind
>>> from bgpi.rules.seats import SeatEnd
>>> over = ev.ChouetteOver("Ann", "Bob", {"Bob": 2, "Cat": 1}, {"Bob": ResultKind.GAMMON, "Cat": ResultKind.SINGLE},
...                        {"Bob": SeatEnd.PLAYED, "Cat": SeatEnd.DROPPED}, {"Ann": 3, "Bob": -4, "Cat": 1},
...                        {"Ann": 3, "Bob": -4, "Cat": 1}, played=ResultKind.GAMMON)
>>> log = [ev.NewSession({"chouette": {"players": ["Ann", "Bob", "Cat"]}}),
...        ev.Line(("Ann", "Bob", "Cat"), LineChange.ROLL_OFF), over]
>>> sheet = score_sheet(log)
>>> sheet.rows[0].why, sheet.totals
({'Ann': 'box', 'Bob': 'gammon', 'Cat': 'the box dropped the double'}, {'Ann': 3, 'Bob': -4, 'Cat': 1})
>>> print(sheet_csv(sheet).splitlines()[0])
game,box,captain,partner,Ann cube,Ann result,Ann why,Ann total,Bob cube,Bob result,Bob why,Bob total,...
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass

from bgpi.records.matfile import last_session
from bgpi.rules.result import ResultKind
from bgpi.rules.seats import SeatEnd
from bgpi.table import events as ev


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One game on the sheet: its box, captain and partner; each player's cube (the seats
    of the team), points won (less than 0: lost) and why; the totals after it."""

    game: int
    box: str
    captain: str
    partner: str | None
    cubes: dict[str, int]
    points: dict[str, int]
    why: dict[str, str]
    totals: dict[str, int]

    @classmethod
    def of(cls, game: int, over: ev.ChouetteOver) -> SheetRow:
        """The row of the `game`-th game of the sheet, which `over` ended."""
        return cls(game, over.box, over.captain, over.partner, dict(over.cubes), dict(over.points), _why(over),
                   dict(over.totals))

    def as_json(self) -> dict[str, object]:
        """The row as the page's view holds it."""
        return {"game": self.game, "box": self.box, "captain": self.captain, "partner": self.partner,
                "cubes": dict(self.cubes), "points": dict(self.points), "why": dict(self.why),
                "totals": dict(self.totals)}


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """Every player of the session (in the order they came) and a row a game."""

    players: tuple[str, ...]
    rows: tuple[SheetRow, ...]

    @property
    def totals(self) -> dict[str, int]:
        """Each player's running total after the last game (0 before any)."""
        last = self.rows[-1].totals if self.rows else {}
        return {player: last.get(player, 0) for player in self.players}


def score_sheet(events: Iterable[ev.Event]) -> ScoreSheet:
    """The score sheet of the last session of a table log (a chouette; a session that is
    none gives an empty sheet)."""
    session, played = last_session(events)
    players: list[str] = list(session.config.get("chouette", {}).get("players", [])) if session else []
    rows: list[SheetRow] = []
    for event in played:
        if isinstance(event, ev.Line):
            players += [player for player in event.line if player not in players]
        elif isinstance(event, ev.ChouetteOver):
            rows.append(SheetRow.of(len(rows) + 1, event))
    return ScoreSheet(tuple(players), tuple(rows))


def _why(over: ev.ChouetteOver) -> dict[str, str]:
    """Why each player of the game won or lost what they did, in words."""
    why = {over.box: "box"}
    if over.partner is not None:
        why[over.partner] = "partner"
    for seat, end in over.ends.items():
        won, kind = over.points[seat] > 0, over.results[seat]
        if end is SeatEnd.DROPPED:
            why[seat] = "the box dropped the double" if won else "dropped the box's double"
        elif end is SeatEnd.RESIGNED:
            why[seat] = f"the box resigned {_kind(kind)}" if won else f"resigned {_kind(kind)}"
        elif over.played is not None and kind.multiplier < over.played.multiplier:
            why[seat] = f"{over.played.value}, a single game by the Jacoby rule (the cube not turned)"
        else:
            why[seat] = kind.value
    return why


def _kind(kind: ResultKind) -> str:
    return "a single game" if kind is ResultKind.SINGLE else f"a {kind.value}"


def sheet_csv(sheet: ScoreSheet) -> str:
    """The sheet as CSV: a header, a row a game (each player's cube, result, why and total
    after it; empty where they did not play), and a last row of the totals."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["game", "box", "captain", "partner"]
    for player in sheet.players:
        header += [f"{player} cube", f"{player} result", f"{player} why", f"{player} total"]
    writer.writerow(header)
    for row in sheet.rows:
        cells: list[object] = [row.game, row.box, row.captain, row.partner or ""]
        for player in sheet.players:
            playing = player in row.points
            cells += [row.cubes.get(player, ""), row.points[player] if playing else "",
                      row.why.get(player, ""), row.totals.get(player, "")]
        writer.writerow(cells)
    totals: list[object] = ["total", "", "", ""]
    for player in sheet.players:
        totals += ["", "", "", sheet.totals[player]]
    writer.writerow(totals)
    return out.getvalue()
