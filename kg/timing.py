"""Where a streaming build spends its time, stage by stage.

In a stream the stages interleave (read one abstract, extract it, make its
quads, load a batch), so each stage's time is the sum of the moments the
build was inside it; a stage entered from another pauses that one, so the
figures add up to the wall time and never count a moment twice.
"""

from __future__ import annotations

import contextlib
import time
from typing import Iterable, Iterator, TypeVar

T = TypeVar("T")


class StageClock:
    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._current: str | None = None
        self._since = time.perf_counter()

    @property
    def current(self) -> str | None:
        """The stage running now (readable from another thread)."""
        return self._current

    def switch(self, stage: str | None) -> str | None:
        """Charge the time since the last switch to the current stage, make
        `stage` current, and return the stage it replaced."""
        now = time.perf_counter()
        if self._current is not None:
            self.seconds[self._current] = self.seconds.get(self._current, 0.0) + now - self._since
        previous, self._current, self._since = self._current, stage, now
        return previous

    @contextlib.contextmanager
    def stage(self, name: str) -> Iterator[None]:
        previous = self.switch(name)
        try:
            yield
        finally:
            self.switch(previous)

    def iterate(self, name: str, items: Iterable[T]) -> Iterator[T]:
        """`items` unchanged, the time spent producing each charged to `name`."""
        it = iter(items)
        while True:
            previous = self.switch(name)
            try:
                item = next(it)
            except StopIteration:
                return
            finally:
                self.switch(previous)
            yield item
