# On the Pico: MicroPython runs main.py at boot (firmware/README.md).
from bgfw.pico import main

main()
