"""Turn the routed boards of hardware/pcb/*/ into KiCad projects, check them, plot them.

Run by Debian's own interpreter, which has KiCad's ``pcbnew`` module (``make hardware``
does it; the project's venv cannot import it):

    /usr/bin/python3 hardware/kicad/build.py hardware/pcb [BOARD ...]

For each board ``NAME`` (its ``NAME.json`` written by ``bgpi diag pcb``) it writes
``NAME.kicad_pcb`` and ``NAME.kicad_pro``, KiCad's DRC report ``NAME-drc.rpt``, the
Gerbers and the Excellon drill file in ``gerbers/`` and a picture of the board,
``NAME.png``.  It exits 1 if the DRC finds a violation or an unconnected pad.  Dates are
taken out of what it writes and KiCad's ids come from a seeded generator, so that an
unchanged board gives the same bytes (tests/hardware/test_pcb.py rebuilds them and
compares).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pcbnew
from PIL import Image, ImageDraw

MM = pcbnew.FromMM
LAYERS = {"F.Cu": pcbnew.F_Cu, "B.Cu": pcbnew.B_Cu}
GERBER_LAYERS = (
    ("F_Cu", pcbnew.F_Cu), ("B_Cu", pcbnew.B_Cu), ("F_Mask", pcbnew.F_Mask), ("B_Mask", pcbnew.B_Mask),
    ("F_Paste", pcbnew.F_Paste), ("F_Silkscreen", pcbnew.F_SilkS), ("Edge_Cuts", pcbnew.Edge_Cuts),
)
SHAPES = {"circle": pcbnew.PAD_SHAPE_CIRCLE, "rect": pcbnew.PAD_SHAPE_RECT, "roundrect": pcbnew.PAD_SHAPE_ROUNDRECT}


def point(x: float, y: float) -> pcbnew.wxPoint:
    return pcbnew.wxPoint(MM(x), MM(y))


def build(description: dict) -> pcbnew.BOARD:
    """A KiCad board from the JSON of `bgpi.hardware.pcb.board_json`."""
    # KiCad orders what it saves by the items' ids: ids from a seeded generator keep the
    # same board's file the same.
    pcbnew.KIID.SeedGenerator(30)
    board = pcbnew.BOARD()
    rules = description["rules"]
    settings = board.GetDesignSettings()
    settings.m_TrackMinWidth = MM(rules["track"])
    settings.m_MinClearance = MM(rules["clearance"])
    settings.m_CopperEdgeClearance = MM(rules["edge"] - 0.1)
    settings.m_ViasMinSize = MM(rules["via"][0])
    settings.m_MinThroughDrill = MM(rules["via"][1])
    settings.m_HoleClearance = MM(0.2)
    settings.m_HoleToHoleMin = MM(0.25)
    settings.SetCustomTrackWidth(MM(rules["track"]))
    nets = {}
    for name in description["nets"]:
        net = pcbnew.NETINFO_ITEM(board, name)
        board.Add(net)
        nets[name] = net
    width, height = description["width"], description["height"]
    corners = [(0, 0), (width, 0), (width, height), (0, height)]
    for (x1, y1), (x2, y2) in zip(corners, corners[1:] + corners[:1], strict=True):
        edge = pcbnew.PCB_SHAPE(board)
        edge.SetShape(pcbnew.SHAPE_T_SEGMENT)
        edge.SetStart(point(x1, y1))
        edge.SetEnd(point(x2, y2))
        edge.SetLayer(pcbnew.Edge_Cuts)
        edge.SetWidth(MM(0.1))
        board.Add(edge)
    for part in description["parts"]:
        board.Add(footprint(board, part, nets))
    for number, (x, y, drill) in enumerate(description["holes"], start=1):
        board.Add(hole(board, f"H{number}", x, y, drill))
    for x, y, text, size in description["labels"]:
        label = pcbnew.PCB_TEXT(board)
        label.SetText(text)
        label.SetPosition(point(x, y))
        label.SetLayer(pcbnew.F_SilkS)
        label.SetTextSize(pcbnew.wxSize(MM(size), MM(size)))
        label.SetTextThickness(MM(size * 0.15))
        board.Add(label)
    for layer, x1, y1, x2, y2, net in description["tracks"]:
        track = pcbnew.PCB_TRACK(board)
        track.SetStart(point(x1, y1))
        track.SetEnd(point(x2, y2))
        track.SetWidth(MM(rules["track"]))
        track.SetLayer(LAYERS[layer])
        track.SetNet(nets[net])
        board.Add(track)
    for x, y, net in description["vias"]:
        via = pcbnew.PCB_VIA(board)
        via.SetPosition(point(x, y))
        via.SetWidth(MM(rules["via"][0]))
        via.SetDrill(MM(rules["via"][1]))
        via.SetLayerPair(pcbnew.F_Cu, pcbnew.B_Cu)
        via.SetNet(nets[net])
        board.Add(via)
    return board


def footprint(board: pcbnew.BOARD, part: dict, nets: dict) -> pcbnew.FOOTPRINT:
    module = pcbnew.FOOTPRINT(board)
    module.SetFPID(pcbnew.LIB_ID("bgpi", part["footprint"]))
    module.SetReference(part["ref"])
    module.SetValue(part["value"])
    module.SetPosition(point(part["x"], part["y"]))
    module.SetAttributes(pcbnew.FP_SMD if part["smd"] else pcbnew.FP_THROUGH_HOLE)
    width, height = part["outline"]
    above = part["y"] - height / 2 - 1.0
    module.Reference().SetPosition(point(part["x"], above if above > 1.5 else part["y"] + height / 2 + 1.0))
    module.Reference().SetTextSize(pcbnew.wxSize(MM(0.9), MM(0.9)))
    module.Reference().SetTextThickness(MM(0.14))
    module.Value().SetVisible(False)
    for pad_data in part["pads"]:
        pad = pcbnew.PAD(module)
        pad.SetName(pad_data["name"])
        pad.SetShape(SHAPES[pad_data["shape"]])
        pad.SetSize(pcbnew.wxSize(MM(pad_data["width"]), MM(pad_data["height"])))
        if pad_data["drill"]:
            pad.SetAttribute(pcbnew.PAD_ATTRIB_PTH)
            pad.SetDrillSize(pcbnew.wxSize(MM(pad_data["drill"]), MM(pad_data["drill"])))
            pad.SetLayerSet(pad.PTHMask())
        else:
            pad.SetAttribute(pcbnew.PAD_ATTRIB_SMD)
            pad.SetLayerSet(pad.SMDMask())
        pad.SetPos0(point(pad_data["x"], pad_data["y"]))
        pad.SetPosition(point(part["x"] + pad_data["x"], part["y"] + pad_data["y"]))
        if pad_data["net"]:
            pad.SetNet(nets[pad_data["net"]])
        module.Add(pad)
    if width and height:
        # The body on the fabrication layer, the courtyard a little round it.
        for layer, grow, line_width in ((pcbnew.F_Fab, 0.0, 0.1), (pcbnew.F_CrtYd, 0.5, 0.05)):
            for (x1, y1), (x2, y2) in _rectangle(width + grow, height + grow):
                line = pcbnew.FP_SHAPE(module)
                line.SetShape(pcbnew.SHAPE_T_SEGMENT)
                line.SetStart0(point(x1, y1))
                line.SetEnd0(point(x2, y2))
                line.SetLayer(layer)
                line.SetWidth(MM(line_width))
                module.Add(line)
        module.SetPosition(point(part["x"], part["y"]))
    return module


def _rectangle(width: float, height: float) -> list:
    w, h = width / 2, height / 2
    corners = [(-w, -h), (w, -h), (w, h), (-w, h)]
    return list(zip(corners, corners[1:] + corners[:1], strict=True))


def hole(board: pcbnew.BOARD, ref: str, x: float, y: float, drill: float) -> pcbnew.FOOTPRINT:
    module = pcbnew.FOOTPRINT(board)
    module.SetFPID(pcbnew.LIB_ID("bgpi", f"MountingHole_{drill}mm"))
    module.SetReference(ref)
    module.Reference().SetVisible(False)
    module.Value().SetVisible(False)
    module.SetPosition(point(x, y))
    module.SetAttributes(pcbnew.FP_EXCLUDE_FROM_POS_FILES | pcbnew.FP_EXCLUDE_FROM_BOM)
    pad = pcbnew.PAD(module)
    pad.SetAttribute(pcbnew.PAD_ATTRIB_NPTH)
    pad.SetShape(pcbnew.PAD_SHAPE_CIRCLE)
    pad.SetSize(pcbnew.wxSize(MM(drill), MM(drill)))
    pad.SetDrillSize(pcbnew.wxSize(MM(drill), MM(drill)))
    pad.SetLayerSet(pad.UnplatedHoleMask())
    pad.SetPosition(point(x, y))
    module.Add(pad)
    return module


def drc(board_file: Path, report: Path) -> tuple[int, int]:
    """(violations, unconnected pads) by KiCad's own check of the saved board."""
    board = pcbnew.LoadBoard(str(board_file))
    pcbnew.WriteDRCReport(board, str(report), pcbnew.EDA_UNITS_MILLIMETRES, True)
    text = report.read_text()
    found = [int(re.search(rf"\*\* Found (\d+) {what}", text).group(1)) for what in ("DRC violations",
                                                                                    "unconnected pads")]
    # The report's first lines name the file's path and the time: neither belongs in a diff.
    lines = [line for line in text.splitlines() if not line.startswith(("** Drc report for", "** Created on"))]
    report.write_text("\n".join(lines) + "\n")
    return found[0], found[1]


