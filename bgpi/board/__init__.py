"""The board described: where checkers can stand, what a board is built of, what its lights show.

A pure package, like `bgpi.rules` beneath it: no pin, clock or file.  The table (the
core) and the hardware (the shell) both read it, so neither needs the other to know
what "bar:white" is:

* `locations`: the places a checker can be and how messages name them;
* `profile`: one physical board (switches, wiring, LED chain, buttons) and the check of
  its TOML text (`bgpi.hardware.profile` reads the file);
* `colours`: the colour of an LED;
* `pips`: how a die shows a face on its seven LEDs.
"""
