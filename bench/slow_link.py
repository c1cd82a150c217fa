"""A built site served as over a slow link, for `make bench`: what a reader far from a fast
connection waits for, which a loopback server hides.

The link is one token bucket shared by every connection (``mbps`` megabits a second, bursts of
at most ``BURST_S`` of it), plus ``latency_s`` before each response's body: a browser's parallel
downloads share it as they share a reader's line. Bench-only: the tests and `make serve` use
``exports/serve.py`` as it is.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "exports"))

from serve import QuietHandler, serving

BURST_S = 0.05
"""The most the bucket holds: this many seconds of the link's rate, and at least one ``CHUNK``
(below about 2.6 Mbps a chunk is more than 0.05 s of the link, and would never pass)."""
CHUNK = 16_384


class Link:
    """The shared bucket: ``take(n)`` returns once ``n`` bytes may pass."""

    def __init__(self, mbps: float) -> None:
        if not mbps > 0:
            raise ValueError(f"a link of {mbps} Mbps: it takes a positive number of megabits")
        self.rate = mbps * 1e6 / 8  # bytes a second
        self.capacity = max(self.rate * BURST_S, CHUNK)
        self.tokens = 0.0
        self.last = time.monotonic()
        self.lock = threading.Lock()

    def take(self, size: int) -> None:
        while True:
            with self.lock:
                now = time.monotonic()
                self.tokens = min(self.capacity, self.tokens + (now - self.last) * self.rate)
                self.last = now
                if self.tokens >= size:
                    self.tokens -= size
                    return
                wait = (size - self.tokens) / self.rate
            time.sleep(wait)


class SlowHandler(QuietHandler):
    link: Link
    latency_s: float

    def copyfile(self, source: BinaryIO, outputfile: BinaryIO) -> None:  # type: ignore[override]
        time.sleep(self.latency_s)
        while chunk := source.read(CHUNK):
            self.link.take(len(chunk))
            outputfile.write(chunk)


@contextmanager
def serving_slowly(root: Path, mbps: float, latency_s: float = 0.02) -> Iterator[str]:
    """Serve ``root`` over a link of ``mbps`` (and ``latency_s`` a response) from a background
    thread (``serve.serving``); yield its base URL (ending in ``/``)."""
    handler_class = type("Handler", (SlowHandler,), {"link": Link(mbps), "latency_s": latency_s})
    with serving(root, handler_class=handler_class) as url:
        yield url
