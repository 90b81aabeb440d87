"""The board in a browser: the page and its HTTP API (see `bgpi.web.server`)."""
