"""The board described: where checkers can stand and how messages name those places.

A pure package, like `bgpi.rules` beneath it: no pin, clock or file.  The table (the
core) and the hardware (the shell) both read it, so neither needs the other to know
what "bar:white" is.
"""