def plot(board_file: Path, out: Path) -> None:
    """Gerbers of every layer a fab needs and the drill file, in `out`."""
    board = pcbnew.LoadBoard(str(board_file))
    out.mkdir(exist_ok=True)
    controller = pcbnew.PLOT_CONTROLLER(board)
    options = controller.GetPlotOptions()
    options.SetOutputDirectory(str(out))
    options.SetUseGerberAttributes(False)
    options.SetUseGerberX2format(False)
    options.SetIncludeGerberNetlistInfo(False)
    options.SetCreateGerberJobFile(False)
    options.SetExcludeEdgeLayer(True)
    options.SetPlotFrameRef(False)
    options.SetUseAuxOrigin(False)
    options.SetSubtractMaskFromSilk(True)
    for name, layer in GERBER_LAYERS:
        controller.SetLayer(layer)
        controller.OpenPlotfile(name, pcbnew.PLOT_FORMAT_GERBER, name)
        controller.PlotLayer()
    controller.ClosePlot()
    writer = pcbnew.EXCELLON_WRITER(board)
    writer.SetOptions(False, False, pcbnew.wxPoint(0, 0), True)
    writer.SetFormat(True)
    writer.CreateDrillandMapFilesSet(str(out), True, False)
    for path in sorted(out.iterdir()):
        lines = [line for line in path.read_text().splitlines()
                 if "CreationDate" not in line and not line.startswith(("G04 Created by", "; DRILL file",
                                                                        "; FORMAT", ";CreationDate"))]
        path.write_text("\n".join(lines) + "\n")


