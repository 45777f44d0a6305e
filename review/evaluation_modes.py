"""Modes of `manage.py evaluate` that other apps add (ask: `--questions`), registered from their AppConfig.ready(),
so the command lives with the checker's evaluation and knows none of them."""

from __future__ import annotations

from argparse import ArgumentParser
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class EvaluationMode:
    option: str  # the option that selects the mode (its dest, e.g. "questions")
    add_arguments: Callable[[ArgumentParser], None]
    run: Callable[..., None]  # run(options=..., stdout=...); raises CommandError for bad input
    options: tuple[str, ...] = ()  # options (dests) that mean something only with `option`: an error without it


_MODES: list[EvaluationMode] = []


def evaluation_mode_register(mode: EvaluationMode) -> None:
    if all(known.option != mode.option for known in _MODES):
        _MODES.append(mode)


def evaluation_modes() -> tuple[EvaluationMode, ...]:
    return tuple(_MODES)


def evaluation_mode_chosen(options: dict[str, Any]) -> EvaluationMode | None:
    return next((mode for mode in _MODES if options.get(mode.option)), None)


def _flag(dest: str) -> str:
    return "--" + dest.replace("_", "-")


def evaluation_mode_stray_options(options: dict[str, Any]) -> str:
    """What is wrong when a mode's own options come without the mode ("" when nothing is)."""
    for mode in _MODES:
        if not options.get(mode.option) and any(options.get(name) for name in mode.options):
            return f"{' and '.join(_flag(name) for name in mode.options)} go with {_flag(mode.option)}"
    return ""
