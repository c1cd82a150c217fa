"""The queue's rules, with time given by the test: visibility, the delivery budget, the dead
letters and acknowledgement."""

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from asyncfail.reference import channel
from asyncfail.reference.channel import State


@pytest.fixture
def queue(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    db = channel.connect(str(tmp_path / "queue.sqlite"))
    yield db
    db.close()


def test_a_delivery_hides_the_message_for_the_visibility_timeout(
    queue: sqlite3.Connection,
) -> None:
    message = channel.send(queue, "debit")
    first = channel.receive(queue, now=0.0, visibility=1.0, budget=3)
    assert first == channel.Delivery(message, "debit", 1)
    assert channel.receive(queue, now=0.999, visibility=1.0, budget=3) is None
    assert channel.next_visible(queue) == 1.0
    again = channel.receive(queue, now=1.0, visibility=1.0, budget=3)
    assert again == channel.Delivery(message, "debit", 2)


def test_an_acknowledged_message_is_never_delivered_again(queue: sqlite3.Connection) -> None:
    message = channel.send(queue, "debit")
    delivery = channel.receive(queue, now=0.0, visibility=1.0, budget=3)
    assert delivery is not None
    channel.acknowledge(queue, delivery)
    assert channel.next_visible(queue) is None
    assert channel.receive(queue, now=10.0, visibility=1.0, budget=3) is None
    assert channel.read_back(queue, message) == (1, State.ACKNOWLEDGED)


@pytest.mark.parametrize("budget", [1, 2, 3])
def test_a_spent_budget_sends_the_message_to_the_dead_letters(
    queue: sqlite3.Connection, budget: int
) -> None:
    message = channel.send(queue, "debit")
    attempts = []
    now = 0.0
    while channel.next_visible(queue) is not None:
        delivery = channel.receive(queue, now=now, visibility=1.0, budget=budget)
        if delivery is not None:
            attempts.append(delivery.attempt)
        now += 1.0
    assert attempts == list(range(1, budget + 1))
    assert channel.read_back(queue, message) == (budget, State.DEAD)
