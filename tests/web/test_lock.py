"""Issue 21: the Pi's install is reproducible.  systemd/requirements-pi.txt locks the
releases the tests pass with (hashed), systemd/constraints.txt the same versions, and
both meet pyproject.toml's floors.  (Kept with the page's tests: aiohttp, the page's
server, is the dependency whose advisories started this.)"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parents[2]
LOCK = REPO / "systemd" / "requirements-pi.txt"
CONSTRAINTS = REPO / "systemd" / "constraints.txt"


def locked(path: Path) -> dict[str, str]:
    return {canonicalize_name(name): version
            for name, version in re.findall(r"^([A-Za-z0-9._-]+)==(\S+)", path.read_text(), re.MULTILINE)}


def test_the_lock_and_the_constraints_name_the_same_versions_and_every_one_is_hashed():
    assert locked(LOCK) == locked(CONSTRAINTS)
    entries = re.split(r"\n(?=[a-z0-9])", LOCK.read_text().split("\n\n")[-1].strip())
    assert all("--hash=sha256:" in entry for entry in entries if "==" in entry)


def test_the_locked_versions_meet_the_floors_and_are_the_ones_tested():
    versions = locked(LOCK)
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    for text in [*project["dependencies"], *project["optional-dependencies"]["pi"]]:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert requirement.specifier.contains(versions[name]), (text, versions[name])
    for name, version in versions.items():
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue  # not in this venv (setuptools' own, say)
        if name not in ("setuptools", "packaging"):  # the tools of the venv itself
            assert installed == version, (name, installed, version)


@pytest.mark.slow
def test_the_lock_resolves_on_this_machine_with_its_hashes(tmp_path):
    """pip resolves and fetches every locked file this machine would install, checking the
    hashes (the package index must be reachable)."""
    done = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--require-hashes", "--no-deps",
                           "-r", str(LOCK), "-d", str(tmp_path)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert len(list(tmp_path.iterdir())) == len(locked(LOCK))
