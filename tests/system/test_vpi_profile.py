"""The virtual Pi's test profile (tests/system/vpi/guest/profile.toml) is the default
profile with only its sensor timing slowed for the guest's multiplexer emulator."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from bgpi.hardware.profile import load_profile

VPI_PROFILE = Path(__file__).parent / "vpi" / "guest" / "profile.toml"


def test_the_vpi_profile_is_the_default_but_for_its_sensor_timing():
    default, slowed = load_profile(), load_profile(VPI_PROFILE)
    timing = {"settle_us": 1000.0, "scan_hz": 20.0, "debounce_ms": 100.0}
    assert {name: getattr(slowed.sensors, name) for name in timing} == timing
    assert slowed.sensors.debounce_frames == 3  # one late read of the emulator's is never accepted
    assert dataclasses.replace(slowed, source=default.source,
                               sensors=dataclasses.replace(slowed.sensors, **{
                                   name: getattr(default.sensors, name) for name in timing})) == default
