"""The board's senses and lights: reed-switch scanner, LEDs, buttons and dice.

Everything here runs unchanged on a Raspberry Pi and on gpiozero's mock pins
(`bgpi.hardware.mockboard`), so tests and the simulator exercise the code the board runs.
What the board is (its profile, locations, colours, the dice's pips) is `bgpi.board`,
pure, which the table reads too; this package reads the profile's file and drives pins.
"""
