"""Per-game options: the engine's own (undo policy) beside the ruleset's documented ones.

A game's options are one flat mapping `name -> value`. The names of `EngineOptions` are the
engine's; every other name goes to the ruleset, whose `game_rules(options)` validates them
against its options model (quickref: rulesets/quickref/options.py) and raises pydantic's
ValidationError for an unknown name or a bad value. Values are typed by the models: the string
"false" is False for a boolean option, "3.5" is 3.5 for a number (CLI `--option name=value`).
"""

from __future__ import annotations

from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, ValidationError


class BadOption(ValueError):
    """An unknown option name or a bad value; `field` names the option."""

    def __init__(self, field: str, reason: str):
        super().__init__(f"option {field!r}: {reason}")
        self.field = field
        self.reason = reason


class EngineOptions(BaseModel):
    """Options every game has, whatever its ruleset."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # consent: undoing a command that rolled dice or revealed anything needs the other side's
    # consent (or the umpire); free: any side undoes its own last command (friendly games);
    # off: no undo except by the umpire
    undo: Literal["consent", "free", "off"] = "consent"
    # spectators see public information during play and everything once the game is over;
    # with N > 0 they also see the whole game as it stood N turns ago (engine/spectate.py)
    spectator_delay: int = Field(0, ge=0, le=99)


ENGINE_NAMES = frozenset(EngineOptions.model_fields) | {"allow_undo"}


def parse_pairs(pairs: list[str]) -> dict[str, str]:
    """`name=value` strings (CLI `--option`) as a mapping; the values stay text for the models
    to type. BadOption for a pair without '='."""
    out: dict[str, str] = {}
    for pair in pairs:
        if "=" not in pair:
            raise BadOption(pair, "expected name=value")
        name, value = (p.strip() for p in pair.split("=", 1))
        out[name.replace("-", "_")] = value
    return out


def from_validation(exc: ValidationError) -> BadOption:
    """The first problem of a pydantic ValidationError as a BadOption naming the option."""
    err = exc.errors()[0]
    name = ".".join(str(p) for p in err.get("loc", ())) or "options"
    if err.get("type") == "extra_forbidden":
        return BadOption(name, "unknown option")
    return BadOption(name, err.get("msg", "bad value"))


def split(options: dict[str, Any]) -> tuple[EngineOptions, dict[str, Any]]:
    """The engine's options (validated) and the rest, for the ruleset. The legacy boolean
    `allow_undo` maps to undo=off when false."""
    if not isinstance(options, dict):
        raise BadOption("options", "expected a mapping of name to value")
    mine = {k: v for k, v in options.items() if k in ENGINE_NAMES}
    rest = {k: v for k, v in options.items() if k not in ENGINE_NAMES}
    legacy = mine.pop("allow_undo", None)
    try:
        if legacy is not None:
            allowed = _Legacy.model_validate({"allow_undo": legacy}).allow_undo
            if not allowed:
                mine.setdefault("undo", "off")
        return EngineOptions.model_validate(mine), rest
    except ValidationError as exc:
        raise from_validation(exc) from None


class _Legacy(BaseModel):
    allow_undo: bool


def describe(model: type[BaseModel]) -> list[dict[str, Any]]:
    """The options of a model for people and the lobby: name, type, default, choices."""
    out = []
    for name, f in model.model_fields.items():
        ann = f.annotation
        if get_origin(ann) is Literal:
            kind, choices = "choice", [str(c) for c in get_args(ann)]
        else:
            kind, choices = getattr(ann, "__name__", str(ann)), None
        out.append({"name": name, "type": kind, "default": f.default, "choices": choices})
    return out


def documented(rules: Any) -> list[dict[str, Any]]:
    """Every option a game of these rules takes: the engine's, then the ruleset's (its rules'
    optional attribute `options_model`)."""
    model = getattr(rules, "options_model", None)
    return describe(EngineOptions) + (describe(model) if model is not None else [])
