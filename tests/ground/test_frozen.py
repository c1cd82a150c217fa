"""Every model of the library is configured from ``ground/frozen.py``: immutable, built when
first used, and still validated as before (a deferred build changes when pydantic builds a
model's validator, never what it accepts)."""

import importlib
import pkgutil
import subprocess
import sys

import pytest
from pydantic import BaseModel, ValidationError

import asyncfail
from asyncfail.ground.frozen import FROZEN, FROZEN_LENIENT
from asyncfail.ground.quiz import Question
from asyncfail.lab.reading import Counts


def library_models() -> list[type[BaseModel]]:
    """Every pydantic model a module of the library defines, in name order."""
    for module in pkgutil.walk_packages(asyncfail.__path__, "asyncfail."):
        if not module.name.endswith(".__main__"):  # the CLI, run when imported
            importlib.import_module(module.name)
    found: list[type[BaseModel]] = []
    pending: list[type[BaseModel]] = [BaseModel]
    while pending:
        for model in pending.pop().__subclasses__():
            pending.append(model)
            if model.__module__.startswith("asyncfail.") and "[" not in model.__name__:
                found.append(model)
    return sorted(set(found), key=lambda m: f"{m.__module__}.{m.__qualname__}")


def test_every_model_is_frozen_and_built_when_first_used() -> None:
    models = library_models()
    assert len(models) >= 35  # the wings' models, from the lab's events to the reports
    for model in models:
        config = model.model_config
        assert config.get("frozen") is True, model
        assert config.get("defer_build") is True, model
        assert config.get("extra") in ("forbid", None), model


def test_the_two_configurations_differ_only_in_unknown_fields() -> None:
    assert dict(FROZEN) == dict(FROZEN_LENIENT) | {"extra": "forbid"}


def test_importing_a_model_builds_its_validator_only_when_it_is_first_used() -> None:
    """In a fresh process: after its import, a model no module uses at import (the question)
    is not built yet; the first question made builds it."""
    probe = (
        "from asyncfail.ground.quiz import Question\n"
        "print(Question.__pydantic_complete__)\n"
        'Question(prompt="p", options=("a",), answer="a", explanation="e")\n'
        "print(Question.__pydantic_complete__)\n"
    )
    shown = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()
    assert shown == ["False", "True"]


def test_a_deferred_model_still_refuses_what_it_always_refused() -> None:
    with pytest.raises(ValidationError, match="answer must be one of the options"):
        Question(prompt="p", options=("a", "b"), answer="c", explanation="e")
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        Question.model_validate(
            {"prompt": "p", "options": ["a"], "answer": "a", "explanation": "e", "x": 1}
        )
    question = Question(prompt="p", options=("a",), answer="a", explanation="e")
    with pytest.raises(ValidationError, match="frozen"):
        question.prompt = "q"  # type: ignore[misc]
    counts = Counts.model_validate(
        {"attempts": 2, "effects": 1, "tool_calls": 1, "lookups": 0, "x": 1}
    )
    assert not hasattr(counts, "x")  # lenient: an unknown field is ignored, as it always was
