"""The channel, for real: a durable queue in SQLite with a visibility timeout and a delivery
budget, as SQS's with a redrive policy.

Rules:

- ``receive`` hands out a message that is visible, counts the delivery, and hides the message
  for the visibility timeout. A delivery that is not acknowledged in that time (its worker
  crashed, or gave it back) is handed out again once it is visible again.
- A visible message that has already been delivered ``budget`` times is not delivered again:
  it is moved to the dead letters (the channel gives up, the model's ``DeliveryAbandoned``).
- ``acknowledge`` deletes a delivered message for good.

Time is given by the caller (``now``, in seconds on any clock that only moves forward), so the
rules can be read and tested without waiting.
"""

import sqlite3
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY,
    body TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'queued',
    deliveries INTEGER NOT NULL DEFAULT 0,
    visible_at REAL NOT NULL DEFAULT 0
);
"""


class State(StrEnum):
    """Where a message stands."""

    QUEUED = "queued"
    """Waiting to be delivered, or delivered and not yet acknowledged."""
    ACKNOWLEDGED = "acknowledged"
    """A worker acknowledged a delivery: done."""
    DEAD = "dead"
    """The delivery budget was spent: the channel gave up."""


@dataclass(frozen=True, slots=True)
class Delivery:
    """One delivery of a message: which message, and its delivery attempt (from 1)."""

    message: int
    body: str
    attempt: int


def connect(path: str) -> sqlite3.Connection:
    """The queue's database; every change below is one transaction."""
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript(SCHEMA)
    return db


def send(db: sqlite3.Connection, body: str) -> int:
    """Put a message on the queue, visible at once."""
    cursor = db.execute("INSERT INTO messages (body) VALUES (?)", (body,))
    return int(cursor.lastrowid or 0)


def receive(db: sqlite3.Connection, now: float, visibility: float, budget: int) -> Delivery | None:
    """The next delivery of a visible message, or None: nothing is visible, or the visible
    message had spent its budget and went to the dead letters instead."""
    db.execute("BEGIN IMMEDIATE")
    try:
        row = db.execute(
            "SELECT id, body, deliveries FROM messages WHERE state = ? AND visible_at <= ? "
            "ORDER BY visible_at, id LIMIT 1",
            (State.QUEUED, now),
        ).fetchone()
        if row is None:
            return None
        message, body, deliveries = int(row[0]), str(row[1]), int(row[2])
        if deliveries >= budget:
            db.execute("UPDATE messages SET state = ? WHERE id = ?", (State.DEAD, message))
            return None
        db.execute(
            "UPDATE messages SET deliveries = deliveries + 1, visible_at = ? WHERE id = ?",
            (now + visibility, message),
        )
        return Delivery(message, body, deliveries + 1)
    finally:
        db.execute("COMMIT")


def acknowledge(db: sqlite3.Connection, delivery: Delivery) -> None:
    """The delivery is done: the message is never delivered again."""
    db.execute("UPDATE messages SET state = ? WHERE id = ?", (State.ACKNOWLEDGED, delivery.message))


def next_visible(db: sqlite3.Connection) -> float | None:
    """When the next queued message is visible (perhaps already), or None: nothing is queued."""
    row = db.execute(
        "SELECT MIN(visible_at) FROM messages WHERE state = ?", (State.QUEUED,)
    ).fetchone()
    return None if row[0] is None else float(row[0])


def read_back(db: sqlite3.Connection, message: int) -> tuple[int, State]:
    """How many times ``message`` was delivered, and where it stands."""
    deliveries, state = db.execute(
        "SELECT deliveries, state FROM messages WHERE id = ?", (message,)
    ).fetchone()
    return int(deliveries), State(state)
