"""Run by Debian's gnubg (``gnubg -t -q -p gnubg_reads.py``, which passes the script no
arguments: the files come in the environment): reads each record $GNUBG_READS names
(one ``import mat FILE`` or ``load match FILE`` command a line) and writes what gnubg
made of each, `gnubg.match()` with the boards, as one JSON list to $GNUBG_READ_OUT.
With $GNUBG_ANALYSE set, each match is analysed first (``analyse match`` at 0 plies),
and the analysis comes with it; with $GNUBG_EXPORT, gnubg writes each match it read as
a .mat file of its own there, numbered from 1 (``export match mat DIR/N.mat``)."""

import json
import os

import gnubg

commands_file, out_file = os.environ["GNUBG_READS"], os.environ["GNUBG_READ_OUT"]
analyse = bool(os.environ.get("GNUBG_ANALYSE"))
export = os.environ.get("GNUBG_EXPORT")
if analyse:
    gnubg.command("set analysis chequerplay evaluation plies 0")
    gnubg.command("set analysis cubedecision evaluation plies 0")
read = []
with open(commands_file) as commands:
    for number, command in enumerate(commands.read().splitlines(), start=1):
        gnubg.command(command)
        if export:
            gnubg.command(f"export match mat {export}/{number}.mat")
        if analyse:
            gnubg.command("analyse match")
        read.append(gnubg.match(analysis=int(analyse), boards=1, statistics=0, verbose=0))
with open(out_file, "w") as out:
    json.dump(read, out)
