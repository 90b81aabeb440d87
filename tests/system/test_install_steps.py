"""The installer's steps one by one: systemd/install.sh sourced in bash, with the commands
it would run on a live system (systemctl, journalctl, uname, apt-get) replaced by stand-ins
on PATH that log how they were called.

A sourced installer only defines its functions; ``--root`` points it at a throwaway root.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
INSTALLER = REPO / "systemd" / "install.sh"

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the installer runs as root")


@pytest.fixture
def stand_ins(tmp_path: Path):
    """A directory of stand-in commands put first on PATH: stand_ins(name, script body)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()

    def add(name: str, body: str) -> None:
        command = bin_dir / name
        command.write_text(f"#!/bin/sh\necho \"{name} $*\" >>{tmp_path / 'calls'}\n{body}\n")
        command.chmod(0o755)

    add.bin = bin_dir  # type: ignore[attr-defined]
    add.calls = tmp_path / "calls"  # type: ignore[attr-defined]
    return add


def run_step(root: Path, stand_ins, step: str) -> subprocess.CompletedProcess:
    """Source the installer with --root `root`, then run `step` (bash code)."""
    root.mkdir(exist_ok=True)
    env = {**os.environ, "PATH": f"{stand_ins.bin}:{os.environ['PATH']}"}
    return subprocess.run(["bash", "-c", f'source "$1" --root "$2" && {step}', "bash", str(INSTALLER), str(root)],
                          capture_output=True, text=True, env=env, timeout=60, check=False)


def calls(stand_ins) -> list[str]:
    return stand_ins.calls.read_text().splitlines() if stand_ins.calls.exists() else []


def test_sourcing_the_installer_runs_nothing(tmp_path, stand_ins):
    done = run_step(tmp_path / "root", stand_ins, "true")
    assert done.returncode == 0 and done.stdout == done.stderr == ""
    assert list((tmp_path / "root").iterdir()) == []


def test_a_first_start_that_fails_shows_the_status_and_journal_and_says_why_in_one_line(tmp_path, stand_ins):
    stand_ins("systemctl", 'case "$*" in restart*) exit 1 ;; *status*) echo "× bgpi.service - bgpi backgammon board"; '
                           'echo "     Active: failed (Result: exit-code)"; exit 3 ;; esac')
    stand_ins("journalctl", "echo 'Starting bgpi.service - bgpi backgammon board...'\n"
                            "echo 'bgpi run: cannot open the pi board: GPIO22 (select S2) busy: "
                            "another program holds it'\n"
                            "echo 'bgpi.service: Main process exited, code=exited, status=2/INVALIDARGUMENT'")
    done = run_step(tmp_path / "root", stand_ins, "start_service")
    assert done.returncode == 1
    assert "Active: failed (Result: exit-code)" in done.stdout
    assert "status=2/INVALIDARGUMENT" in done.stdout
    assert "sudo systemctl restart bgpi" in done.stdout
    assert done.stderr == ("bgpi install: the service did not start: cannot open the pi board: "
                           "GPIO22 (select S2) busy: another program holds it\n")


def test_a_first_start_that_works_says_where_to_look(tmp_path, stand_ins):
    stand_ins("systemctl", "exit 0")
    done = run_step(tmp_path / "root", stand_ins, "start_service")
    assert done.returncode == 0 and "started; see: systemctl status bgpi" in done.stdout
    assert calls(stand_ins) == ["systemctl restart bgpi.service"]


def test_without_a_rule_for_the_groups_the_installer_gives_the_devices_to_them(tmp_path, stand_ins):
    root = tmp_path / "root"
    done = run_step(root, stand_ins, "install_device_access")
    assert done.returncode == 0, done.stderr
    rule = (root / "etc/udev/rules.d/60-bgpi.rules").read_text().splitlines()
    assert rule[1:] == ['SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"',
                        'SUBSYSTEM=="spidev", KERNEL=="spidev*", GROUP="spi", MODE="0660"']
    modules = (root / "etc/modules-load.d/bgpi.conf").read_text().splitlines()
    assert [line for line in modules if not line.startswith("#")] == ["cdc_acm", "usbserial"]
    # Again: the same files, its own rule not taken for the system's.
    run_step(root, stand_ins, "install_device_access")
    assert (root / "etc/udev/rules.d/60-bgpi.rules").read_text().splitlines() == rule


def test_raspberry_pi_oss_own_rules_are_left_alone(tmp_path, stand_ins):
    root = tmp_path / "root"
    (root / "etc/udev/rules.d").mkdir(parents=True)
    (root / "etc/udev/rules.d/99-com.rules").write_text(
        'SUBSYSTEM=="spidev", GROUP="spi", MODE="0660"\nSUBSYSTEM=="gpio", GROUP="gpio", MODE="0660"\n')
    done = run_step(root, stand_ins, "install_device_access")
    assert done.returncode == 0, done.stderr
    assert not (root / "etc/udev/rules.d/60-bgpi.rules").exists()
    assert (root / "etc/modules-load.d/bgpi.conf").exists()


@pytest.mark.parametrize(("machine", "compiler", "installs"), [
    ("armv7l", False, True), ("armv7l", True, False), ("aarch64", False, False), ("x86_64", False, False)])
def test_32_bit_arm_gets_a_compiler_for_the_packages_without_wheels(tmp_path, stand_ins, monkeypatch,
                                                                   machine, compiler, installs):
    stand_ins("uname", f"echo {machine}")
    stand_ins("apt-get", "exit 0")
    # The headers are there (the host's python3 is real); the compiler ($CC, as pip's) a stand-in or absent.
    stand_ins("cc", "exit 0")
    monkeypatch.setenv("CC", str(stand_ins.bin / "cc") if compiler else str(tmp_path / "no-cc"))
    done = run_step(tmp_path / "root", stand_ins, "install_build_tools")
    assert done.returncode == 0, done.stderr
    assert ("apt-get install -y gcc python3-dev" in calls(stand_ins)) == installs
