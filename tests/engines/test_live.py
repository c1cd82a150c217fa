"""Lesson 9's live DBOS run (``engines.live``): one at a time with lesson 1's, on the same lock;
an engine that is not installed is said before the lock is taken."""

from pathlib import Path

import pytest

from asyncfail.engines import live
from asyncfail.engines.adapter import EngineUnavailable
from asyncfail.engines.registry import ENGINES
from asyncfail.reference import live as reference_live


def test_a_run_while_another_live_run_holds_the_lock_is_busy_and_starts_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lock = tmp_path / "live.lock"
    started: list[object] = []
    monkeypatch.setattr(live, "verify_engine", lambda *args, **kwargs: started.append(args))
    with reference_live.one_at_a_time(lock) as note:  # lesson 1's run, 3 of 10 cases done
        note(3, 10)
        with pytest.raises(live.Busy) as busy:
            live.run(lambda done, total: None, lock=lock)
    assert started == []
    assert isinstance(busy.value, live.ReferenceFailure), "the lesson shows it as a failure"
    assert "(3 of 10 cases run" in str(busy.value)


def test_the_run_takes_the_lock_and_reports_progress_through_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lock = tmp_path / "live.lock"
    seen: list[str] = []

    class Found:
        def model_dump(self, mode: str) -> dict[str, object]:
            return {"rows": []}

    def fake(engine: object, cases: object, progress: object) -> Found:
        progress(1, 2)  # type: ignore[operator]
        seen.append(lock.read_text().split(maxsplit=1)[1].strip())  # "done total" as Busy reads it
        with pytest.raises(live.Busy):
            live.run(lambda done, total: None, lock=lock)
        return Found()

    monkeypatch.setattr(live, "verify_engine", fake)
    told: list[tuple[int, int]] = []
    document = live.run(lambda done, total: told.append((done, total)), lock=lock)
    assert told == [(1, 2)] and seen == ["1 2"]
    assert document["platform"] == reference_live.this_platform()
    assert not lock.exists(), "the lock file goes with the run"


def test_an_engine_not_installed_is_said_before_the_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lock = tmp_path / "live.lock"

    class Missing:
        def version(self) -> str:
            raise EngineUnavailable("the dbos engine needs the dbos package")

    monkeypatch.setitem(ENGINES, "missing", Missing())  # type: ignore[arg-type]
    with reference_live.one_at_a_time(lock), pytest.raises(EngineUnavailable):
        live.run(lambda done, total: None, engine="missing", lock=lock)
