"""`bgpi diag`: checks for the person who assembles a board.

``bgpi diag sensors`` shows every reed switch live, ``leds`` walks the LED chain,
``buttons`` prints each press, ``wiring`` prints the profile's wiring tables and
``--check`` runs the automatic self-test.  ``--board sim`` runs the same code on mock
pins; there the live commands make one pass and stop, so they never wait for hands.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from bgpi.exc import LocationError, UsageError
from bgpi.hardware.board import board_kind

if TYPE_CHECKING:
    from bgpi.board.locations import Location
    from bgpi.board.profile import Profile
    from bgpi.hardware.board import Board, BoardKind

TESTS = ("sensors", "leds", "buttons", "wiring", "walk", "schematic", "layout")
WHITE = (255, 255, 255)
LED_STEP_SECONDS = 0.3
WALK_SETTLE_SECONDS = 0.6
"""A walk step is read once the switches have stayed the same this long after changing."""
CHECK_FRAMES = 50
"""Frames the self-test reads from an empty real board."""


LIMITS = {"seconds": 86_400, "frames": 10_000_000}
"""The most --seconds (a day) and --frames a live test takes."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "diag", help="check the board's sensors, lights and buttons",
        description="Check the board's sensors, lights and buttons. Give a test or --check.")
    parser.add_argument("test", nargs="?", choices=TESTS,
                        help="sensors: live switch map; leds: walk the LED chain; "
                             "buttons: print each press; wiring: print the wiring tables (the Pico's with "
                             "--board serial:...); walk: a guided check of every switch, checker by checker; "
                             "schematic, layout: print the drawing as SVG")
    parser.add_argument("--locations", metavar="LIST",
                        help="walk only these locations, e.g. 7,8,bar:white (default: all sensed)")
    parser.add_argument("--check", action="store_true",
                        help="run the automatic self-test; exit 0 only if everything passes")
    parser.add_argument("--profile", metavar="FILE", help="board profile (default: the built-in one)")
    parser.add_argument("--boot-config", metavar="FILE", type=Path,
                        help="with --check: the Pi's config.txt to check (default: "
                             "/boot/firmware/config.txt or /boot/config.txt on the real board)")
    parser.add_argument("--board", type=board_kind, metavar="BOARD",
                        help="pi: the real board; sim: a simulated one; serial:DEVICE: a board behind "
                             "a Pico co-processor (serial:/dev/ttyACM0); pty: the simulated board in "
                             "the real firmware behind a pseudo-terminal (default: pi on a Raspberry "
                             "Pi, else sim)")
    parser.add_argument("--seconds", type=float, metavar="S",
                        help=f"stop a live test after S seconds (0..{LIMITS['seconds']})")
    parser.add_argument("--frames", type=int, metavar="N",
                        help=f"stop `sensors` after N frames (0..{LIMITS['frames']})")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    profile = _checked_profile(args)
    if args.test in ("wiring", "schematic", "layout"):
        out.write(drawing(args.test, profile, args.board))
        return 0
    from bgpi.hardware.board import default_board_kind

    locations = _locations(args.locations, profile)
    kind = args.board or default_board_kind()
    # The boot config first: it is often why the board will not open.
    boot = check_boot(profile, kind, args.boot_config, out) if args.check else []
    with contextlib.closing(_open_board(profile, kind)) as board:
        try:
            if args.check:
                return 0 if check(board, out, boot) else 1
            return LIVE_TESTS[args.test](board, out, args, locations)
        except KeyboardInterrupt:
            # Ctrl-C is how a live test is meant to end.
            out.write("\n")
    return 0


