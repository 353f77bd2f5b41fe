"""How a vector is kept in the index: its direction, in one signed byte a value.

A float32 vector of multilingual-e5-small is 1,536 bytes, ten times the dialogue turn
it stands for; packed it is 384, and a row of the vectors table fits in its page
instead of spilling into a page of its own. Only the direction is kept, since
similarity is the cosine, which ignores length.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Sequence


def pack(vector: Sequence[float]) -> bytes:
    """The direction of ``vector`` in one signed byte a value (the largest scaled to
    ±127): a quarter of float32's size. With multilingual-e5-small a question's cosine
    to a turn moves by 0.00015 on average, 0.0012 at most (``make bench-real``)."""
    top = max((abs(x) for x in vector), default=0.0) or 1.0
    return array("b", (round(x * 127 / top) for x in vector)).tobytes()


def unpack(blob: bytes) -> array[float]:
    """The unit vector a packed blob points along: a dot product of two is their cosine."""
    values = array("b")
    values.frombytes(blob)
    return unit(values)


def unit(vector: Sequence[float]) -> array[float]:
    norm = math.sqrt(math.fsum(x * x for x in vector)) or 1.0
    return array("d", (x / norm for x in vector))


def int8_from_float32(blob: bytes) -> bytes:
    """A vector stored as float32 (index schema 2 to 6), packed as it is stored now."""
    values = array("f")
    values.frombytes(blob)
    return pack(values)
