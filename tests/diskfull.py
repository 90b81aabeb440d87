"""A disk that fills up, for the journals' tests: `os.write` as such a disk answers."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable


def refusing_writes(refusals: int, partial: int) -> Callable[[int, bytes], int]:
    """`os.write` that refuses the next `refusals` writes with ENOSPC, each after the
    first `partial` bytes of it got onto the disk (as a full disk leaves a line cut
    short), and writes as usual from then on."""
    real_write, left = os.write, [refusals]

    def write(fd: int, data: bytes) -> int:
        if left[0]:
            left[0] -= 1
            real_write(fd, bytes(data[:partial]))
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    return write
