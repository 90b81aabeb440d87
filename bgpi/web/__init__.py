"""The board in a browser: the page and its HTTP API (see `bgpi.web.server`)."""

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8700
"""Where the page is served when neither the options nor the settings file say."""


def page_url(host: str, port: int, token: str | None) -> str:
    """The page's address at `host`:`port`, with the access token when one is needed."""
    host = f"[{host}]" if ":" in host else host
    return f"http://{host}:{port}/" + (f"?token={token}" if token else "")
