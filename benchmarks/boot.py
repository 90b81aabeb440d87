"""The boot: from spawning `bgpi run` to its READY=1, on the simulated board.

    python benchmarks/boot.py [--runs N] [--page]

The service is a `Type=notify` unit: systemd counts it as started when the board
sends READY=1, after the journal is read back and the first table is built.  Each
run spawns `bgpi run --board sim --new --no-page` (the service's settings leave the
page off; `--page` serves it) in a fresh state directory, with its standard input
not a terminal (as under systemd), and times it from the spawn to the READY=1
datagram on a socket of ours named in $NOTIFY_SOCKET; then it is stopped.

The package's bytecode is compiled first (`python -m compileall`), as the installer
does: the service may not write it (`ProtectSystem=strict`), and without it every
start compiles every module again.

Goal (issue 14): at most 150 ms here, best of the runs.
"""

from __future__ import annotations

import argparse
import compileall
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import bgpi

READY_TIMEOUT = 30.0
"""Seconds to wait for READY=1 before the run counts as failed."""


def boot(command: list[str], folder: Path, run: int) -> float:
    """Seconds from spawning `command` to its READY=1."""
    address = str(folder / f"notify{run}")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
        notify.bind(address)
        notify.settimeout(READY_TIMEOUT)
        environment = {**os.environ, "NOTIFY_SOCKET": address}
        state = folder / f"state{run}"
        started = time.perf_counter()
        process = subprocess.Popen([*command, "--state", str(state)], env=environment,
                                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE)
        try:
            while b"READY=1" not in notify.recv(4096).split(b"\n"):
                pass
            return time.perf_counter() - started
        except TimeoutError:
            process.kill()
            sys.exit(f"no READY=1 within {READY_TIMEOUT:g} s: {process.communicate()[1].decode()[-500:]}")
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="boots to time")
    parser.add_argument("--page", action="store_true", help="serve the page as well")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    compileall.compile_dir(Path(bgpi.__file__).parent, quiet=1)
    script = Path(sys.executable).with_name("bgpi")  # the console script the unit starts
    command = [str(script)] if script.exists() else [sys.executable, "-m", "bgpi"]
    command += ["run", "--board", "sim", "--new"] + ([] if args.page else ["--no-page"])
    with tempfile.TemporaryDirectory() as folder:
        timings = sorted(boot(command, Path(folder), run) for run in range(args.runs))
    print(
        f"boot: spawn to READY=1 best {timings[0] * 1e3:.0f} ms, median {statistics.median(timings) * 1e3:.0f} ms "
        f"of {args.runs} runs ({' '.join(command[-4:])}, bytecode compiled; goal 150 ms)"
    )


if __name__ == "__main__":
    main()
