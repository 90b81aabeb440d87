"""Sealed messages: what goes on the broker between two paired boards (docs/remote.md, "Sealing").

Each board seals what it publishes on its ``msg`` and ``presence`` topics with its own
side's key (`bgpi.remote.pairing.Pairing.key`) in ChaCha20-Poly1305, an AEAD: the
content is private, and any change to it, or to the place it claims, is caught.  A
sealed payload is::

    version (1 byte, 1) | number (8 bytes, big-endian) | nonce (12 random bytes) | ciphertext and tag

The number is the message's ``seq`` (0 on the presence topic), in clear so that a
duplicate is known without opening it, and bound with the game, the sender's side and the
channel as the associated data: a message moved to another game, side, topic or number
does not open.  The nonce is random for each sealing (a message sent again is sealed
anew), 96 bits, far from repeating in the few thousand messages of a game.

>>> from bgpi.remote.pairing import Pairing
>>> seal = Seal(Pairing("club-7", bytes(16)))
>>> sealed = seal.seal(Side.WHITE, Channel.MSG, 12, b'{"kind": "bye"}')
>>> seal.open(Side.WHITE, Channel.MSG, sealed)
(12, b'{"kind": "bye"}')
>>> seal.open(Side.BLACK, Channel.MSG, sealed)
Traceback (most recent call last):
...
bgpi.exc.SealError: a message on black's msg topic that is not sealed with black's key for game club-7
"""

from __future__ import annotations

import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from bgpi.exc import SealError
from bgpi.remote.messages import MAX_BYTES
from bgpi.remote.pairing import Pairing
from bgpi.remote.topics import Channel
from bgpi.rules.position import Side

VERSION = 1
_NONCE = 12
_TAG = 16
_HEAD = 1 + 8 + _NONCE
OVERHEAD = _HEAD + _TAG
"""What sealing adds to a message: 37 bytes."""
MAX_SEALED = MAX_BYTES + OVERHEAD
"""The largest payload read from the broker: a message of `MAX_BYTES`, sealed."""


class Seal:
    """The sealing of game `pairing.game`'s messages, both sides' keys."""

    def __init__(self, pairing: Pairing) -> None:
        self.game = pairing.game
        self._aeads = {side: ChaCha20Poly1305(pairing.key(side)) for side in (Side.WHITE, Side.BLACK)}

    def seal(self, sender: Side, channel: Channel, number: int, plaintext: bytes) -> bytes:
        """`plaintext` sealed by the board playing `sender`, to publish on its `channel` as message `number`."""
        nonce = os.urandom(_NONCE)
        head = bytes([VERSION]) + number.to_bytes(8, "big") + nonce
        return head + self._aeads[sender].encrypt(nonce, plaintext, self._bound(sender, channel, number))

    def open(self, sender: Side, channel: Channel, payload: bytes) -> tuple[int, bytes]:
        """The number and the plaintext of `payload`, heard on `sender`'s `channel` topic.

        :raises SealError: (one line) for a payload too long, of another version, or that
            does not open: forged, or sealed for another game, side, topic or number."""
        if len(payload) > MAX_SEALED:
            raise SealError(f"a message of {len(payload)} bytes on {sender.label}'s {channel} topic: at most "
                            f"{MAX_SEALED} are read")
        if len(payload) < OVERHEAD or payload[0] != VERSION:
            raise SealError(f"a message on {sender.label}'s {channel} topic that is not sealed (version "
                            f"{VERSION})")
        number = int.from_bytes(payload[1:9], "big")
        try:
            plaintext = self._aeads[sender].decrypt(payload[9:_HEAD], payload[_HEAD:],
                                                    self._bound(sender, channel, number))
        except InvalidTag:
            raise SealError(f"a message on {sender.label}'s {channel} topic that is not sealed with "
                            f"{sender.label}'s key for game {self.game}") from None
        return number, plaintext

    def _bound(self, sender: Side, channel: Channel, number: int) -> bytes:
        """The associated data: where the message belongs."""
        return f"bgpi-seal-v{VERSION}|{self.game}|{sender.label}|{channel.value}|{number}".encode()