def drawing(name: str, profile: Profile, kind: BoardKind | None) -> str:
    """The wiring tables, the schematic or the layout as hardware/ keeps them: for the Pi's
    header, or for a Pico if the board `kind` is one (serial:DEVICE, pty)."""
    from bgpi.exc import PinoutError
    from bgpi.hardware.layout import layout_svg
    from bgpi.hardware.schematic import schematic_svg
    from bgpi.hardware.wiring import pi_host, wiring_tables
    from bgpi.link.pinout import pico_host, pico_wiring_tables

    pico = kind is not None and kind.pico
    try:
        if name == "wiring":
            return pico_wiring_tables(profile) if pico else wiring_tables(profile)
        host = pico_host(profile) if pico else pi_host(profile)
    except PinoutError as error:  # more multiplexers than a Pico has pins for
        raise UsageError(str(error)) from None
    return schematic_svg(profile, host) if name == "schematic" else layout_svg(profile, host)


def _checked_profile(args: argparse.Namespace) -> Profile:
    """The profile, once the arguments are found sound; UsageError for the first fault."""
    from bgpi.exc import ProfileError
    from bgpi.hardware.profile import load_profile

    if args.check == (args.test is not None):
        raise UsageError("give either a test (sensors, leds, buttons, wiring) or --check")
    for option, most in LIMITS.items():
        if (value := getattr(args, option)) is not None and not 0 <= value <= most:
            raise UsageError(f"--{option}: expected 0..{most}, got {value}")
    try:
        return load_profile(args.profile)
    except ProfileError as error:
        raise UsageError(str(error)) from None


def _open_board(profile: Profile, kind: BoardKind) -> Board:
    """The board of `kind`, open (connected, behind a co-processor); UsageError saying why not."""
    from gpiozero.exc import GPIOZeroError

    from bgpi.exc import LinkError
    from bgpi.link.board import open_board

    try:
        board = open_board(profile, kind)
        try:
            board.connect()
        except BaseException:
            board.close()
            raise
    except (LinkError, ValueError) as error:  # the link's; pyserial's for a port it cannot set up
        raise UsageError(f"cannot reach the co-processor: {error}") from None
    except (GPIOZeroError, ImportError, OSError, RuntimeError, AttributeError) as error:
        # No pin library, SPI not enabled, not a Pi after all: gpiozero, Blinka and the
        # kernel each say so in their own way (Blinka's `board` on an unknown machine
        # lacks SPI; NotImplementedError is a RuntimeError).
        raise UsageError(f"cannot open the board: {error}") from None
    return board


# -- the live tests: each takes the board, the output, the arguments and --locations ----------


def _sensors(board: Board, out: TextIO, args: argparse.Namespace, locations: list[Location]) -> int:
    show_sensors(board, out, args.frames, args.seconds)
    return 0


def _leds(board: Board, out: TextIO, args: argparse.Namespace, locations: list[Location]) -> int:
    walk_leds(board, out)
    return 0


def _buttons(board: Board, out: TextIO, args: argparse.Namespace, locations: list[Location]) -> int:
    show_buttons(board, out, args.seconds)
    return 0


def _walk(board: Board, out: TextIO, args: argparse.Namespace, locations: list[Location]) -> int:
    return 0 if walk(board, out, locations) else 1


def _locations(text: str | None, profile: Profile) -> list[Location]:
    """The locations of --locations (all sensed ones if None); UsageError for a bad one."""
    from bgpi.board.locations import parse_location

    sensed = profile.geometry.sensed()
    if text is None:
        return list(sensed)
    locations = []
    for word in text.split(","):
        try:
            location = parse_location(int(word) if word.strip().isdigit() else word.strip())
        except LocationError as error:
            raise UsageError(f"--locations: {error}") from None
        if location not in sensed:
            raise UsageError(f"--locations: {word.strip()} has no switches on this board")
        locations.append(location)
    return locations


