"""The shell: what runs a table on a board.

It runs the pure core on a board, real or simulated (`runner`, with its parts `scanning`,
`rolling` and `lighting`), hands every committed event to the journal before anything
shows it and then to the registered sinks (`sinks`, `journal`, `boardfile`), takes the
decisions and dice of opponents from outside the board (`opponents`, `advisor`), runs
board scripts (`script`, `hands`, `replay`), records sessions as scripts (`recorder`),
paces the live loop (`live`), takes typed hands on the simulated board (`console`,
`textboard`), keeps `bgpi run`'s board, journal, engine and page together (`service`)
and talks to systemd (`sdnotify`).  docs/runner.md tells how these fit together.
"""
