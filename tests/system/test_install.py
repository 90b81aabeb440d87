"""The installer (systemd/install.sh) in a throwaway root, and the unit it installs.

The installer runs for real, as root, with ``--root``: it creates the user and groups
in the root's /etc, a virtual environment under its /opt/bgpi with bgpi and the [pi]
packages from the package index, the default settings and the enabled unit.  Twice
(nothing changes the second time, edited settings are kept), then ``--uninstall``.
The unit is checked with systemd's own tools: ``systemd-analyze verify`` with no
warnings, ``systemd-analyze security`` exposure at most 3.0.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bgpi.cli.settings import load_settings

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "systemd" / "bgpi.service"
MAX_EXPOSURE = 3.0

needs_systemd_analyze = pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                                           reason="systemd-analyze is not installed")


def sandbox_tools_missing() -> str | None:
    if os.geteuid() != 0:
        return "the installer creates users: it runs as root"
    missing = [tool for tool in ("useradd", "groupadd", "systemctl") if shutil.which(tool) is None]
    return f"not installed: {', '.join(missing)}" if missing else None


@pytest.fixture
def throwaway_root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    for name in ("passwd", "group", "shadow", "gshadow"):
        (root / "etc" / name).write_text("root:x:0:0:root:/root:/bin/bash\n" if name == "passwd" else "")
    return root


def install(root: Path, *options: str) -> subprocess.CompletedProcess:
    done = subprocess.run([str(REPO / "systemd" / "install.sh"), "--root", str(root), *options],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def entries(root: Path, name: str) -> list[str]:
    return (root / "etc" / name).read_text().splitlines()


@pytest.mark.skipif(sandbox_tools_missing() is not None, reason=str(sandbox_tools_missing()))
def test_install_is_complete_idempotent_and_undone_by_uninstall(throwaway_root):
    root = throwaway_root
    first = install(root)
    assert "creating user bgpi" in first.stdout
    (user,) = [line for line in entries(root, "passwd") if line.startswith("bgpi:")]
    assert user.endswith(":/var/lib/bgpi:/usr/sbin/nologin")
    for group in ("gpio", "spi", "dialout"):
        (line,) = [line for line in entries(root, "group") if line.startswith(f"{group}:")]
        assert line.endswith(":bgpi")
    venv = root / "opt" / "bgpi" / "venv"
    version = subprocess.run([str(venv / "bin" / "bgpi"), "--version"], capture_output=True,
                             text=True, check=True, cwd=root)
    assert version.stdout.startswith("bgpi ")
    pip_list = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "list"],
                              capture_output=True, text=True, check=True).stdout.lower()
    for package in ("lgpio", "rpi-lgpio", "gpiod", "adafruit-blinka", "gpiozero"):
        assert re.search(rf"^{package}\s", pip_list, re.MULTILINE), package
    compiled = list(venv.glob("lib/python3*/site-packages/bgpi/cli/__pycache__/run.cpython-*.pyc"))
    assert compiled
    settings = root / "etc" / "bgpi" / "bgpi.toml"
    assert settings.read_text() == (REPO / "systemd" / "bgpi.toml").read_text()
    assert str(load_settings(settings).board) == "pi"
    unit = root / "etc" / "systemd" / "system" / "bgpi.service"
    assert unit.read_text() == UNIT.read_text()
    wanted = root / "etc" / "systemd" / "system" / "multi-user.target.wants" / "bgpi.service"
    assert os.readlink(wanted) == "/etc/systemd/system/bgpi.service"
    udev_rule = root / "etc" / "udev" / "rules.d" / "60-bgpi.rules"
    modules = root / "etc" / "modules-load.d" / "bgpi.conf"
    assert 'KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"' in udev_rule.read_text()
    assert "cdc_acm" in modules.read_text().split()

    # Again: the same state, and the builder's settings are kept.
    settings.write_text(settings.read_text().replace("brightness = 0.6", "brightness = 0.3"))
    accounts = entries(root, "passwd"), entries(root, "group")
    second = install(root)
    assert "keeping the settings" in second.stdout and "creating" not in second.stdout
    assert (entries(root, "passwd"), entries(root, "group")) == accounts
    assert load_settings(settings).brightness == 0.3
    assert os.path.islink(wanted)

    install(root, "--uninstall")
    assert not unit.exists() and not os.path.lexists(wanted)
    assert not udev_rule.exists() and not modules.exists()
    assert not (root / "opt" / "bgpi").exists()
    assert not [line for line in entries(root, "passwd") if line.startswith("bgpi:")]
    assert load_settings(settings).brightness == 0.3  # settings (and games) stay


def test_the_installer_refuses_a_bad_option_in_one_line():
    done = subprocess.run([str(REPO / "systemd" / "install.sh"), "--frobnicate"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--frobnicate" in done.stderr


def stand_in_unit(directory: Path) -> Path:
    """The unit in `directory`, pointing at a stand-in for the venv's bgpi (verify needs the
    program to exist)."""
    program = directory / "opt" / "bgpi" / "venv" / "bin" / "bgpi"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    unit = directory / "bgpi.service"
    unit.write_text(UNIT.read_text().replace("/opt/bgpi/", f"{directory}/opt/bgpi/"))
    return unit


@needs_systemd_analyze
def test_systemd_verifies_the_unit_without_a_warning(tmp_path):
    unit = stand_in_unit(tmp_path)
    done = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0 and done.stdout + done.stderr == ""


@needs_systemd_analyze
def test_the_sandbox_exposure_is_at_most_3():
    done = subprocess.run(["systemd-analyze", "security", "--offline=true", "--no-pager", str(UNIT)],
                          capture_output=True, text=True, check=False)
    exposure = re.search(r"Overall exposure level for bgpi\.service: (\d+\.\d)", done.stdout)
    assert exposure, done.stdout + done.stderr
    assert float(exposure[1]) <= MAX_EXPOSURE


def test_the_unit_allows_exactly_the_boards_devices():
    lines = UNIT.read_text().splitlines()
    assert "DevicePolicy=closed" in lines and "RestartPreventExitStatus=2" in lines
    assert [line for line in lines if line.startswith("DeviceAllow=")] == [
        "DeviceAllow=char-gpiochip rw", "DeviceAllow=char-spi rw",
        "DeviceAllow=char-ttyACM rw", "DeviceAllow=char-ttyUSB rw"]