def walk(board: Board, out: TextIO, locations: list[Location]) -> bool:
    """The guided walk: light each location, ask for checkers one by one, then none;
    compare what the switches read with what they should (`bgpi.hardware.walk`).

    On the real board a step is read once the switches changed and then stayed the
    same for `WALK_SETTLE_SECONDS`, or at once when a button is pressed (for a step
    that changes nothing).  A simulated board puts the checkers down itself.
    True if every step read as expected.
    """
    from bgpi.hardware.walk import WalkReport, walk_steps

    profile = board.profile
    report = WalkReport(profile.sensors)
    if board.hands is None:
        out.write("the board must be empty; follow the lit location. If a step changes "
                  "nothing (a switch that does not close), press any button.\n")
    else:
        board.hands.clear()
    seen = _settled(board)
    for step in walk_steps(profile.sensors, profile.geometry, locations):
        board.leds.show_targets({str(step.location): WHITE})
        out.write(f"{step.instruction()}\n")
        out.flush()
        if board.hands is not None:
            board.hands.set_checkers(step.location, step.checkers)
            seen = _settled(board)
        else:
            seen = _next_reading(board, seen)
        out.writelines(f"  {problem}\n" for problem in report.observe(step, seen))
    board.leds.off()
    out.writelines(f"{line}\n" for line in report.lines())
    return report.wrong == 0


def _settled(board: Board) -> int:
    """The debounced frame after the switches have had time to settle."""
    from bgpi.hardware.debounce import Debouncer

    wiring = board.profile.sensors
    debouncer = Debouncer(wiring.debounce_frames)
    # Twice: behind a co-processor the firmware debounces before the host does.
    for _ in range(2 * wiring.debounce_frames):
        frame = debouncer.update(board.scanner.scan())
    return frame


def _next_reading(board: Board, before: int) -> int:
    """The switches once they differ from `before` and have settled, or when a button is pressed."""
    from bgpi.hardware.debounce import Debouncer

    wiring = board.profile.sensors
    debouncer = Debouncer(wiring.debounce_frames)
    last, since = before, time.monotonic()
    pacer = _paced(wiring.scan_hz, None)
    while True:
        next(pacer)
        stable = debouncer.update(board.scanner.scan())
        if stable != last:
            last, since = stable, time.monotonic()
        if board.buttons.next_press(timeout=0) is not None:
            return stable
        if stable != before and time.monotonic() - since >= WALK_SETTLE_SECONDS:
            return stable


def _paced(rate_hz: float, seconds: float | None) -> Iterator[None]:
    """Yield at `rate_hz` until `seconds` have passed (for ever if None)."""
    period = 1 / rate_hz
    start = next_tick = time.monotonic()
    while seconds is None or time.monotonic() - start < seconds:
        yield
        next_tick += period
        time.sleep(max(0.0, next_tick - time.monotonic()))


def sensor_map(profile: Profile, frame: int) -> str:
    """Every switch of the board as a text picture: ``o`` closed, ``.`` open.

    The points are laid out as the board is (13..24 on top, 12..1 below, the bar in the
    middle), each point's slot 0 at the outer edge; sensed trays follow.
    """
    from bgpi.hardware.frames import closed_switches

    geometry = profile.geometry
    closed = {(switch.location, switch.slot)
              for switch in closed_switches(frame, profile.sensors)}
    rows = max(geometry.point_slots, geometry.bar_slots)

    def half(locations: list[int | str], slots: range) -> list[str]:
        labels = ["bar" if isinstance(location, str) else str(location) for location in locations]
        lines = ["".join(f"{label:>4}" for label in labels)]
        for slot in slots:
            cells = []
            for location in locations:
                if slot >= geometry.slots(location):
                    cells.append("    ")
                else:
                    cells.append("   o" if (location, slot) in closed else "   .")
            lines.append("".join(cells) + f"   slot {slot}")
        return lines

    top = [*range(13, 19), "bar:black", *range(19, 25)]
    bottom = [*range(12, 6, -1), "bar:white", *range(6, 0, -1)]
    lines = half(top, range(rows))
    below = half(bottom, range(rows - 1, -1, -1))
    lines += ["", *below[1:], below[0]]
    for tray in ("off:white", "off:black"):
        if slots := geometry.slots(tray):
            cells = " ".join("o" if (tray, slot) in closed else "." for slot in range(slots))
            lines.append(f"{tray}: {cells}")
    lines.append(f"top bar half: bar:black, bottom: bar:white; o closed, . open; "
                 f"{len(closed)} closed")
    return "\n".join(lines) + "\n"


