"""Which reed switches a checker closes, and how often a point is misread: a Monte Carlo.

Run: ``.venv/bin/python benchmarks/sensing.py`` (about a minute; ``--trials N`` for more).

The model (hardware/sensors.md, "The sensing model"):

- **The magnet's field**: magpylib's exact field of a cylinder magnet (a disc magnetised
  through its thickness, lying flat in the checker's underside, the same pole down in
  every checker); the fields of all the checkers on a point add up.
- **The reed**: two soft-iron blades of equal length along the glass, meeting at the
  contact gap in the middle.  Each blade gathers flux along its length, so it takes on
  the mean magnetic potential of the field along it; what pulls the contacts together is
  the potential difference between the two blades (in amperes, i.e. ampere-turns).  In
  the maker's test coil, a coil as long as the blades, a current of N x I ampere-turns
  puts a difference of N x I / 2 between the blades' means; so a magnet "drives" a reed
  with ``AT = 2 x |potential difference| x calibration``, and the reed closes once that
  reaches its pull-in rating (a value somewhere in its ordered band: 10-15 AT, 15-20 AT,
  ...) and opens again below its drop-out (about 0.5-0.8 of the pull-in).
- The dead zone falls out of it: a magnet right above a flat reed's middle gives both
  blades the same potential, so it closes nothing; a reed closes over two lobes, one
  under each blade, which is Standex-Meder's and Littelfuse's published picture of a
  magnet magnetised across the reed.
- ``calibration`` says how far the coil arithmetic is to be trusted (Littelfuse's AN102A:
  "a factor of 2 or more"); the Monte Carlo draws it from 0.7..1.4 for every board, so
  the geometry chosen must work across that range, not at one number.  The arithmetic
  was checked against a published actuation distance (a 10-20 AT 18 mm reed closes at
  11-14.5 mm from a 4 x 10 mm NdFeB rod end on: the model gives 22 AT there).

What it leaves out: the reed's own iron bending the field (the blades are treated as
passive probes), the magnet's tolerance on magnetisation (part of ``calibration``),
checkers on the neighbouring points (44 mm away: their field is under 1 % of a checker's
own at its reeds), tilted checkers and checkers stacked two high (a point with six or
more reads full in any case), the soldered leads' length beyond the glass, and how the
reeds' pull-in spread is distributed inside the band (taken as uniform).

Placements ("spread" s, in mm; marks 40 mm apart, the first 22 mm from the edge):
- ``marks``: 1-5 checkers, each on its mark give or take s (along) and s/2 (across);
- ``stacked``: pushed to the edge and against each other: the first 0..s from the edge,
  each next one touching the one before it or up to s/2 further;
- ``blot``: one checker dropped anywhere on the point (across: s/2);
- ``dropped``: 2-5 checkers dropped anywhere on the point, not overlapping.
A point is misread when the count (the closed slots: both reeds of a slot are wired in
parallel to one channel) differs from the checkers on it.  ``open`` counts the misreads
that read too few: the board then lights that point and asks for a checker to be pushed
onto its mark (legend.md); ``over`` the ones that read too many.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

import magpylib
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bgpi.board.profile import Geometry  # noqa: E402
from bgpi.hardware.profile import load_profile  # noqa: E402

STEP = 0.25
"""mm: the grid the field is sampled on."""
REACH = 80.0
"""mm: how far from a magnet its field is counted."""
POINT_LENGTH = 210.0
CHECKER = 40.0
FIRST_MARK = 22.0
SPREADS = (2.0, 4.0, 6.0, 8.0, 10.0)
CALIBRATION = (0.7, 1.4)
"""The range the coil arithmetic is drawn from, board by board."""


@dataclass(frozen=True)
class Magnet:
    name: str
    diameter: float
    height: float
    polarisation: float
    """Tesla: N35 1.19, N42 1.30 (remanence)."""


@dataclass(frozen=True)
class Reed:
    name: str
    blades: float
    """mm: the soft-iron length the field acts on (glass and the lead stubs beside it)."""
    band: tuple[float, float]
    """Pull-in ampere-turns: the band ordered."""


@dataclass(frozen=True)
class Design:
    name: str
    magnet: Magnet
    reed: Reed
    offsets: tuple[tuple[float, float], ...]
    """Each reed of a slot: (along the point, towards the tip; across), mm from the mark."""
    upright: bool = False
    gap: float = 4.0
    """mm from the magnet's underside to the reed's axis (flat) or its top end (upright)."""
    note: str = ""


N35_10x2 = Magnet("10 x 2 mm N35", 10.0, 2.0, 1.19)
N35_8x2 = Magnet("8 x 2 mm N35", 8.0, 2.0, 1.19)
N35_6x2 = Magnet("6 x 2 mm N35", 6.0, 2.0, 1.19)
N35_10x1 = Magnet("10 x 1 mm N35", 10.0, 1.0, 1.19)
MKA14 = Reed("MKA-14103 10-15 AT", 16.0, (10.0, 15.0))
MDSR7_15 = Reed("MDSR-7-15-20", 15.0, (15.0, 20.0))
MDSR7_20 = Reed("MDSR-7-20-25", 15.0, (20.0, 25.0))
MDSR7_25 = Reed("MDSR-7 25-30 AT", 15.0, (25.0, 30.0))

DESIGNS = (
    Design("before: one flat reed, 6 mm towards the tip", N35_10x2, MKA14, ((6.0, 0.0),),
           note="the drawing issue 30 reviewed"),
    Design("one flat reed, 10 mm towards the edge", N35_8x2, MDSR7_20, ((-10.0, 0.0),)),
    Design("one upright reed under the mark", N35_10x2, MDSR7_15, ((0.0, 0.0),), upright=True, gap=3.5),
)


# -- the field, once per magnet and gap ----------------------------------------------

@dataclass
class Response:
    """A reed's drive (signed potential difference between its blades, A) by the magnet's
    offset from the reed's middle: ``table[across, along]`` on the `STEP` grid."""

    along: np.ndarray
    across: np.ndarray
    table: np.ndarray
    cache: dict[str, np.ndarray] = field(default_factory=dict)

    def drive(self, du: np.ndarray, dv: np.ndarray) -> np.ndarray:
        """Drive at offsets `du` (along), `dv` (across), mm; zero beyond the reach."""
        i = np.clip(np.rint((np.abs(dv) - self.across[0]) / STEP).astype(int), 0, len(self.across) - 1)
        j = np.rint((du - self.along[0]) / STEP).astype(int)
        inside = (j >= 0) & (j < len(self.along)) & (np.abs(dv) <= self.across[-1])
        return np.where(inside, self.table[i, np.clip(j, 0, len(self.along) - 1)], 0.0)