def render(board_file: Path, picture: Path, scale: float) -> None:
    """The board from above: copper top red, bottom blue, pads, holes, silkscreen outlines."""
    board = pcbnew.LoadBoard(str(board_file))
    box = board.GetBoardEdgesBoundingBox()
    width, height = pcbnew.ToMM(box.GetWidth()), pcbnew.ToMM(box.GetHeight())
    image = Image.new("RGB", (int(width * scale) + 20, int(height * scale) + 20), (18, 70, 40))
    draw = ImageDraw.Draw(image)

    def at(x: int, y: int) -> tuple[float, float]:
        return 10 + pcbnew.ToMM(x) * scale, 10 + pcbnew.ToMM(y) * scale

    draw.rectangle([at(0, 0), at(box.GetWidth(), box.GetHeight())], fill=(30, 110, 60), outline=(230, 230, 120))
    for track in board.GetTracks():
        if track.GetClass() == "PCB_VIA":
            continue
        colour = (200, 60, 50) if track.GetLayer() == pcbnew.F_Cu else (60, 110, 220)
        draw.line([at(track.GetStart().x, track.GetStart().y), at(track.GetEnd().x, track.GetEnd().y)], fill=colour,
                  width=max(1, int(pcbnew.ToMM(track.GetWidth()) * scale)))
    for module in board.GetFootprints():
        for item in module.GraphicalItems():
            if item.GetLayer() == pcbnew.F_Fab and isinstance(item, pcbnew.FP_SHAPE):
                draw.line([at(item.GetStart().x, item.GetStart().y), at(item.GetEnd().x, item.GetEnd().y)],
                          fill=(240, 240, 240), width=1)
        for pad in module.Pads():
            x, y = pad.GetPosition().x, pad.GetPosition().y
            w, h = pad.GetSize().x / 2, pad.GetSize().y / 2
            box_ = [at(x - w, y - h), at(x + w, y + h)]
            if pad.GetAttribute() == pcbnew.PAD_ATTRIB_NPTH:
                draw.ellipse(box_, fill=(0, 0, 0))
                continue
            colour = (215, 180, 80)
            if pad.GetShape() == pcbnew.PAD_SHAPE_CIRCLE:
                draw.ellipse(box_, fill=colour)
            else:
                draw.rectangle(box_, fill=colour)
            if pad.GetDrillSize().x:
                r = pad.GetDrillSize().x / 2
                draw.ellipse([at(x - r, y - r), at(x + r, y + r)], fill=(20, 20, 20))
        reference = module.Reference()
        if reference.IsVisible():
            draw.text(at(reference.GetPosition().x, reference.GetPosition().y), reference.GetText(),
                      fill=(255, 255, 255))
    for track in board.GetTracks():
        if track.GetClass() == "PCB_VIA":
            r = track.GetWidth() / 2
            x, y = track.GetPosition().x, track.GetPosition().y
            draw.ellipse([at(x - r, y - r), at(x + r, y + r)], fill=(215, 180, 80))
    for drawing in board.GetDrawings():
        if isinstance(drawing, pcbnew.PCB_TEXT):
            draw.text(at(drawing.GetPosition().x, drawing.GetPosition().y), drawing.GetText(), fill=(255, 255, 255))
    image.save(picture, optimize=True)


def project(name: str) -> str:
    return json.dumps({"board": {"design_settings": {}}, "meta": {"filename": f"{name}.kicad_pro", "version": 1},
                       "pcbnew": {"page_layout_descr_file": ""}}, indent=2) + "\n"


def main(argv: list[str]) -> int:
    root = Path(argv[1]).resolve()  # pcbnew puts relative plot paths beside the board
    names = argv[2:] or sorted(path.name for path in root.iterdir() if (path / f"{path.name}.json").exists())
    failed = False
    for name in names:
        folder = root / name
        description = json.loads((folder / f"{name}.json").read_text())
        board_file = folder / f"{name}.kicad_pcb"
        pcbnew.SaveBoard(str(board_file), build(description))
        (folder / f"{name}.kicad_prl").unlink(missing_ok=True)  # the editor's local view settings
        (folder / f"{name}.kicad_pro").write_text(project(name))
        violations, unconnected = drc(board_file, folder / f"{name}-drc.rpt")
        plot(board_file, folder / "gerbers")
        scale = 12.0 if description["width"] < 100 else 4.0
        render(board_file, folder / f"{name}.png", scale)
        print(f"{name}: {violations} DRC violations, {unconnected} unconnected pads")
        failed |= bool(violations or unconnected)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
