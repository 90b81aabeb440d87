"""Dice neither board can choose: commit and reveal (docs/remote.md, "Dice").

For roll k of a session each board draws a secret of `SECRET_BYTES` random bytes, sends
its `commitment` (a hash that binds it to the secret without showing it) and, once it has
the other's commitment, the secret itself.  The dice are `dice_of` both secrets: neither
board knows the other's secret before its own is fixed, so neither can aim at a roll.  The
last to reveal can only refuse to reveal (its board then loses the connection, not the
game); a secret that does not match its commitment is caught by `check_reveal`.
"""

from __future__ import annotations

import hashlib
import hmac

from bgpi.exc import DiceCheatError
from bgpi.rules.position import Side

SECRET_BYTES = 32
_TAG = b"bgpi-dice-v1"
_FAIR = 252  # the largest multiple of 6 a byte holds: bytes from 252 up would favour 1..4


def commitment(secret: bytes) -> str:
    """The hash a board sends before its secret (64 hex digits)."""
    return hashlib.sha256(_TAG + secret).hexdigest()


def check_reveal(roll: int, secret: bytes, committed: str, side: Side | None = None) -> None:
    """Nothing, if `secret` is the one `committed` (the other board's commitment) binds.

    :raises DiceCheatError: naming the roll, if it is not."""
    if len(secret) != SECRET_BYTES or not hmac.compare_digest(commitment(secret), committed):
        who = f"the other board's ({side.label})" if side is not None else "the other board's"
        raise DiceCheatError(f"{who} dice secret for roll {roll} does not match its commitment")


def dice_of(game: str, roll: int, white_secret: bytes, black_secret: bytes) -> tuple[int, int]:
    """The two dice of roll `roll` of game `game` from both boards' secrets (for the
    opening roll: white's die, then black's).  Each die is a byte of SHA-256 over both
    secrets below 252, taken mod 6: every face equally likely."""
    seed = b"|".join((_TAG, game.encode(), str(roll).encode(), white_secret, black_secret))
    dice: list[int] = []
    block = 0
    while len(dice) < 2:  # 32 bytes a block: a second block is needed about once in 10**60 rolls
        digest = hashlib.sha256(seed + block.to_bytes(4, "big")).digest()
        dice.extend(byte % 6 + 1 for byte in digest if byte < _FAIR)
        block += 1
    return dice[0], dice[1]
