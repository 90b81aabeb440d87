"""The board's senses and lights: profile, reed-switch scanner, LEDs, buttons and dice.

Everything here runs unchanged on a Raspberry Pi and on gpiozero's mock pins
(`bgpi.hardware.mockboard`), so tests and the simulator exercise the code the board runs.
The pure parts (`frames`, `debounce`, `leds.limit_frame`, `dice` patterns) read no clock
and touch no pin, so the pure core can use them directly.
"""
