"""The table: the pure core that follows a game on the physical board.

`tracker` explains switch counts as a partial play of the roll, `controller.Table` is
the table's event-sourced state machine (its inputs in `inputs`, its events in
`events`, its parts in `state`, `watch`, `turn`, `doubling`, `advice` and `view`), and
`lights` turns LED roles into colours and blink phases.  Nothing here reads a clock, a
pin or a file: the shell (`bgpi.shell`) feeds it inputs and carries out its effects,
so the same core runs on the board, in the simulator and in the tests.
"""
