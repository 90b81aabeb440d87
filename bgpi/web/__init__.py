"""The board in a browser: the page and its HTTP API (see `bgpi.web.server`)."""

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8700
"""Where the page is served when neither the options nor the settings file say."""
