"""The virtual Pi's checks, run once at boot by vpi-checks.service (README.md beside vpi.sh).

Each check does what a builder's Pi would, against the real systemd, udev and kernel GPIO
of the guest, and writes one line to the result file (the second serial port): ``ok NAME``
or ``not ok NAME: why``, then ``done``.  Lines starting with ``#`` are diagnostics.  The
checks run in order and lean on each other (the install first); when the install fails,
the rest are reported failed without running.

Only the standard library: this is the guest's own python3, not the board's venv.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import termios
import threading
import time
import tomllib
from collections.abc import Callable
from pathlib import Path

SOURCE = Path("/root/bgpi")
INSTALLER = SOURCE / "systemd" / "install.sh"
VPI = Path("/usr/local/lib/vpi")
TEST_PROFILE = VPI / "profile.toml"  # guest/profile.toml: slow enough for the emulator
SETTINGS = Path("/etc/bgpi/bgpi.toml")
BGPI = Path("/opt/bgpi/venv/bin/bgpi")
JOURNAL = Path("/var/lib/bgpi/journal.jsonl")
CHIP = Path("/dev/gpiochip0")
SIM = Path("/sys/kernel/config/gpio-sim/pi")
CGROUP = Path("/sys/fs/cgroup/system.slice/bgpi.service")
UNIT = "bgpi.service"
BUTTON = 19  # white.turn in the packaged profile
SELECT = (17, 27, 22, 23)
BUSY_PIN = 22  # S2
MAX_EXPOSURE = 3.0
START = {24: 2, 13: 5, 8: 3, 6: 5, 1: 2, 12: 5, 17: 3, 19: 5}
"""The checkers on each point in the starting position (white's count)."""
START_ID = "4HPwATDgc/ABMA"
HAND_S = 1.0
"""A hand's pause after each lift, place and press: many debounce spans of the test profile."""
STRACE_S = 10

checks: list[Callable[[], None]] = []
figures: list[str] = []
"""What a check measured, for the verdicts' file (``figure: ...`` lines, shown by vpi.sh)."""


class CheckFailed(Exception):
    """A check's verdict: what was expected and what was found."""


def check(function: Callable[[], None]) -> Callable[[], None]:
    checks.append(function)
    return function


def expect(condition: object, why: str) -> None:
    if not condition:
        raise CheckFailed(why)


def run(*command: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)


def unit(prop: str) -> str:
    return run("systemctl", "show", "--property", prop, "--value", UNIT).stdout.strip()


def wait_for(condition: Callable[[], object], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise CheckFailed(f"{what}: not within {timeout:g} s")
        time.sleep(0.2)


def running() -> bool:
    return unit("ActiveState") == "active" and unit("SubState") == "running"


def said(text: str) -> int:
    """How many times the unit's log (systemd's lines about it and the board's own) has `text`."""
    return run("journalctl", "--no-pager", "--output=cat", "--unit", UNIT).stdout.count(text)


def events() -> list[dict]:
    """The board's journal (its game), one event a line, each line `JSON CHECKSUM`."""
    if not JOURNAL.exists():
        return []
    return [json.loads(line.rsplit(" ", 1)[0]) for line in JOURNAL.read_text().splitlines() if line]


def line_file(pin: int, name: str) -> Path:
    """gpio-sim's sysfs file `name` (value, pull) of line `pin`."""
    device = (SIM / "dev_name").read_text().strip()
    chip = (SIM / "bank0" / "chip_name").read_text().strip()
    return Path("/sys/devices/platform") / device / chip / f"sim_gpio{pin}" / name


def press(pin: int) -> None:
    """A short press of the button on `pin`: it shorts its line to ground (gpio-sim's pull)."""
    pull = line_file(pin, "pull")
    pull.write_text("pull-down")
    time.sleep(0.3)
    pull.write_text("pull-up")


def in_the_units_cgroup(code: str) -> subprocess.CompletedProcess:
    """Python `code` run by a process put into bgpi.service's cgroup: under its device policy."""
    return run("sh", "-c", f'echo $$ >{CGROUP}/cgroup.procs && exec python3 -c "$0"', code)


def open_errno(path: str) -> str:
    """Code printing the errno name opening `path` read-write gives ("0": it opens)."""
    return (f"import errno, os\ntry:\n    os.close(os.open({path!r}, os.O_RDWR | os.O_NONBLOCK))\n"
            "    print(0)\nexcept OSError as error:\n    print(errno.errorcode[error.errno])")


# -- the checks, in the order a builder meets them ------------------------------------------

@check
def install_creates_user_venv_settings_and_unit_and_the_board_starts() -> None:
    done = run(str(INSTALLER), timeout=1800)
    print(f"# install.sh: {done.returncode}\n" + "".join(f"# {line}\n" for line in done.stdout.splitlines()), end="")
    expect(done.returncode == 0, f"install.sh exited {done.returncode}: {done.stderr.strip()[-300:]}")
    expect("started; see: systemctl status bgpi" in done.stdout, "install.sh did not say it started")
    groups = run("id", "-nG", "bgpi").stdout.split()
    expect({"gpio", "spi", "dialout"} <= set(groups), f"bgpi is in {groups}")
    expect(Path("/opt/bgpi/venv/bin/bgpi").exists() and Path("/etc/bgpi/bgpi.toml").exists(), "no venv or settings")
    expect(run("systemctl", "is-enabled", UNIT).stdout.strip() == "enabled", "the unit is not enabled")


@check
def the_unit_is_ready_under_its_sandbox_with_the_scanner_on_lgpio_line_groups() -> None:
    wait_for(running, 30, "active (running)")  # Type=notify: active only after READY=1
    status = unit("StatusText")
    expect(status, "no STATUS= from the board")
    drop_ins = unit("DropInPaths").split()
    expect(drop_ins == ["/etc/systemd/system/bgpi.service.d/vpi.conf"], f"drop-ins {drop_ins}")
    info = CHIP.stat()
    expect(oct(info.st_mode & 0o777) == "0o660" and info.st_gid == int(run("getent", "group", "gpio")
                                                                      .stdout.split(":")[2]),
           f"{CHIP} is mode {oct(info.st_mode & 0o777)}, gid {info.st_gid}: the udev rule did not apply")
    lines = run("gpioinfo", "gpiochip0").stdout
    for pin, direction in ((17, "output"), (23, "output"), (24, "input"), (26, "input"), (BUTTON, "input")):
        found = re.search(rf"line\s+{pin}:\s+\"GPIO{pin}\"\s+\"[^\"]*\"\s+{direction}", lines)
        expect(found, f"GPIO{pin} is not claimed as an {direction}:\n{lines}")


@check
def the_select_lines_toggle() -> None:
    seen = {pin: set() for pin in SELECT}
    files = {pin: line_file(pin, "value") for pin in SELECT}
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline and any(len(levels) < 2 for levels in seen.values()):
        for pin, file in files.items():
            seen[pin].add(file.read_text().strip())
    expect(all(levels == {"0", "1"} for levels in seen.values()), f"levels seen: {seen}")


@check
def a_button_edge_reaches_the_table() -> None:
    press(BUTTON)

    def refused() -> bool:  # a turn press on a board not set up yet
        return any(event.get("event") == "rejected" and "set up the board first" in event.get("reason", "")
                   for event in events())

    wait_for(refused, 15, "the press refused in the journal")


@check
def a_stopped_board_is_killed_by_the_watchdog_and_resumes_its_game() -> None:
    before = events()
    pid = unit("MainPID")
    timeouts, resumes = said("Watchdog timeout"), said('{"event": "resumed"')
    os.kill(int(pid), 19)  # SIGSTOP: a board that hangs
    wait_for(lambda: unit("MainPID") not in (pid, "0") and running(), 40, "a new board running")
    expect(said("Watchdog timeout") == timeouts + 1, "no watchdog timeout in the log")
    wait_for(lambda: said('{"event": "resumed"') == resumes + 1, 10, "the session resumed from the journal")
    after = events()
    expect(after[:len(before)] == before, "the journal was not kept")
    expect(sum(event.get("event") == "session" for event in after) == 1, "a new session began")


@check
def a_crashed_board_is_restarted() -> None:
    restarts = int(unit("NRestarts"))
    pid = unit("MainPID")
    os.kill(int(pid), 11)  # SIGSEGV
    wait_for(lambda: unit("MainPID") not in (pid, "0") and running(), 30, "a new board running")
    expect(int(unit("NRestarts")) == restarts + 1, f"NRestarts {unit('NRestarts')}, was {restarts}")


@check
def the_installer_says_why_a_start_failed_and_a_busy_pin_stops_the_board_for_good() -> None:
    run("systemctl", "stop", UNIT)
    holder = subprocess.Popen(["gpioset", "--mode=signal", "gpiochip0", f"{BUSY_PIN}=0"])
    try:
        wait_for(lambda: re.search(rf"line\s+{BUSY_PIN}:.*\bused\b", run("gpioinfo", "gpiochip0").stdout),
                 10, f"gpioset holding GPIO{BUSY_PIN}")
        done = run(str(INSTALLER), timeout=1800)
        expect(done.returncode == 1, f"install.sh exited {done.returncode}")
        expect("Active: failed" in done.stdout, "install.sh did not show the unit's status")
        why = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
        expect(why.startswith("bgpi install: the service did not start: cannot open the pi board: "
                              f"GPIO{BUSY_PIN} (select S2) busy"), f"install.sh said {why!r}")
        expect(unit("ExecMainStatus") == "2", f"exit status {unit('ExecMainStatus')}")
        restarts = int(unit("NRestarts"))  # the installer's restart set it to 0
        time.sleep(5)  # RestartSec=2: a restart would have come
        expect(unit("ActiveState") == "failed", f"the unit is {unit('ActiveState')}")
        expect(int(unit("NRestarts")) == restarts, "the unit was restarted")
    finally:
        holder.terminate()
        holder.wait()
    run("systemctl", "reset-failed", UNIT)
    run("systemctl", "start", UNIT, timeout=120)
    expect(running(), "the board did not start again once the pin was free")


@check
def a_chip_only_root_may_open_is_named_as_a_permission_problem() -> None:
    run("systemctl", "stop", UNIT)
    os.chown(CHIP, 0, 0)
    CHIP.chmod(0o600)  # as plain Debian leaves it without the rule
    try:
        message = f"no permission to open {CHIP} (group root, mode 0600): run as a user in the group gpio"
        before = said(message)
        run("systemctl", "start", UNIT, timeout=120)
        expect(said(message) == before + 1, "the log does not name the permission and the group")
        expect(unit("ExecMainStatus") == "2", f"exit status {unit('ExecMainStatus')}")
    finally:
        run("udevadm", "trigger", "--action=add", "--subsystem-match=gpio")
        run("udevadm", "settle")
        run("systemctl", "reset-failed", UNIT)
        run("systemctl", "start", UNIT, timeout=120)
    expect(running(), "the board did not start again with the rule applied")


@check
def a_missing_chip_stops_the_board_for_good() -> None:
    run("systemctl", "stop", UNIT)
    (SIM / "live").write_text("0")  # the chip goes, as on a machine without GPIO
    try:
        message = "can not open gpiochip (/dev/gpiochip*): not a Raspberry Pi, or its GPIO device is missing"
        before = said(message)
        run("systemctl", "start", UNIT, timeout=120)
        expect(said(message) == before + 1, "the log does not say the GPIO device is missing")
        expect(unit("ExecMainStatus") == "2", f"exit status {unit('ExecMainStatus')}")
        restarts = int(unit("NRestarts"))
        time.sleep(5)  # RestartSec=2: a restart would have come
        expect(unit("ActiveState") == "failed" and int(unit("NRestarts")) == restarts, "the unit was restarted")
    finally:
        (SIM / "live").write_text("1")
        run("udevadm", "settle")
        run("systemctl", "reset-failed", UNIT)
        run("systemctl", "start", UNIT, timeout=120)
    expect(running(), "the board did not start again with its chip back")


@check
def the_device_policy_lets_the_chip_and_a_picos_port_through_and_refuses_another_device() -> None:
    expect(running(), "the board is not running")
    acm = next((line.split()[0] for line in Path("/proc/devices").read_text().splitlines()
                if line.endswith(" ttyACM")), None)
    expect(acm is not None, "cdc_acm is not loaded: no ttyACM major")
    pico = "/dev/vpi-ttyACM0"  # /run is nodev
    if not os.path.exists(pico):
        os.mknod(pico, 0o600 | 0o020000, os.makedev(int(acm), 0))  # no Pico behind it: ENXIO/ENODEV
    for device, allowed in ((str(CHIP), True), (pico, True), ("/dev/vda", False), ("/dev/ttyS0", False)):
        answer = in_the_units_cgroup(open_errno(device)).stdout.strip()
        if allowed:
            expect(answer != "EPERM", f"{device}: {answer}, refused")
        else:
            expect(answer == "EPERM", f"{device}: {answer}, not refused")


@check
def systemd_analyze_security_rates_the_unit_at_most_3() -> None:
    shown = run("systemd-analyze", "security", "--no-pager", UNIT).stdout
    exposure = re.search(r"Overall exposure level for bgpi\.service: (\d+\.\d)", shown)
    expect(exposure, f"no exposure in:\n{shown[-500:]}")
    print(f"# exposure {exposure[1]}")
    expect(float(exposure[1]) <= MAX_EXPOSURE, f"exposure {exposure[1]}")


# -- reading checkers through the kernel ----------------------------------------------

class Multiplexers:
    """guest/mux.py, the multiplexer emulator, as a process: `show` it the checkers."""

    def __init__(self, profile: dict) -> None:
        self.slots = {key: [mux * 16 + channel for mux, channel in pairs]
                      for key, pairs in profile["sensors"]["switches"].items()}
        self.process = subprocess.Popen([sys.executable, str(VPI / "mux.py"), str(TEST_PROFILE)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        expect(self.process.stdout.readline().strip() == "ready", "the emulator did not start")

    def show(self, checkers: dict[int, int]) -> None:
        """Close the switches `checkers` stand on (each location's from slot 0)."""
        closed = 0
        for point, count in checkers.items():
            for index in self.slots[str(point)][:count]:
                closed |= 1 << index
        self.process.stdin.write(f"{closed}\n")
        self.process.stdin.flush()

    def close(self) -> str:
        """Stop it; what it says of its polls."""
        self.process.stdin.close()
        said = self.process.stdout.read().strip()
        self.process.wait(10)
        return said


def opening_steps(dice: tuple[int, int], mover: str) -> list[tuple[int, int]]:
    """The first play `bgpi rules plays` lists for the opening `dice` whose every part is
    one die's step, as (from, to) points in white's count."""
    listed = json.loads(run(str(BGPI), "rules", "plays", "--position-id", START_ID, "--dice",
                            *map(str, dice), "--json").stdout)
    for play in listed["plays"]:
        steps = []
        for part in play["move"].split():
            found = re.fullmatch(r"(\d+)/(\d+)(?:\((\d)\))?", part)
            if found is None:
                break
            source, target = int(found[1]), int(found[2])
            if source - target not in dice:
                break
            if mover == "black":  # the mover's own count
                source, target = 25 - source, 25 - target
            steps += [(source, target)] * int(found[3] or 1)
        else:
            return steps
    raise CheckFailed(f"no play of single steps for {dice}: {listed}")


MISREADS = ("mismatch", "restored", "rejected")
"""What a read the emulator was late for (a stall of the guest's CPUs, see README.md) can
make the table say; left out of the comparison, counted and shown."""


def game_events(events: list[dict]) -> list[dict]:
    """From the first `start` to the first `play` (a replay then adds the final `state`)."""
    kinds = [event.get("event") for event in events]
    if "start" not in kinds or "play" not in kinds:
        return []
    return events[kinds.index("start"):kinds.index("play") + 1]


def kernel_calls_per_frame(pid: str, scan_hz: float) -> str:
    """`strace -c` of every thread of the board for STRACE_S seconds: calls per frame."""
    summary = Path(tempfile.mkdtemp()) / "strace.txt"
    run("timeout", "--signal=INT", str(STRACE_S), "strace", "-c", "-f", "-p", pid, "-o", str(summary),
        timeout=STRACE_S + 30)
    calls = {}
    for line in summary.read_text().splitlines():
        fields = line.split()  # % time, seconds, usecs/call, calls, [errors,] syscall
        if len(fields) >= 5 and fields[0][0].isdigit() and fields[-1] != "total":
            calls[fields[-1]] = int(fields[3])
    expect(calls.get("ioctl"), f"no GPIO calls in the strace summary: {summary.read_text()[-300:]}")
    # Traced, the board runs slower than its rate and skips scan slots: its frames are
    # counted by the scan's own requests, one ioctl each (benchmarks/scan.py: 32 a frame).
    frames = calls["ioctl"] / 32
    each = ", ".join(f"{name} {count / frames:.2f}" for name, count in
                     sorted(calls.items(), key=lambda item: -item[1]))
    return (f"kernel calls per frame on /dev/gpiochip0: {sum(calls.values()) / frames:.1f} "
            f"(strace -c -f over {STRACE_S} s: {frames:.0f} frames of 32 GPIO ioctls, "
            f"{frames / STRACE_S:.1f} a second of the profile's {scan_hz:g}): {each}")


@check
def an_opening_play_is_read_switch_by_switch_through_the_kernel_as_the_simulated_board_reads_it() -> None:
    profile = tomllib.loads(TEST_PROFILE.read_text())
    pins = profile["buttons"]["pins"]
    settings = SETTINGS.read_text()
    SETTINGS.write_text(re.sub(r'(?m)^profile = ""', f'profile = "{TEST_PROFILE}"', settings))
    run("systemctl", "restart", UNIT, timeout=120)
    wait_for(running, 60, "the board running on the test profile")
    mark = len(events())
    board = dict(START)
    mux = Multiplexers(profile)
    try:
        mux.show(board)
        time.sleep(3 * HAND_S)  # the board journals nothing when it is set up: its lights say so
        press(pins["white.turn"])

        def rolled_or_refused() -> bool:
            return any(event.get("event") in ("opening", "rejected") for event in events()[mark:])

        wait_for(rolled_or_refused, 30, "the opening roll")
        expect(not any(event.get("event") == "rejected" for event in events()[mark:]),
               f"the opening press was refused: {events()[mark:]}")
        rolled = [event for event in events()[mark:] if event.get("event") in ("tie", "opening")]
        opening = rolled[-1]
        mover = opening["starts"]
        script = [{"dice": [roll["white"], roll["black"]]} for roll in rolled]
        script += [{"press": "white.turn"}, {"wait": HAND_S}]
        time.sleep(HAND_S)
        for source, target in opening_steps((opening["white"], opening["black"]), mover):
            for point, change in ((source, -1), (target, 1)):
                board[point] = board.get(point, 0) + change
                mux.show(board)
                time.sleep(HAND_S)
                script += [{"lift" if change < 0 else "place": point}, {"wait": HAND_S}]
        press(pins[f"{mover}.turn"])
        script += [{"press": f"{mover}.turn"}, {"wait": HAND_S}]
        wait_for(lambda: any(event.get("event") == "play" for event in events()[mark:]), 30, "the play committed")
        figures.append(kernel_calls_per_frame(unit("MainPID"), profile["sensors"]["scan_hz"]))
    finally:
        figures.append(f"the multiplexer emulator: {mux.close()}")
    live = game_events(events()[mark:])
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as file:
        file.write("".join(json.dumps(line) + "\n" for line in script))
    replayed = run(str(BGPI), "replay", "--profile", str(TEST_PROFILE), file.name)
    expect(replayed.returncode == 0, f"bgpi replay: {replayed.stderr.strip()[-300:]}")
    simulated = game_events([json.loads(line) for line in replayed.stdout.splitlines()])
    print(f"# the play: {live[-1] if live else None}")
    misread = [event for event in live if event.get("event") in MISREADS]
    figures.append(f"the table's words for the emulator's late reads: {len(misread)} {misread}")
    played = [event for event in live if event.get("event") not in MISREADS]
    expect(played and played == simulated, f"the journal says {live}, the simulated board {simulated}")


def main(result_path: str) -> None:
    with open(result_path, "w", buffering=1) as result:
        def say(line: str) -> None:
            result.write(line + "\n")
            print(line, flush=True)

        installed = True
        for function in checks:
            name = function.__name__
            started = time.monotonic()
            if not installed:
                say(f"not ok {name}: not run (the install failed)")
                continue
            try:
                function()
            except Exception as error:  # noqa: BLE001 (a check fails however it fails)
                say(f"not ok {name}: {type(error).__name__}: {error}".replace("\n", "\n# "))
                for line in run("journalctl", "--no-pager", "--lines=25", "--unit", UNIT).stdout.splitlines():
                    say(f"# {line}")
                installed = function is not checks[0]
            else:
                say(f"ok {name} ({time.monotonic() - started:.1f} s)")
            for figure in figures:
                say(f"figure: {figure}")
            figures.clear()
        say("done")
        # Out of the serial port before the power goes (a drain that hangs is let go).
        drained = threading.Thread(target=termios.tcdrain, args=(result.fileno(),), daemon=True)
        drained.start()
        drained.join(5)
    # At once, without stopping anything: the guest's disk is thrown away.
    run("systemctl", "poweroff", "--force", "--force")


if __name__ == "__main__":
    sys.stdout.reconfigure(line_buffering=True)
    main(sys.argv[1])
