"""Ruleset-agnostic description of a resolvable action (for the `odds` and `resolve` faces).

Each ruleset lists its actions; a face turns the params into options and calls `build`, which
returns the resolution to run and the arguments to give it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Param:
    name: str  # python name; the CLI flag is --name-with-dashes
    type: type = str
    default: Any = None
    help: str = ""
    choices: tuple[str, ...] | None = None
    flag: bool = False
    required: bool = False


@dataclass(frozen=True)
class Query:
    """What to run: the resolution, its arguments and the order outcomes are listed in."""

    fn: Callable[..., Any]
    args: tuple
    outcomes: tuple[str, ...] = ()
    title: str = ""
    key: Callable[[Any], Any] | None = None


@dataclass(frozen=True)
class Action:
    name: str
    help: str
    params: tuple[Param, ...]
    build: Callable[..., Query]  # build(catalogue, options, **params) -> Query
    extra: dict = field(default_factory=dict)
