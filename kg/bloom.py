"""A Bloom filter: a fixed-size set that may answer "maybe seen" for an item
never added, but never "not seen" for one that was. Used to write each triple
of a large store once without holding every triple in memory: only the
"maybe" answers need an exact check.
"""

from __future__ import annotations

import math
from typing import Hashable


class BloomFilter:
    def __init__(self, capacity: int, error_rate: float = 0.01):
        capacity = max(1, capacity)
        self.bits = max(64, int(-capacity * math.log(error_rate) / math.log(2) ** 2))
        self.hashes = max(1, round(self.bits / capacity * math.log(2)))
        self._array = bytearray((self.bits + 7) // 8)

    def _positions(self, item: Hashable):
        # Double hashing: k positions from the two halves of one 64-bit hash.
        h = hash(item) & 0xFFFF_FFFF_FFFF_FFFF
        h1, h2 = h & 0xFFFF_FFFF, (h >> 32) | 1
        for i in range(self.hashes):
            yield (h1 + i * h2) % self.bits

    def add(self, item: Hashable) -> bool:
        """Add `item`; True if it may have been added before."""
        seen = True
        arr = self._array
        for pos in self._positions(item):
            byte, bit = pos >> 3, 1 << (pos & 7)
            if not arr[byte] & bit:
                seen = False
                arr[byte] |= bit
        return seen

    def __contains__(self, item: Hashable) -> bool:
        arr = self._array
        return all(arr[pos >> 3] & (1 << (pos & 7)) for pos in self._positions(item))

    def __len__(self) -> int:
        return len(self._array)
