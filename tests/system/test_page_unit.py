"""The page's drop-in (systemd/page.conf): the service keeps no network unless the settings
file enables the page, and stays well sandboxed when it does."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.system.test_install import (
    MAX_EXPOSURE,
    REPO,
    UNIT,
    install,
    needs_systemd_analyze,
    sandbox_tools_missing,
    stand_in_unit,
)

PAGE = REPO / "systemd" / "page.conf"


def unit_with_page(tmp_path: Path) -> Path:
    """The unit and its drop-in as systemd would find them."""
    unit = stand_in_unit(tmp_path)
    (tmp_path / "bgpi.service.d").mkdir()
    shutil.copy(PAGE, tmp_path / "bgpi.service.d" / "page.conf")
    return unit


def test_without_the_page_the_service_has_no_network():
    lines = UNIT.read_text().splitlines()
    assert "PrivateNetwork=yes" in lines and "RestrictAddressFamilies=AF_UNIX" in lines
    settings = (REPO / "systemd" / "bgpi.toml").read_text()
    assert re.search(r"^\[page\]\nenabled = false$", settings, re.MULTILINE)


def test_the_drop_in_opens_the_network_for_the_page_only():
    lines = PAGE.read_text().splitlines()
    assert "PrivateNetwork=no" in lines
    assert "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6" in lines
    assert not any(line.startswith("IPAddressDeny=") for line in lines)  # the unit's "any" stays


@needs_systemd_analyze
def test_systemd_verifies_the_unit_with_the_page_and_its_exposure_stays_low(tmp_path):
    unit = unit_with_page(tmp_path)
    done = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout + done.stderr == ""
    done = subprocess.run(["systemd-analyze", "security", "--offline=true", "--no-pager", str(unit)],
                          capture_output=True, text=True, check=False)
    assert re.search(r"✗ PrivateNetwork=", done.stdout)  # the drop-in was read
    exposure = re.search(r"Overall exposure level for bgpi\.service: (\d+\.\d)", done.stdout)
    assert exposure and float(exposure[1]) <= MAX_EXPOSURE


@pytest.mark.skipif(sandbox_tools_missing() is not None, reason=str(sandbox_tools_missing()))
def test_the_installer_adds_the_drop_in_only_while_the_page_is_enabled(tmp_path):
    root = tmp_path / "root"
    (root / "etc" / "bgpi").mkdir(parents=True)
    for name in ("passwd", "group", "shadow", "gshadow"):
        (root / "etc" / name).write_text("root:x:0:0:root:/root:/bin/bash\n" if name == "passwd" else "")
    settings = root / "etc" / "bgpi" / "bgpi.toml"
    enabled = (REPO / "systemd" / "bgpi.toml").read_text().replace("enabled = false", "enabled = true")
    settings.write_text(enabled)
    drop_in = root / "etc" / "systemd" / "system" / "bgpi.service.d" / "page.conf"
    assert "the page is enabled" in install(root).stdout
    assert drop_in.read_text() == PAGE.read_text()
    settings.write_text(enabled.replace("enabled = true", "enabled = false"))
    install(root)
    assert not drop_in.exists()


REMOTE = REPO / "systemd" / "remote.conf"


def test_the_remote_drop_in_opens_the_network_to_any_broker():
    lines = REMOTE.read_text().splitlines()
    assert "PrivateNetwork=no" in lines and "IPAddressAllow=any" in lines
    assert "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6" in lines


@pytest.mark.skipif(sandbox_tools_missing() is not None, reason=str(sandbox_tools_missing()))
def test_the_installer_adds_the_remote_drop_in_only_while_a_game_is_set(tmp_path):
    root = tmp_path / "root"
    (root / "etc" / "bgpi").mkdir(parents=True)
    for name in ("passwd", "group", "shadow", "gshadow"):
        (root / "etc" / name).write_text("root:x:0:0:root:/root:/bin/bash\n" if name == "passwd" else "")
    settings = root / "etc" / "bgpi" / "bgpi.toml"
    default = (REPO / "systemd" / "bgpi.toml").read_text()
    settings.write_text(default.replace('# game = "club-7"', 'game = "club-7"'))
    drop_in = root / "etc" / "systemd" / "system" / "bgpi.service.d" / "remote.conf"
    assert "a remote game is set" in install(root).stdout
    assert drop_in.read_text() == REMOTE.read_text()
    settings.write_text(default)
    install(root)
    assert not drop_in.exists()
