"""Records of a session for other programs: the table log written as GNU Backgammon reads it.

`matfile` writes the Jellyfish .mat text (``import mat``), `sgffile` SGF (``load match``).
Both read the table log (`bgpi.table.events` names its kinds) and the rules, and nothing
else: pure, like the core beneath them.
"""
