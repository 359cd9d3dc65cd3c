"""The odds calculator's JSON routes, generic over every ruleset's actions (rulesets/actions.py):
what each action asks, names to pick from the data, exact odds and one explained roll."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query
from pydantic import BaseModel, ConfigDict, Field

from ..chance import TreeTooLarge, exact, sample
from ..data.errors import DataError, RuleError
from ..rulesets import RULESETS, load, ruleset_actions, ruleset_module
from ..rulesets.actions import Action

TYPES = {str: "text", float: "number", int: "integer", bool: "boolean"}


class OddsRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    params: dict[str, str | float | int | bool | None] = Field(default_factory=dict)
    options: list[Annotated[str, Field(max_length=100)]] = Field(
        default_factory=list, max_length=20
    )
    seed: int | None = Field(default=None, ge=0, le=2**63)


def _action(ruleset: str, name: str) -> Action:
    if ruleset not in RULESETS:
        raise HTTPException(404, {"field": "ruleset", "reason": f"no ruleset {ruleset!r}"})
    actions = ruleset_actions(ruleset)
    if name not in actions:
        raise HTTPException(
            404, {"field": "action", "reason": f"no action {name!r}; one of {sorted(actions)}"}
        )
    return actions[name]


def _value(p: Any, raw: Any) -> Any:
    """A parameter's value from JSON, converted and checked like the CLI does (422 naming it)."""
    if raw is None or raw == "":
        if p.required:
            raise HTTPException(422, {"field": p.name, "reason": f"{p.name} is required"})
        return p.default
    try:
        if p.flag or p.type is bool:
            value = raw if isinstance(raw, bool) else str(raw).lower() in ("true", "1", "yes", "on")
        else:
            value = p.type(raw)
    except (TypeError, ValueError):
        raise HTTPException(
            422, {"field": p.name, "reason": f"{p.name}: {raw!r} is not a {TYPES[p.type]}"}
        ) from None
    if isinstance(value, float) and value != value or value in (float("inf"), float("-inf")):
        raise HTTPException(422, {"field": p.name, "reason": f"{p.name} must be finite"})
    if not isinstance(value, bool) and isinstance(value, int | float):
        low, high = p.min, p.max
        if (low is not None and value < low) or (high is not None and value > high):
            span = (
                f"at most {high:g}"
                if low is None
                else f"at least {low:g}"
                if high is None
                else f"{low:g} to {high:g}"
            )
            raise HTTPException(
                422,
                {
                    "field": p.name,
                    "reason": f"{p.name}: {value:g} is out of range: {span}"
                    + (f" ({p.bound})" if p.bound else ""),
                },
            )
    if p.choices and value not in p.choices:
        raise HTTPException(
            422, {"field": p.name, "reason": f"{p.name}: {value!r} is not one of {p.choices}"}
        )
    return value


def router() -> APIRouter:
    api = APIRouter(prefix="/api/odds")

    @api.get("")
    def rulesets() -> list[dict[str, Any]]:
        """Every ruleset with actions, and what each action asks for."""
        out = []
        for rid in RULESETS:
            actions = ruleset_actions(rid)
            if not actions:
                continue
            out.append(
                {
                    "ruleset": rid,
                    "actions": [
                        {
                            "name": a.name,
                            "help": a.help,
                            "kinds": {k: list(v) for k, v in a.extra.items()},
                            "params": [
                                {
                                    "name": p.name,
                                    "type": "boolean" if p.flag else TYPES.get(p.type, "text"),
                                    "default": p.default,
                                    "choices": list(p.choices) if p.choices else None,
                                    "required": p.required,
                                    "min": p.min if p.type in (int, float) else None,
                                    "max": p.max if p.type in (int, float) else None,
                                    "help": p.describe(),
                                }
                                for p in a.params
                            ],
                        }
                        for a in actions.values()
                    ],
                }
            )
        return out

    @api.get("/{ruleset}/names")
    def names(
        ruleset: str,
        kind: Annotated[str, Query(max_length=40)],
        q: Annotated[str, Query(max_length=60)] = "",
    ) -> list[dict[str, str]]:
        """Up to 30 records of a kind whose name or id contains `q` (the pickers' search)."""
        if ruleset not in RULESETS:
            raise HTTPException(404, {"field": "ruleset", "reason": f"no ruleset {ruleset!r}"})
        cat = load(ruleset)
        if kind not in cat.entries:
            raise HTTPException(422, {"field": "kind", "reason": f"no kind {kind!r}"})
        want = q.casefold().strip()
        hits = [
            {"id": r.id, "name": r.name}
            for r in cat.all(kind)
            if want in r.name.casefold() or want in r.id.casefold()
        ]
        return hits[:30]

    @api.post("/{ruleset}/{action}")
    def odds(ruleset: str, action: str, body: OddsRequest) -> dict[str, Any]:
        """Exact odds of the action (Monte Carlo only past the budget, said so), the
        placeholders they used, and with `seed` one explained roll."""
        a = _action(ruleset, action)
        unknown = set(body.params) - {p.name for p in a.params}
        if unknown:
            raise HTTPException(
                422,
                {"field": sorted(unknown)[0], "reason": f"unknown parameters {sorted(unknown)}"},
            )
        params = {p.name: _value(p, body.params.get(p.name)) for p in a.params}
        try:
            opts = ruleset_module(ruleset).Options.parse(list(body.options))
            q = a.build(load(ruleset), opts, **params)
            kw = {"key": q.key} if q.key else {}
            dist = exact(q.fn, *q.args, fallback=100_000, **kw)
            roll = sample(q.fn, *q.args, seed=body.seed, **kw) if body.seed is not None else None
        except (RuleError, LookupError, ValueError, NotImplementedError, DataError) as e:
            reason = str(e.args[0] if e.args else e)
            raise HTTPException(422, {"field": None, "reason": reason}) from None
        except TreeTooLarge as e:
            raise HTTPException(422, {"field": None, "reason": str(e)}) from e
        order = [o for o in q.outcomes if o in dist.probs or not q.key]
        keys = order + sorted((k for k in dist.probs if k not in order), key=str)
        out: dict[str, Any] = {
            "query": q.title,
            "method": dist.method,
            "outcomes": [
                {
                    "outcome": str(k),
                    "p": float(dist.p(k)),
                    "exact": f"{dist.p(k).numerator}/{dist.p(k).denominator}",
                }
                for k in keys
            ],
            "placeholders": sorted(dist.placeholders),
        }
        if roll is not None:
            result = roll.result
            out["roll"] = {
                "seed": body.seed,
                "result": str(q.key(result) if q.key else getattr(result, "name", result)),
                "explanation": roll.lines(),
                "placeholders": sorted(roll.placeholders),
            }
        return out

    return api
