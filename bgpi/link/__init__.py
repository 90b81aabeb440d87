"""The host side of the co-processor link: a board whose switches, buttons and LEDs are
a Raspberry Pi Pico's, reached over USB serial (``firmware/PROTOCOL.md``)."""