def show_sensors(board: Board, out: TextIO, frames: int | None, seconds: float | None) -> None:
    """Print the switch map whenever the debounced switches change.

    Stops after `frames` frames or `seconds`; a simulated board, given neither, stops
    once its first map is printed.
    """
    from bgpi.hardware.debounce import Debouncer
    from bgpi.hardware.flapping import FlapWatch

    wiring = board.profile.sensors
    if board.hands is not None and frames is None and seconds is None:
        frames = wiring.debounce_frames
    debouncer = Debouncer(wiring.debounce_frames)
    flaps = FlapWatch.for_wiring(wiring)
    redraw = "\x1b[H\x1b[J" if out.isatty() else ""
    shown = None
    for count, _ in enumerate(_paced(wiring.scan_hz, seconds), start=1):
        stable = debouncer.update(board.scanner.scan())
        if stable != shown:
            out.write(f"{redraw}frame {count}\n{sensor_map(board.profile, stable)}\n")
            out.flush()
            shown = stable
            for fault in flaps.update(stable, count):
                out.write(f"{fault} (faster than hands: a sensor fault)\n")
                out.flush()
        if frames is not None and count >= frames:
            break


def walk_leds(board: Board, out: TextIO) -> None:
    """Light each LED in turn, then every location, die and turn light by name."""
    from bgpi.hardware.wiring import led_labels

    leds = board.leds
    pause = 0.0 if board.hands is not None else LED_STEP_SECONDS
    for index, label in enumerate(led_labels(leds.config)):
        leds.show({index: WHITE})
        out.write(f"LED {index}: {label}\n")
        out.flush()
        time.sleep(pause)
    for target in leds.config.targets:
        leds.show_targets({target: WHITE})
        out.write(f"{'point ' + target if target.isdigit() else target}: "
                  f"LED {', '.join(map(str, leds.indices(target)))}\n")
        out.flush()
        time.sleep(pause)
    leds.off()


def show_buttons(board: Board, out: TextIO, seconds: float | None) -> None:
    """Print each press until `seconds` pass (or Ctrl-C).

    A simulated board presses each of its buttons once itself, prints them and stops.
    """
    buttons = board.buttons
    if board.hands is not None:
        for name in board.profile.buttons.pins:
            board.hands.press(name)
            out.write(f"{buttons.next_press(timeout=1.0)}\n")
        return
    out.write("press the buttons (Ctrl-C to stop)\n")
    out.flush()
    deadline = None if seconds is None else time.monotonic() + seconds
    while deadline is None or time.monotonic() < deadline:
        wait = 0.5 if deadline is None else max(0.0, min(0.5, deadline - time.monotonic()))
        if (press := buttons.next_press(timeout=wait)) is not None:
            out.write(f"{press}\n")
            out.flush()


def check_boot(profile: Profile, kind: BoardKind, path: Path | None, out: TextIO) -> list[str]:
    """Check the Pi's boot config for what the board needs (`path`, or the Pi's own on
    the real board; other boards without `path` are not checked); print, return problems."""
    from bgpi.hardware.bootconfig import (
        CORE_CLOCK,
        boot_problems,
        pi_model,
        read_boot_config,
    )

    if path is None and not kind.pi_pins:
        return []
    model = pi_model()
    boot = read_boot_config(model, None if path is None else [path])
    if boot is None:
        problems = [f"boot config: cannot read {path or '/boot/firmware/config.txt or /boot/config.txt'}"]
    else:
        problems = [f"boot config: {problem}" for problem in boot_problems(boot, model, profile)]
    out.writelines(f"{problem}\n" for problem in problems)
    if boot is not None and not problems:
        clock = ("core clock pinned" if model in CORE_CLOCK
                 else "no core clock line needed" if model else
                 "core clock not checked (not read on a Raspberry Pi)")
        out.write(f"boot config: ok, {boot.source}: SPI on, {clock}, "
                  "no interface on the board's pins\n")
    return problems


