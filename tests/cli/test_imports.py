"""What a start of the service loads: only what it uses (issue 14, the boot)."""

from __future__ import annotations

import subprocess
import sys

UNUSED_BY_RUN = ("aiohttp", "gpiozero.pins.mock", "bgpi.cli.export", "bgpi.cli.hint", "bgpi.cli.replay",
                 "bgpi.cli.diag", "bgpi.cli.selfplay", "bgpi.cli.rules")


def loaded_after(code: str) -> set[str]:
    """The modules of `UNUSED_BY_RUN` that a fresh interpreter has loaded after `code`."""
    probe = f"import sys\n{code}\nprint(' '.join(m for m in {UNUSED_BY_RUN!r} if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(result.stdout.split())


def test_bgpi_run_loads_neither_the_other_commands_nor_the_page_server_nor_the_mock_pins():
    assert loaded_after("from bgpi.cli import build_parser; build_parser('run')") == set()
    assert loaded_after("import bgpi.hardware.board") == set()


def test_help_and_unknown_commands_still_know_every_command():
    loaded = loaded_after("from bgpi.cli import build_parser; build_parser(None)")
    assert {"bgpi.cli.export", "bgpi.cli.rules", "bgpi.cli.replay"} <= loaded
    assert "aiohttp" not in loaded  # the page's server waits until a page is served
