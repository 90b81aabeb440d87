"""The real board's whole import path, with the board detection forced to a Pi 4 and a Pi 5.

Each case runs in a fresh interpreter (Blinka detects the board once, at import):
Blinka is told the board by ``BLINKA_FORCEBOARD``/``BLINKA_FORCECHIP``, rpi-lgpio by
``RPI_LGPIO_REVISION``, gpiozero by its revision hook.  Everything must then import and
run up to the moment a device file is opened (``/dev/spidev0.0``, ``/dev/gpiochip*``),
which this machine has not: an ImportError, or Blinka's "platform library not found",
is the failure this guards against.  And every distribution the path imported must be
one that ``pip install 'bgpi[pi]'`` installs on a Pi.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from importlib import metadata

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement

PI_PATH = r"""
import json, sys
from gpiozero.pins.local import LocalPiFactory
LocalPiFactory._get_revision = lambda self: int(sys.argv[1], 16)

from bgpi.hardware.leds import open_pixels
from bgpi.hardware.profile import load_profile
from bgpi.hardware.scanner import Scanner

profile = load_profile()
outcome = {}
for part, opening in (("leds", lambda: open_pixels(profile.leds)),
                      ("pins", lambda: Scanner(profile.sensors))):
    try:
        opening()
        outcome[part] = "opened"
    except Exception as error:
        outcome[part] = f"{type(error).__name__}: {error}"
outcome["modules"] = sorted({name.partition(".")[0] for name in sys.modules})
print(json.dumps(outcome))
"""

PIS = {
    # name: (BLINKA_FORCEBOARD, revision code)
    "Pi 4": ("RASPBERRY_PI_4B", "c03111"),
    "Pi 5": ("RASPBERRY_PI_5", "d04170"),
}


def run_pi_path(pi: str, factory: str, cwd) -> dict:
    board, revision = PIS[pi]
    env = {**os.environ, "BLINKA_FORCEBOARD": board, "BLINKA_FORCECHIP": "BCM2XXX",
           "RPI_LGPIO_REVISION": revision, "GPIOZERO_PIN_FACTORY": factory}
    # lgpio makes its notification pipe in the working directory.
    done = subprocess.run([sys.executable, "-c", PI_PATH, revision], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.parametrize("factory", ["lgpio", "rpigpio"])
@pytest.mark.parametrize("pi", sorted(PIS))
def test_the_pi_path_imports_and_stops_only_at_a_device_file(pi, factory, tmp_path):
    outcome = run_pi_path(pi, factory, tmp_path)
    assert outcome["leds"] == "OSError: /dev/spidev0.0 does not exist"
    assert outcome["pins"] == "error: 'can not open gpiochip'"  # lgpio's, under either factory


def pi_requirements() -> set[str]:
    """Every distribution `pip install 'bgpi[pi]'` installs on a 64-bit Pi, by normalised name."""
    environment = {**default_environment(), "platform_machine": "aarch64", "sys_platform": "linux"}
    found: set[str] = set()
    pending = [("bgpi", "pi")]
    while pending:
        name, extra = pending.pop()
        key = normalise(name)
        if (key, extra) in found:
            continue
        found.add((key, extra))
        for text in metadata.requires(name) or ():
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({**environment, "extra": extra}):
                pending += [(requirement.name, extra) for extra in requirement.extras or [""]]
    return {name for name, _ in found}


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_distribution_the_pi_path_imports_is_installed_by_the_pi_extra(tmp_path):
    modules = run_pi_path("Pi 5", "lgpio", tmp_path)["modules"]
    distributions = metadata.packages_distributions()
    imported = {normalise(dist) for module in modules for dist in distributions.get(module, ())}
    assert {"lgpio", "gpiod", "adafruit-blinka", "gpiozero"} <= imported
    assert imported <= pi_requirements()
