"""The pairing code two players share, and what their boards make of it (docs/remote.md, "Pairing").

One player's ``bgpi pair`` draws a code; both players give it to their boards (a file,
``$BGPI_PAIRING_CODE``, or the settings file's ``[remote] pairing_code_file``).  The
code is 16 random bytes (128 bits: nobody guesses it, online or offline) and a 4-byte
checksum, written in base32 as 8 groups of 4 letters and digits; a mistyped letter is
caught by the checksum with a one-line error before anything is sent.  From the secret
and the game ID each board derives, with HKDF-SHA256, one key per side (what that side's
board seals its messages with: `bgpi.remote.sealing`) and the client ID the broker knows
it by, which nobody without the code can name.

A board keeps its pairing in its state directory (`KEY_NAME`, mode 0600, written whole
and fsync'd before it is used), so that a power cut never loses it and a restarted
board needs no code.

>>> code = new_code(bytes(range(16)))
>>> code
'AAAQ-EAYE-AUDA-OCAJ-BIFQ-YDIO-B64E-WJPP'
>>> read_code(code.lower().replace("-", " ")) == bytes(range(16))
True
>>> read_code('AAAQ-EAYE-AUDA-OCAJ-BIFQ-YDIO-B64E-WJPT')
Traceback (most recent call last):
...
bgpi.exc.PairingError: the pairing code does not check out: a letter or digit is mistyped
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from bgpi.exc import PairingError
from bgpi.rules.position import Side

SECRET_BYTES = 16
"""The random part of a code: 128 bits."""
CHECK_BYTES = 4
"""The checksum's part: a mistyped code passes it once in four billion tries."""
CODE_ENV = "BGPI_PAIRING_CODE"
KEY_NAME = "remote.key"
"""The board's pairing, in its state directory."""

_LETTERS = (SECRET_BYTES + CHECK_BYTES) * 8 // 5  # 32: base32 without padding
_TAG = b"bgpi-pairing-v1"
_LOOK_ALIKE = str.maketrans({"0": "O", "1": "I", "8": "B"})  # digits base32 never uses, read as meant


def new_code(secret: bytes | None = None) -> str:
    """A fresh pairing code (or the code of `secret`, 16 bytes)."""
    secret = secrets.token_bytes(SECRET_BYTES) if secret is None else secret
    text = base64.b32encode(secret + _check(secret)).decode()
    return "-".join(text[at:at + 4] for at in range(0, len(text), 4))


def read_code(text: str) -> bytes:
    """The secret a pairing code holds; upper or lower case, with or without its dashes or spaces.

    :raises PairingError: (one line) for text that is no code, or a code whose checksum
        does not match: a mistyped letter."""
    letters = "".join(text.split()).replace("-", "").upper().translate(_LOOK_ALIKE)
    if len(letters) != _LETTERS:
        raise PairingError(f"a pairing code has {_LETTERS} letters and digits (8 groups of 4); this one has "
                           f"{len(letters)}")
    try:
        raw = base64.b32decode(letters)
    except (binascii.Error, ValueError):
        wrong = next(char for char in letters if char not in "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        raise PairingError(f"a pairing code holds letters and the digits 2 to 7, not {wrong!r}") from None
    secret, check = raw[:SECRET_BYTES], raw[SECRET_BYTES:]
    if not hmac.compare_digest(check, _check(secret)):
        raise PairingError("the pairing code does not check out: a letter or digit is mistyped")
    return secret


def _check(secret: bytes) -> bytes:
    return hashlib.sha256(_TAG + secret).digest()[:CHECK_BYTES]


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two boards paired for game `game` by the code whose secret is `secret`."""

    game: str
    secret: bytes

    def __repr__(self) -> str:  # the secret never goes to a log or a traceback
        return f"Pairing(game={self.game!r})"

    def key(self, side: Side) -> bytes:
        """The key the board playing `side` seals its messages with (32 bytes): bound to
        the game and the side, so that a message cannot pass for another game's or for
        the other side's."""
        return self._derive(f"key|{self.game}|{side.label}")

    def client_id(self, side: Side) -> str:
        """The client ID of the board playing `side` on the broker: the same at every
        start (the broker keeps its session), and nobody without the code can take it."""
        return "bgpi-" + self._derive(f"client|{self.game}|{side.label}")[:12].hex()

    def _derive(self, what: str) -> bytes:
        # Loaded here, as paho is: `bgpi run` checks a code before it opens anything.
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.kdf.hkdf import HKDF

        return HKDF(algorithm=hashes.SHA256(), length=32, salt=_TAG, info=what.encode()).derive(self.secret)


# -- the board's pairing, kept -----------------------------------------------------------


def load_pairing(state_dir: Path) -> Pairing | None:
    """The pairing kept in `state_dir`; None if there is none.

    :raises PairingError: for a file that cannot be read or is not a pairing."""
    path = state_dir / KEY_NAME
    try:
        data = json.loads(path.read_text())
        return Pairing(str(data["game"]), bytes.fromhex(data["secret"]))
    except FileNotFoundError:
        return None
    except OSError as error:
        raise PairingError(f"cannot read the pairing {path}: {error.strerror or error}") from None
    except (ValueError, KeyError, TypeError):
        raise PairingError(f"{path} is no pairing: give the pairing code again") from None


def save_pairing(state_dir: Path, pairing: Pairing) -> None:
    """Keep `pairing` in `state_dir`, readable by this user only; returns once it is on
    the disk.  The file is written beside and renamed over the old one: a power cut
    leaves the old pairing or the new one, never half of either.

    :raises PairingError: if it cannot be written."""
    path = state_dir / KEY_NAME
    spare = state_dir / (KEY_NAME + ".new")
    text = json.dumps({"v": 1, "game": pairing.game, "secret": pairing.secret.hex()})
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
        spare.unlink(missing_ok=True)
        fd = os.open(spare, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        try:
            os.write(fd, text.encode())
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(spare, path)
        directory = os.open(state_dir, os.O_RDONLY | os.O_CLOEXEC)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
    except OSError as error:
        raise PairingError(f"cannot keep the pairing in {state_dir}: {error.strerror or error}") from None


def pair(state_dir: Path, game: str, code: str | None, keep: bool = True) -> tuple[Pairing, str | None]:
    """The pairing a board of game `game` uses: the one `code` gives (kept in `state_dir`
    before it is used, unless not `keep`: a check), else the one kept there.  With it, a
    line to say, if any.

    :raises PairingError: for a code that does not check out, no code and none kept, or a
        kept pairing of another game (a new game needs its code)."""
    kept = load_pairing(state_dir)
    if code is not None:
        pairing = Pairing(game, read_code(code))
        if pairing != kept and keep:
            save_pairing(state_dir, pairing)
            return pairing, f"paired for game {game}: the code is kept in {state_dir / KEY_NAME}"
        return pairing, None
    if kept is None:
        raise PairingError(f"game {game} needs its pairing code (bgpi pair draws one; both boards are given "
                           f"the same): --pairing-code-file FILE or ${CODE_ENV}")
    if kept.game != game:
        raise PairingError(f"this board is paired for game {kept.game}, not {game}: give game {game}'s pairing "
                           "code")
    return kept, None
