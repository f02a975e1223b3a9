"""The progress line on stderr."""
from __future__ import annotations

import sys
import time

from opsnn.atk.result import Result


class Progress:
    """A bar on stderr when it is a terminal; otherwise a plain line every `every` seconds."""

    def __init__(self, total: int, stream=None, every: float = 30.0):
        self.total, self.done, self.failed = total, 0, 0
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.start = self.last = time.monotonic()
        self.every = every

    def update(self, result: Result) -> None:
        self.done += 1
        self.failed += result.status == "failed"
        now = time.monotonic()
        rate = self.done / max(now - self.start, 1e-9)
        if self.tty:
            width = 30
            filled = width * self.done // max(self.total, 1)
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} "
                              f"{self.failed} failed {rate:.1f} cases/s ")
            self.stream.flush()
        elif now - self.last >= self.every:
            self.last = now
            self.stream.write(f"opsnn atk: {self.done}/{self.total} cases, {self.failed} failed, "
                              f"{rate:.1f} cases/s\n")
            self.stream.flush()

    def close(self) -> None:
        if self.tty and self.total:
            self.stream.write("\r" + " " * 79 + "\r")
            self.stream.flush()

