"""bgpi co-processor firmware: scans the reed switches, debounces them, reports switch
changes and button presses, and drives the NeoPixels, for a host running bgpi.

MicroPython for the RP2040 (Raspberry Pi Pico); every module also runs under CPython,
where the tests and the simulated board (``firmware/sim``) put a fake `machine` first on
the path.  See ``firmware/PROTOCOL.md`` for the line protocol.
"""

VERSION = "1.0.0"
"""The firmware's own version, sent in its HELLO."""
