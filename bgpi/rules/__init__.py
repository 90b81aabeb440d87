"""The rules of backgammon, pure: positions, dice, steps and plays, legal plays and the
play tree, the cube, results, matches and money sessions, and GNU Backgammon's IDs,
XGID, move notation and .mat records.  Nothing here knows the physical board."""
