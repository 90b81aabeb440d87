"""Reading a board profile from its file: the default one ships inside the package.

What a profile says and how its text is checked is `bgpi.board.profile` (pure); this
module only finds and reads the file.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from bgpi.board.profile import Profile, parse_profile
from bgpi.exc import ProfileError


def default_profile_path() -> Path:
    """The profile shipped with the package: the board described in ``hardware/``."""
    return Path(str(resources.files("bgpi") / "data" / "board.toml"))


def load_profile(path: str | Path | None = None) -> Profile:
    """Read and validate the profile at `path` (the default profile if None).

    Raises ProfileError listing every problem found, never a partial profile.
    """
    source = "the default profile" if path is None else str(path)
    path = default_profile_path() if path is None else Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ProfileError(source, [f"cannot read it: {error.strerror or error}"]) from None
    except UnicodeDecodeError:
        raise ProfileError(source, ["cannot read it: not UTF-8 text"]) from None
    return parse_profile(text, source)
