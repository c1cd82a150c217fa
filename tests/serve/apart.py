"""Running a coroutine in the tests of the course server."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any


def run_apart(coroutine: Any) -> Any:
    """``asyncio.run(coroutine)`` in a thread of its own: a Playwright page of another test on
    this worker may hold the main thread's event loop (asyncio.run refuses to start inside a
    running one), and the browser tests run on any worker."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
