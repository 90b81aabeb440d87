"""A small two-layer maze router for the boards of `bgpi.hardware.boards`.

Tracks run on a 0.254 mm grid (a hundredth of an inch: header pins and SOIC pins fall on
it), horizontally and vertically, on the top and bottom copper; a via joins the layers.
Nets are routed one after another (each new pad joined to the tree of its net so far, A*
over the grid), every cell keeping the clearance to the pads, tracks and vias of other
nets that `bgpi.hardware.pcb` asks for: a track's cell keeps other nets out of its eight
neighbours, a pad or a via out of every cell nearer than its size plus the clearance.
KiCad's DRC checks the result again (hardware/kicad/build.py).  Pure and deterministic:
the same board routes the same way.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable

from bgpi.exc import BgpiError
from bgpi.hardware.pcb import CLEARANCE, EDGE, TRACK, VIA, Board, Pad, Part, Routing, Track, Via

GRID = 0.254
LAYERS = ("F.Cu", "B.Cu")
VIA_COST = 30
TURN_COST = 1
AGAINST = 4
"""Cost of a step against a layer's way: the top copper runs across (x), the bottom along
(y), so that the tracks of one layer seldom wall in the pads of the other."""

Cell = tuple[int, int, int]
"""(layer, column, row)."""


class RoutingError(BgpiError, RuntimeError):
    """A net could not be routed on the board as placed."""


class Grid:
    """Which net may use each cell of each layer."""

    def __init__(self, board: Board) -> None:
        self.columns = int(board.width / GRID) + 1
        self.rows = int(board.height / GRID) + 1
        self.board = board
        # owner[layer][row * columns + column]: "" free, a net's name, or "#" blocked for all.
        self.owner = [[""] * (self.columns * self.rows) for _ in LAYERS]
        self.near_track: list[dict[int, set[str]]] = [{} for _ in LAYERS]
        # keep_out[layer][index]: the nets whose copper is too near for any other net's track.
        self.keep_out: list[dict[int, set[str]]] = [{} for _ in LAYERS]
        margin = EDGE + TRACK / 2
        inside = [margin <= self.point(column, 0)[0] <= board.width - margin for column in range(self.columns)]
        for layer in range(len(LAYERS)):
            for row in range(self.rows):
                y = self.point(0, row)[1]
                row_inside = margin <= y <= board.height - margin
                for column in range(self.columns):
                    if not (row_inside and inside[column]):
                        self.owner[layer][row * self.columns + column] = "#"
        nets = board.net_of()
        for part in board.parts:
            for pad in part.pads:
                self._pad(part, pad, nets.get((part.ref, pad.name), ""))
        for hole in board.holes:
            for layer in range(len(LAYERS)):
                self._block_near(layer, hole.x, hole.y, hole.drill / 2 + 0.5, hole.drill / 2 + 0.5, "")

    def point(self, column: int, row: int) -> tuple[float, float]:
        return column * GRID, row * GRID

    def cell(self, x: float, y: float) -> tuple[int, int]:
        return round(x / GRID), round(y / GRID)

    def _pad(self, part: Part, pad: Pad, net: str) -> None:
        x, y = part.x + pad.x, part.y + pad.y
        layers = range(len(LAYERS)) if pad.through else (0,)
        for layer in layers:
            self._block_near(layer, x, y, pad.width / 2, pad.height / 2, net)
            # The pad's own cells belong to its net.
            for column, row in self._cells_within(x, y, pad.width / 2 - 0.05, pad.height / 2 - 0.05,
                                                  pad.shape == "circle"):
                if net and self.owner[layer][row * self.columns + column] != "#":
                    self.owner[layer][row * self.columns + column] = net

    def _cells_within(self, x: float, y: float, half_w: float, half_h: float,
                      round_: bool = False) -> Iterable[tuple[int, int]]:
        """The cells inside a rectangle (an ellipse if `round_`) centred on (x, y)."""
        columns = range(max(0, math.floor((x - half_w) / GRID)), min(self.columns, math.ceil((x + half_w) / GRID) + 1))
        rows = range(max(0, math.floor((y - half_h) / GRID)), min(self.rows, math.ceil((y + half_h) / GRID) + 1))
        for column in columns:
            for row in rows:
                cx, cy = self.point(column, row)
                if round_:
                    if ((cx - x) / half_w) ** 2 + ((cy - y) / half_h) ** 2 <= 1 + 1e-9:
                        yield column, row
                elif abs(cx - x) <= half_w + 1e-9 and abs(cy - y) <= half_h + 1e-9:
                    yield column, row

    def _block_near(self, layer: int, x: float, y: float, half_w: float, half_h: float, net: str) -> None:
        """Keep tracks of nets other than `net` out of reach of a copper rectangle."""
        reach = CLEARANCE + TRACK / 2 + 0.01
        for column, row in self._cells_within(x, y, half_w + reach, half_h + reach):
            cx, cy = self.point(column, row)
            dx, dy = max(abs(cx - x) - half_w, 0.0), max(abs(cy - y) - half_h, 0.0)
            if math.hypot(dx, dy) < reach:
                self.keep_out[layer].setdefault(row * self.columns + column, set()).add(net)

    def free(self, layer: int, column: int, row: int, net: str) -> bool:
        index = row * self.columns + column
        owner = self.owner[layer][index]
        if owner == "#" or (owner and owner != net):
            return False
        return (all(other == net for other in self.keep_out[layer].get(index, ()))
                and all(other == net for other in self.near_track[layer].get(index, ())))

    VIA_REACH = tuple((dc, dr) for dc in range(-3, 4) for dr in range(-3, 4)
                      if math.hypot(dc, dr) * GRID < VIA[0] / 2 + CLEARANCE + TRACK / 2)
    """Cells a via's ring is too near for another net's track."""

    def via_free(self, column: int, row: int, net: str) -> bool:
        """A via fits here: its ring keeps the clearance to everything of other nets."""
        for layer in range(len(LAYERS)):
            for dc, dr in self.VIA_REACH:
                c, r = column + dc, row + dr
                if not (0 <= c < self.columns and 0 <= r < self.rows) or not self.free(layer, c, r, net):
                    return False
        return True

    def take(self, layer: int, column: int, row: int, net: str) -> None:
        """A track of `net` through this cell: its neighbours are too near for other nets."""
        self.owner[layer][row * self.columns + column] = net
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                c, r = column + dc, row + dr
                if 0 <= c < self.columns and 0 <= r < self.rows:
                    self.near_track[layer].setdefault(r * self.columns + c, set()).add(net)

    def take_via(self, column: int, row: int, net: str) -> None:
        x, y = self.point(column, row)
        for layer in range(len(LAYERS)):
            self.take(layer, column, row, net)
            self._block_near(layer, x, y, VIA[0] / 2, VIA[0] / 2, net)


ATTEMPTS = 40
"""Orders tried: a net that finds no way is routed first the next time."""


def route(board: Board) -> Routing:
    """Every net of `board` routed; RoutingError naming the net that still finds no way
    after `ATTEMPTS` orders (the first: the nets with fewest pads first)."""
    order = sorted(board.nets, key=lambda net: (len(board.nets[net]), net))
    for _ in range(ATTEMPTS):
        try:
            return _route(board, order)
        except RoutingError as error:
            failed = error.args[1]
            if failed not in board.nets:  # not a net that finds no way: no order helps
                raise
            order = [failed, *(net for net in order if net != failed)]
    raise RoutingError(f"{board.name}: no way for net {order[0]} in {ATTEMPTS} tries", order[0])


def _route(board: Board, order: list[str]) -> Routing:
    grid = Grid(board)
    routing = Routing()
    runs: list[Run] = []
    for net in order:
        pins = list(board.pins(net))
        tree: set[Cell] = set()
        for index, (part, pad) in enumerate(pins):
            starts = _pad_cells(grid, part, pad)
            if index == 0:
                tree |= starts
                continue
            path = _search(grid, net, starts, tree)
            if path is None:
                raise RoutingError(f"{board.name}: no way for net {net} to {part.ref} pad {pad.name}", net)
            _lay(grid, routing, runs, net, path, part, pad)
            tree |= set(path) | starts
    routing.tracks += _tracks(grid, runs, routing.vias)
    return routing


def _pad_cells(grid: Grid, part: Part, pad: Pad) -> set[Cell]:
    x, y = part.x + pad.x, part.y + pad.y
    layers = range(len(LAYERS)) if pad.through else (0,)
    cells = {(layer, column, row) for layer in layers
             for column, row in grid._cells_within(x, y, pad.width / 2 - 0.05, pad.height / 2 - 0.05,
                                                   pad.shape == "circle")}
    if not cells:
        raise RoutingError(f"{part.ref} pad {pad.name} is off the board or smaller than the routing grid", "")
    return cells


def _search(grid: Grid, net: str, starts: set[Cell], goals: set[Cell]) -> list[Cell] | None:
    """A cheap path from a start cell to a goal cell (A* towards the goal cell nearest
    the start: the tree may be large), or None."""
    _, sc, sr = min(starts)
    _, tc, tr = min(goals, key=lambda goal: (abs(goal[1] - sc) + abs(goal[2] - sr), goal))

    def estimate(column: int, row: int) -> float:
        return abs(column - tc) + abs(row - tr)
    frontier: list[tuple[float, int, Cell, int]] = []
    came: dict[Cell, Cell | None] = {}
    cost: dict[Cell, float] = {}
    counter = 0
    for start in sorted(starts):
        cost[start] = 0.0
        came[start] = None
        heapq.heappush(frontier, (estimate(start[1], start[2]), counter, start, -1))
        counter += 1
    while frontier:
        _, _, cell, direction = heapq.heappop(frontier)
        if cell in goals:
            path = [cell]
            while (previous := came[path[-1]]) is not None:
                path.append(previous)
            return path[::-1]
        layer, column, row = cell
        steps: list[tuple[Cell, float, int]] = []
        for move, (dc, dr) in enumerate(((1, 0), (-1, 0), (0, 1), (0, -1))):
            c, r = column + dc, row + dr
            if 0 <= c < grid.columns and 0 <= r < grid.rows and grid.free(layer, c, r, net):
                against = (move >= 2) == (layer == 0)
                turn = TURN_COST if direction not in (-1, move) else 0
                steps.append(((layer, c, r), (AGAINST if against else 1) + turn, move))
        other = 1 - layer
        if grid.via_free(column, row, net):
            steps.append(((other, column, row), VIA_COST, -1))
        for neighbour, step, move in steps:
            new = cost[cell] + step
            if new < cost.get(neighbour, math.inf):
                cost[neighbour] = new
                came[neighbour] = cell
                heapq.heappush(frontier, (new + estimate(neighbour[1], neighbour[2]), counter, neighbour, move))
                counter += 1
    return None


Run = tuple[int, str, list[tuple[int, int]]]
"""A straight stretch of track: layer, net, its cells in order."""


def _lay(grid: Grid, routing: Routing, runs: list[Run], net: str, path: list[Cell], part: Part, pad: Pad) -> None:
    """Take a path's cells, and note its straight runs and vias; a track joins the pad's
    centre to the path's first cell."""
    for layer, column, row in path:
        grid.take(layer, column, row, net)
    start = path[0]
    centre = (part.x + pad.x, part.y + pad.y)
    first = grid.point(start[1], start[2])
    if first != centre:
        routing.tracks.append(Track(LAYERS[start[0]], centre, first, net))
    run: list[tuple[int, int]] = [start[1:]]
    layer = start[0]
    for cell in path[1:]:
        if cell[0] != layer:  # a via
            runs.append((layer, net, run))
            grid.take_via(cell[1], cell[2], net)
            routing.vias.append(Via(*grid.point(cell[1], cell[2]), net))
            layer, run = cell[0], [cell[1:]]
            continue
        if len(run) >= 2 and (run[-1][0] - run[-2][0], run[-1][1] - run[-2][1]) != (cell[1] - run[-1][0],
                                                                                     cell[2] - run[-1][1]):
            runs.append((layer, net, run))
            run = [run[-1]]
        run.append(cell[1:])
    runs.append((layer, net, run))


def _tracks(grid: Grid, runs: list[Run], vias: list[Via]) -> list[Track]:
    """The runs as tracks, each split where another track of its net ends on it or a via
    stands on it: KiCad joins tracks at their ends only."""
    ends: set[tuple[int, int, int]] = set()
    for layer, _, cells in runs:
        ends |= {(layer, *cells[0]), (layer, *cells[-1])}
    for via in vias:
        column, row = grid.cell(via.x, via.y)
        ends |= {(layer, column, row) for layer in range(len(LAYERS))}
    tracks = []
    for layer, net, cells in runs:
        if len(cells) < 2:
            continue
        begin = 0
        for index in range(1, len(cells)):
            if index == len(cells) - 1 or (layer, *cells[index]) in ends:
                tracks.append(Track(LAYERS[layer], grid.point(*cells[begin]), grid.point(*cells[index]), net))
                begin = index
    return tracks
