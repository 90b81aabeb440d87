"""Printed circuit boards as plain values: parts with their pads, nets, an outline, holes.

`bgpi.hardware.boards` builds the board's three PCBs from the profile with these nouns,
`bgpi.hardware.router` routes them, and ``hardware/kicad/build.py`` (Debian's KiCad,
run by /usr/bin/python3: its ``pcbnew`` module does not load in the venv) turns the JSON
written here into KiCad boards, checks them (DRC) and plots Gerbers and drill files.
Everything here is pure, and the same profile gives the same bytes.

Millimetres throughout; x to the right, y down (KiCad's way), the board's top-left corner
at (0, 0).  Footprints are drawn here already turned, so every part is placed unrotated.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field

from bgpi.hardware.svg import number

TRACK = 0.25
"""Width of every track, mm."""
CLEARANCE = 0.2
"""Copper to copper, mm (any fab's standard)."""
VIA = (0.6, 0.3)
"""Via diameter and drill, mm."""
EDGE = 0.5
"""Copper keeps this far from the board's edge, mm."""


@dataclass(frozen=True)
class Pad:
    """One pad of a footprint, at (x, y) from the part's origin."""

    name: str
    x: float
    y: float
    width: float
    height: float
    drill: float = 0.0
    """0: a surface-mount pad on the top copper; else a plated hole through both layers."""
    shape: str = "circle"
    """"circle", "rect" or "roundrect"."""

    @property
    def through(self) -> bool:
        return self.drill > 0


@dataclass(frozen=True)
class Part:
    """A placed part: reference, value, footprint, what to order, where, its pads."""

    ref: str
    value: str
    footprint: str
    mpn: str
    """Manufacturer and part number ("" for a part ordered by its value alone: none here)."""
    x: float
    y: float
    pads: tuple[Pad, ...]
    outline: tuple[float, float] = (0.0, 0.0)
    """Width and height of the body, drawn on the silkscreen (0: none)."""
    smd: bool = True
    placed: bool = True
    """False for what no machine places (a solder jumper: bridged by hand if at all)."""

    def pad(self, name: str) -> Pad:
        for pad in self.pads:
            if pad.name == name:
                return pad
        raise KeyError(f"{self.ref} has no pad {name}")

    def at(self, name: str) -> tuple[float, float]:
        """Where pad `name` is on the board."""
        pad = self.pad(name)
        return self.x + pad.x, self.y + pad.y


@dataclass(frozen=True)
class Hole:
    """A non-plated mounting hole."""

    x: float
    y: float
    drill: float


@dataclass(frozen=True)
class Label:
    """Text on the top silkscreen."""

    x: float
    y: float
    text: str
    size: float = 1.2


@dataclass
class Board:
    """A PCB before routing: outline, parts, which pads each net joins, holes, text."""

    name: str
    title: str
    width: float
    height: float
    quantity: int
    """Boards of this design on one game board."""
    parts: list[Part] = field(default_factory=list)
    nets: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    """Net name -> (part reference, pad name) of every pad it joins."""
    holes: list[Hole] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)

    def add(self, part: Part) -> Part:
        self.parts.append(part)
        return part

    def connect(self, net: str, *pins: tuple[Part, str]) -> None:
        """Join the pads `pins` ((part, pad name)) to `net`."""
        for part, pad in pins:
            part.pad(pad)  # a KeyError for a pad the part has not
            self.nets.setdefault(net, []).append((part.ref, pad))

    def part(self, ref: str) -> Part:
        for part in self.parts:
            if part.ref == ref:
                return part
        raise KeyError(ref)

    def net_of(self) -> dict[tuple[str, str], str]:
        """(part reference, pad name) -> its net, for every connected pad."""
        return {pin: net for net, pins in self.nets.items() for pin in pins}

    def pins(self, net: str) -> Iterator[tuple[Part, Pad]]:
        for ref, name in self.nets[net]:
            part = self.part(ref)
            yield part, part.pad(name)


@dataclass(frozen=True)
class Track:
    layer: str
    """"F.Cu" or "B.Cu"."""
    start: tuple[float, float]
    end: tuple[float, float]
    net: str


@dataclass(frozen=True)
class Via:
    x: float
    y: float
    net: str


@dataclass
class Routing:
    tracks: list[Track] = field(default_factory=list)
    vias: list[Via] = field(default_factory=list)


def board_json(board: Board, routing: Routing) -> str:
    """The routed `board` as JSON for ``hardware/kicad/build.py``: stable, one line a thing."""
    nets = board.net_of()
    parts = [{
        "ref": part.ref, "value": part.value, "footprint": part.footprint, "x": part.x, "y": part.y,
        "outline": list(part.outline), "smd": part.smd,
        "pads": [{"name": pad.name, "x": pad.x, "y": pad.y, "width": pad.width, "height": pad.height,
                  "drill": pad.drill, "shape": pad.shape, "net": nets.get((part.ref, pad.name), "")}
                 for pad in part.pads],
    } for part in board.parts]
    document: dict[str, object] = {
        "name": board.name, "title": board.title, "width": board.width, "height": board.height,
        "rules": {"track": TRACK, "clearance": CLEARANCE, "via": list(VIA), "edge": EDGE},
        "nets": sorted(board.nets),
        "parts": parts,
        "holes": [[hole.x, hole.y, hole.drill] for hole in board.holes],
        "labels": [[label.x, label.y, label.text, label.size] for label in board.labels],
        "tracks": [[track.layer, *track.start, *track.end, track.net] for track in routing.tracks],
        "vias": [[via.x, via.y, via.net] for via in routing.vias],
    }
    lines = ["{"]
    items = list(document.items())
    for index, (key, value) in enumerate(items):
        comma = "," if index < len(items) - 1 else ""
        if isinstance(value, list) and value and key != "nets":
            body = ",\n".join(f"    {json.dumps(entry)}" for entry in value)
            lines.append(f'  "{key}": [\n{body}\n  ]{comma}')
        else:
            lines.append(f'  "{key}": {json.dumps(value)}{comma}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def bom_csv(board: Board) -> str:
    """The bill of materials of one board: a line per part kind, with its references."""
    groups: dict[tuple[str, str, str], list[str]] = {}
    for part in board.parts:
        groups.setdefault((part.value, part.footprint, part.mpn), []).append(part.ref)
    lines = ["Comment,Designator,Footprint,Quantity,Manufacturer Part Number"]
    for (value, footprint, mpn), refs in sorted(groups.items(), key=lambda item: _ref_key(item[1][0])):
        lines.append(f'"{value}","{",".join(sorted(refs, key=_ref_key))}","{footprint}",{len(refs)},"{mpn}"')
    return "\n".join(lines) + "\n"


def cpl_csv(board: Board) -> str:
    """The placement file an assembly service asks for: every surface-mount part it places,
    top side (KiCad's convention: y up from the board's corner, so negative)."""
    lines = ["Designator,Mid X,Mid Y,Layer,Rotation"]
    for part in sorted((part for part in board.parts if part.smd and part.placed), key=lambda part: _ref_key(part.ref)):
        lines.append(f"{part.ref},{number(part.x)}mm,{number(-part.y)}mm,Top,0")
    return "\n".join(lines) + "\n"


def _ref_key(ref: str) -> tuple[str, int]:
    letters = ref.rstrip("0123456789")
    return letters, int(ref[len(letters):] or 0)
