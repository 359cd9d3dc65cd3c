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
    # numbers are counts, distances and strengths: never negative unless a ruleset says so
    min: float | None = 0
    max: float | None = None
    example: Any = None  # a valid value, for help texts and the every-action CLI test
    bound: str = ""  # where min/max come from (a table, the data, or a stated generous limit)

    def describe(self) -> str:
        """The help with the allowed range and its source (shown by the CLI and the API)."""
        if self.type not in (int, float) or self.flag or self.choices:
            return self.help
        low = "" if self.min is None else f"{self.min:g}"
        high = "" if self.max is None else f"{self.max:g}"
        return f"{self.help} [{low}..{high}{': ' + self.bound if self.bound else ''}]"


def flag(name: str, help: str) -> Param:
    """A yes/no parameter, off unless given (`--name` on the CLI, a checkbox on the page)."""
    return Param(name, bool, False, help, flag=True)


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
    # "<rule>, <page>" for a rule that cannot be implemented: its build refuses with
    # `not implemented: ...` (exit 2), and the every-action test expects exactly that
    not_implemented: str | None = None


def parse_options(model: Any, pairs: list[str]) -> Any:
    """A ruleset's pydantic Options from CLI `name=value` strings (`--option`)."""
    values: dict[str, object] = {}
    for pair in pairs:
        if "=" not in pair:
            raise ValueError(f"option {pair!r}: expected name=value")
        name, value = (p.strip() for p in pair.split("=", 1))
        name = name.replace("-", "_")
        if name not in model.model_fields:
            raise ValueError(
                f"unknown option {name!r}; expected one of {sorted(model.model_fields)}"
            )
        values[name] = value.lower() == "true" if value.lower() in ("true", "false") else value
    return model.model_validate(values)