def _mm(values: np.ndarray) -> np.ndarray:
    return values / 1000.0


def flat_response(magnet: Magnet, reed: Reed, gap: float) -> Response:
    """A flat reed along u, its axis `gap` below the magnet's underside."""
    source = magpylib.magnet.Cylinder(polarization=(0, 0, magnet.polarisation),
                                      dimension=(magnet.diameter / 1000, magnet.height / 1000),
                                      position=(0, 0, (gap + magnet.height / 2) / 1000))
    line = np.arange(-REACH - reed.blades, REACH + reed.blades + STEP / 2, STEP)
    across = np.arange(0.0, 24.0 + STEP / 2, STEP)
    half = int(round(reed.blades / 2 / STEP))
    rows = []
    for v in across:
        points = np.column_stack([_mm(line), np.full_like(line, v / 1000), np.zeros_like(line)])
        h_along = source.getH(points)[:, 0]
        potential = -np.cumsum(h_along) * STEP / 1000  # A, zero far away
        mean = np.convolve(potential, np.ones(half) / half, mode="valid")  # blade means
        # A reed centred at line[k]: blade A ends at k, blade B starts at k (the gap is small).
        centre = np.arange(half, len(mean))
        rows.append(mean[centre - half] - mean[centre])
    reed_at = line[half:len(line) - half + 1][: len(rows[0])]
    # The magnet's offset from the reed is minus the reed's offset from the magnet.
    return Response(-reed_at[::-1], across, np.array(rows)[:, ::-1])


def upright_response(magnet: Magnet, reed: Reed, gap: float) -> Response:
    """An upright reed whose top end is `gap` below the magnet's underside (axisymmetric)."""
    source = magpylib.magnet.Cylinder(polarization=(0, 0, magnet.polarisation),
                                      dimension=(magnet.diameter / 1000, magnet.height / 1000),
                                      position=(0, 0, (gap + magnet.height / 2) / 1000))
    depth = np.arange(0.0, reed.blades + STEP / 2, STEP)
    radius = np.arange(0.0, REACH + STEP / 2, STEP)
    half = len(depth) // 2
    drives = []
    for r in radius:
        points = np.column_stack([np.full_like(depth, r / 1000), np.zeros_like(depth), _mm(-depth)])
        h_up = source.getH(points)[:, 2]
        potential = np.cumsum(h_up) * STEP / 1000  # going down: phi rises by H_z dz
        drives.append(potential[:half].mean() - potential[half:].mean())
    drive = np.array(drives)
    along = np.concatenate([-radius[:0:-1], radius])
    across = np.arange(0.0, 24.0 + STEP / 2, STEP)
    table = np.array([np.interp(np.hypot(along, v), radius, drive, right=0.0) for v in across])
    return Response(along, across, table)


# -- a point with checkers on it ------------------------------------------------------

def chosen(geometry: Geometry) -> Design:
    """The profile's geometry (``[geometry] reeds_mm``) with the magnet and reed of the BOM."""
    return Design(f"two flat reeds in parallel at {list(map(list, geometry.reeds_mm))} mm", N35_6x2,
                  MDSR7_15, geometry.reeds_mm, note="chosen: the profile's")


def marks(geometry: Geometry) -> np.ndarray:
    """Checker marks along a point, mm from its outer edge."""
    return np.array([geometry.mark(slot) for slot in range(geometry.point_slots)])


