"""Commands validated as data before the rules see them (DESIGN: fair play).

A ruleset's optional hook `command_models()` gives a pydantic model per command type. The
engine checks each command against its model: finite numbers, points on the table, bounded
lists, known names, sane integers; a refusal is an IllegalCommand naming the field. The rules
then get the model's dump of the fields the command gave (unknown extra keys, such as a legal
template's hints, are dropped). This module also holds the field types the models share.
"""

from __future__ import annotations

import marshal
import math
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    ValidationInfo,
)

from .commands import IllegalCommand
from .fairplay import canonical

MAX_LISTED = 32  # units in one fire group or assault, entries in one mapping
MAX_PATH = 64  # waypoints in one move
BOUND = 1e6  # no coordinate or angle of any table comes near


class CommandModel(BaseModel):
    """Base of every command model: unknown keys are ignored, numbers must be finite (JSON
    NaN/Infinity are refused), strings are not coerced from numbers."""

    model_config = ConfigDict(extra="ignore", allow_inf_nan=False, frozen=True)
    type: str


def _finite(v: float) -> float:
    if not math.isfinite(v) or abs(v) > BOUND:
        raise ValueError("must be a finite number")
    return v


Finite = Annotated[float, Field(allow_inf_nan=False), AfterValidator(_finite)]
Ident = Annotated[str, StringConstraints(min_length=1, max_length=128, pattern=r"^[^\x00-\x1f]+$")]
Angle = Annotated[float, Field(allow_inf_nan=False, ge=-BOUND, le=BOUND)]


def _on_table(v: tuple[float, float], info: ValidationInfo) -> tuple[float, float]:
    table = (info.context or {}).get("table")
    if table is not None:
        w, d = table
        if not (0 <= v[0] <= w and 0 <= v[1] <= d):
            raise ValueError(f"point ({v[0]:g}, {v[1]:g}) is off the table ({w:g} x {d:g})")
    return v


Point = Annotated[tuple[Finite, Finite], AfterValidator(_on_table)]
Path = Annotated[list[Point], Field(min_length=1, max_length=MAX_PATH)]
Group = Annotated[list[Ident], Field(min_length=1, max_length=MAX_LISTED)]


def on_table(x: float, y: float, info: ValidationInfo) -> None:
    """For models with separate x and y fields: ValueError naming x if (x, y) is off the table
    (a model-wide check names its field first, "x: ...")."""
    try:
        _on_table((x, y), info)
    except ValueError as exc:
        raise ValueError(f"x: {exc}") from None


def validate_command(
    models: dict[str, type[BaseModel]], command: dict[str, Any], context: dict[str, Any]
) -> tuple[dict[str, Any], str]:
    """The command as its model reads it and that as canonical JSON (`fairplay.canonical`,
    which keys the dice), or IllegalCommand naming the field."""
    kind = command["type"]
    model = models.get(kind)
    if model is None:
        raise IllegalCommand(f"unknown command {kind[:64]!r}; known: {', '.join(models)}", "type")
    try:  # the same command in the same context has the same answer: read it again
        key = (model, marshal.dumps((context, command)))
    except ValueError:  # not plain data (an object, a subclass): the model says why
        key = None
    hit = _ACCEPTED.get(key) if key is not None else None
    if hit is not None:
        return marshal.loads(hit[0]), hit[1]
    try:
        checked = model.model_validate(command, context=context)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = [str(p) for p in err.get("loc", ())]
        msg = str(err.get("msg", "invalid")).removeprefix("Value error, ")
        if not loc:  # a check of the whole model names its field first: "unit: ..."
            name, _, rest = msg.partition(": ")
            if name in model.model_fields and rest:
                loc, msg = [name], rest
        field = loc[0] if loc else "type"
        where = ".".join(loc) or "command"
        raise IllegalCommand(f"{kind}: {where}: {msg}", field) from None
    out = checked.model_dump(exclude_unset=True, mode="json")
    out["type"] = kind
    text = canonical(out)
    if key is not None:
        if len(_ACCEPTED) >= ACCEPTED_KEPT:
            _ACCEPTED.clear()
        _ACCEPTED[key] = (marshal.dumps(out), text)
    return out, text


# commands accepted before, by model and (context, command) in `marshal`'s bytes (exact: the
# same bytes are the same values of the same types, key order included; an object it cannot
# write is validated every time): their checked form, as bytes each reader loads its own copy
# from, and canonical text; a process-wide memo, cleared when full
ACCEPTED_KEPT = 4096
_ACCEPTED: dict[tuple[type[BaseModel], bytes], tuple[bytes, str]] = {}
