"""The shell: what runs a table on a board.

It scans a board (real or simulated) into the pure core (`simtable`), journals every
committed event before it is shown (`journal`), runs board scripts (`script`, `replay`),
records sessions as scripts (`recorder`), paces the live loop (`live`), takes typed hands
on the simulated board (`console`, `textboard`) and talks to systemd (`sdnotify`).
"""