def check(board: Board, out: TextIO, problems: list[str] | None = None) -> bool:
    """The self-test: sensors, LEDs and buttons; print a summary, True if all passed
    (`problems`: those found before, e.g. by `check_boot`, count too).

    On a simulated board every switch is closed and opened again, every LED lit and
    read back, every button pressed.  On a real board, which must be empty, it finds
    switches that read closed or flicker, lights each LED for the eye, and finds
    buttons that read pressed.
    """
    problems = (list(problems or []) + _check_sensors(board, out) + _check_leds(board, out)
                + _check_buttons(board, out))
    out.write("check passed\n" if not problems else f"check FAILED: {len(problems)} problems\n")
    return not problems


def _check_sensors(board: Board, out: TextIO) -> list[str]:
    from bgpi.hardware.frames import SwitchTest

    wiring = board.profile.sensors
    test = SwitchTest(wiring)
    switches = [switch for _, switch in wiring.connected()]
    if board.hands is not None:
        board.hands.clear()
        for index, switch in wiring.connected():
            board.hands.set_switch(switch, True)
            test.observe(1 << index, _settled(board))
            board.hands.release_switch(switch)
            test.observe(0, _settled(board))
        done = f"{len(switches)} switches closed and opened, each seen at its location and slot"
    else:
        out.write("sensors: reading the empty board\n")
        for _ in _paced(wiring.scan_hz, CHECK_FRAMES / wiring.scan_hz):
            test.observe(0, board.scanner.scan())
        done = (f"{len(switches)} switches read open on the empty board "
                "(stuck-open ones show in `bgpi diag sensors` as checkers move over them)")
    faults = [f"sensors: {fault}" for fault in test.faults()]
    out.writelines(f"{fault}\n" for fault in faults)
    if not faults:
        out.write(f"sensors: ok, {done}\n")
    return faults


def _check_leds(board: Board, out: TextIO) -> list[str]:
    from bgpi.board.colours import DARK
    from bgpi.hardware.wiring import led_labels

    leds = board.leds
    problems = []
    for index, label in enumerate(led_labels(leds.config)):
        sent = leds.show({index: WHITE})
        if board.hands is None:
            time.sleep(LED_STEP_SECONDS / 3)
        elif [i for i, colour in enumerate(sent) if colour != DARK] != [index]:
            problems.append(f"leds: LED {index} ({label}) did not light alone")
    leds.off()
    out.writelines(f"{problem}\n" for problem in problems)
    if not problems:
        how = "each lit alone" if board.hands is not None else "check by eye that each lit in turn"
        out.write(f"leds: ok, {leds.config.count} LEDs addressed, {how}\n")
    return problems


def _check_buttons(board: Board, out: TextIO) -> list[str]:
    from bgpi.hardware.buttons import ButtonPress

    names = list(board.profile.buttons.pins)
    problems = [f"buttons: {name} reads pressed (stuck or shorted)"
                for name in board.buttons.pressed()]
    if board.hands is not None and not problems:
        for name in names:
            board.hands.press(name)
            if (press := board.buttons.next_press(timeout=1.0)) != ButtonPress(name):
                problems.append(f"buttons: pressed {name}, got {press or 'nothing'}")
    out.writelines(f"{problem}\n" for problem in problems)
    if not problems:
        how = "each pressed and seen" if board.hands is not None else "none stuck"
        out.write(f"buttons: ok, {len(names)} buttons, {how}\n")
    return problems


LIVE_TESTS: dict[str, Callable[[Board, TextIO, argparse.Namespace, list[Location]], int]] = {
    "sensors": _sensors, "leds": _leds, "buttons": _buttons, "walk": _walk}
"""The tests on the open board, by name; each returns the exit status."""
