"""The one error type every command shares, in a module of its own so that the command
modules and the `bgpi` entry point can both import it without importing each other."""


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit status 2, no traceback."""