def place(scenario: str, spread: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Checker centres (along, across) on one point for one trial of `scenario`."""
    top = POINT_LENGTH - CHECKER / 2
    if scenario == "marks":
        n = rng.integers(1, 6)
        along = FIRST_MARK + CHECKER * np.arange(n) + rng.normal(0, spread, n)
        along = np.maximum.accumulate(np.maximum(along, 20.0) - CHECKER * np.arange(n)) + CHECKER * np.arange(n)
    elif scenario == "stacked":
        n = rng.integers(1, 6)
        first = 20.0 + abs(rng.normal(0, spread))
        steps = np.concatenate([[first], CHECKER + np.abs(rng.normal(0, spread / 2, n - 1))])
        along = np.cumsum(steps)
    elif scenario == "blot":
        along = rng.uniform(20.0, top, 1)
    else:  # dropped: n checkers anywhere, not overlapping
        n = rng.integers(2, 6)
        free = top - 20.0 - (n - 1) * CHECKER
        along = 20.0 + np.sort(rng.uniform(0.0, free, n)) + CHECKER * np.arange(n)
    along = along[along <= top + 1e-9]
    across = np.clip(rng.normal(0, spread / 2, len(along)), -12.0, 12.0)
    return along, across


@dataclass
class Tally:
    trials: int = 0
    wrong: int = 0
    under: int = 0

    def rate(self) -> str:
        return f"{100 * self.wrong / self.trials:5.2f} %"


def simulate(design: Design, responses: dict[float, Response], geometry: Geometry, scenario: str,
             spread: float, trials: int, rng: np.random.Generator) -> Tally:
    """Misreads of one point over `trials` placements."""
    tally = Tally()
    gaps = sorted(responses)
    reeds = [(mark + du, dv) for mark in marks(geometry) for du, dv in design.offsets]
    per_slot = len(design.offsets)
    low, high = design.reed.band
    for _ in range(trials):
        along, across = place(scenario, spread, rng)
        if not len(along):
            continue
        # One board: its surface thickness, the calibration, each reed's pull-in in the band.
        response = responses[gaps[rng.integers(len(gaps))]]
        calibration = np.exp(rng.uniform(*np.log(CALIBRATION)))
        pull_in = rng.uniform(low, high, len(reeds))
        drive = np.array([response.drive(along - u, across - v).sum() for u, v in reeds])
        closed = (2 * np.abs(drive) * calibration >= pull_in).reshape(-1, per_slot).any(axis=1)
        count = int(closed.sum())
        tally.trials += 1
        if count != len(along):
            tally.wrong += 1
            tally.under += count < len(along)
    return tally


def zone(design: Design, response: Response) -> None:
    """Print where a lone checker (on the centre line) closes its slot, mm from the mark,
    for the least and the most sensitive reed of the band at the ends of the calibration."""
    du = np.arange(-40.0, 40.0 + STEP / 2, STEP)
    drives = [2 * np.abs(response.drive(du - u, np.zeros_like(du) - v)) for u, v in design.offsets]
    low, high = design.reed.band
    for label, scale in (("least sensitive", high / CALIBRATION[0]), ("most sensitive", low / CALIBRATION[1])):
        closes = np.any([drive >= scale for drive in drives], axis=0)
        edges = np.flatnonzero(np.diff(np.concatenate([[0], closes.astype(int), [0]])))
        runs = [f"{du[a]:+.1f}..{du[b - 1]:+.1f}" for a, b in zip(edges[::2], edges[1::2], strict=True)]
        print(f"    closes ({label}): {', '.join(runs) or 'nowhere'} mm from the mark")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=1500, help="placements per scenario and spread")
    parser.add_argument("--seed", type=int, default=30)
    args = parser.parse_args()
    geometry = load_profile().geometry
    if (geometry.pitch_mm, geometry.first_mark_mm) != (CHECKER, FIRST_MARK):
        raise SystemExit("the model places 40 mm checkers on marks 40 mm apart from 22 mm")
    print(f"Points {POINT_LENGTH:g} mm long, checkers {CHECKER:g} mm, marks every {CHECKER:g} mm from "
          f"{FIRST_MARK:g} mm; {args.trials} placements per cell; misread rate (of them: reading too few)")
    for design in (*DESIGNS, chosen(geometry)):
        make = upright_response if design.upright else flat_response
        gaps = (design.gap - 0.5, design.gap, design.gap + 0.5)
        responses = {gap: make(design.magnet, design.reed, gap) for gap in gaps}
        print(f"\n{design.name} ({design.note or 'considered'}): {design.magnet.name}, {design.reed.name}, "
              f"{'top end' if design.upright else 'axis'} {design.gap:g} mm under the magnet")
        zone(design, responses[design.gap])
        rng = np.random.default_rng(args.seed)
        print("    spread " + "".join(f"{s:>20}" for s in ("marks", "stacked", "blot", "dropped")))
        for spread in SPREADS:
            cells = []
            for scenario in ("marks", "stacked", "blot", "dropped"):
                tally = simulate(design, responses, geometry, scenario, spread, args.trials, rng)
                cells.append(f"{tally.rate()} ({100 * tally.under / tally.trials:4.1f})")
            print(f"    {spread:4g} mm" + "".join(f"{cell:>20}" for cell in cells))


if __name__ == "__main__":
    main()
