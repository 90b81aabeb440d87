"""Write what a fab and a builder need from the profile: ``python -m bgpi.hardware.fab DIR``.

For each PCB of `bgpi.hardware.boards`, into ``DIR/pcb/NAME/``: the routed board as JSON
(``hardware/kicad/build.py`` makes the KiCad project, the DRC report, the Gerbers and the
drill file from it), the bill of materials and the placement file for an assembly
service; and ``DIR/template.pdf``, the drilling and routing template (`bgpi.hardware.template`).
``make hardware`` runs it, then the KiCad build.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bgpi.board.profile import Profile
from bgpi.hardware.boards import boards
from bgpi.hardware.pcb import board_json, bom_csv, cpl_csv
from bgpi.hardware.router import route
from bgpi.hardware.template import template_pdf


def files(profile: Profile) -> dict[str, bytes]:
    """Path under the hardware folder -> contents, for every file written here."""
    written: dict[str, bytes] = {}
    for board in boards(profile):
        folder = f"pcb/{board.name}/{board.name}"
        written[f"{folder}.json"] = board_json(board, route(board)).encode()
        written[f"{folder}-bom.csv"] = bom_csv(board).encode()
        written[f"{folder}-cpl.csv"] = cpl_csv(board).encode()
    written["template.pdf"] = template_pdf(profile)
    return written


def main(argv: list[str]) -> int:
    from bgpi.hardware.profile import load_profile

    if len(argv) != 2:
        print("usage: python -m bgpi.hardware.fab HARDWARE_DIR", file=sys.stderr)
        return 2
    root = Path(argv[1])
    for name, contents in files(load_profile()).items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(contents)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
