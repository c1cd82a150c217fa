"""course/marimo_functions.py: a switch replaces a function in the module already loaded, once,
and touches nothing where the module, the name or a callable is missing."""

from __future__ import annotations

import functools
import sys
import types
from collections.abc import Callable
from typing import Any

import pytest

from asyncfail.course.marimo_functions import is_wrapper, replace_once

NAME = "tests_course_marimo_functions_fake"


def original(text: str) -> str:
    return text.upper()


def shouting(function: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(function)
    def shout(text: str) -> str:
        return function(text) + "!"

    return shout


@pytest.fixture
def module(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    """A loaded module holding ``original`` as ``render``, gone after the test."""
    fake = types.ModuleType(NAME)
    fake.render = original  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, NAME, fake)
    return fake


def test_the_replacement_takes_the_functions_place(module: types.ModuleType) -> None:
    assert replace_once(NAME, "render", done=is_wrapper, replace=shouting) is True
    assert module.render("a") == "A!"
    assert module.render.__wrapped__ is original


def test_installed_again_the_replacement_is_left_in_place(module: types.ModuleType) -> None:
    replaced: list[object] = []

    def counting(function: Callable[..., Any]) -> Callable[..., Any]:
        replaced.append(function)
        return shouting(function)

    for _ in range(3):
        assert replace_once(NAME, "render", done=is_wrapper, replace=counting) is True
    assert replaced == [original]
    assert module.render("a") == "A!"


def test_a_function_the_switch_calls_done_is_left_as_it_is(module: types.ModuleType) -> None:
    assert replace_once(NAME, "render", done=lambda _: True, replace=shouting) is True
    assert module.render is original


@pytest.mark.parametrize(
    "held",
    [None, "a string", 42],
    ids=["none", "not callable", "a number"],
)
def test_without_a_callable_of_that_name_nothing_is_touched(
    module: types.ModuleType, held: object
) -> None:
    module.render = held  # type: ignore[attr-defined]
    assert replace_once(NAME, "render", done=is_wrapper, replace=shouting) is False
    assert module.render is held
    assert replace_once(NAME, "missing", done=is_wrapper, replace=shouting) is False
    assert not hasattr(module, "missing")


def test_a_module_not_loaded_is_never_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    # A real module, importable but not imported: the switch must not import it.
    monkeypatch.delitem(sys.modules, "colorsys", raising=False)
    assert replace_once("colorsys", "rgb_to_hsv", done=is_wrapper, replace=shouting) is False
    assert "colorsys" not in sys.modules


def test_a_wrapper_is_told_from_a_plain_function() -> None:
    assert is_wrapper(shouting(original)) is True
    assert is_wrapper(functools.lru_cache(maxsize=2)(original)) is True
    assert is_wrapper(original) is False
