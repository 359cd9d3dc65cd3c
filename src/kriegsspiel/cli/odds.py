"""`kriegsspiel odds RULESET ACTION ...` and `kriegsspiel resolve RULESET ACTION ... --seed N`.

Commands are generated from each ruleset's action list, so every ruleset gets the same face.
"""

from __future__ import annotations

from typing import Any

import click

from ..chance import Distribution, TreeTooLarge, exact, monte_carlo, sample
from ..rulesets import RULESETS, load, ruleset_actions, ruleset_module
from ..rulesets.actions import Action, Param, Query
from .common import STATE, console, guarded, print_json


def _options(ruleset: str, pairs: tuple[str, ...]):
    mod = ruleset_module(ruleset)
    return mod.Options.parse(list(pairs))


def _query(ruleset: str, action: Action, params: dict[str, Any], option_pairs) -> Query:
    cat = load(ruleset, STATE.overlays)
    return action.build(cat, _options(ruleset, option_pairs), **params)


def _ordered(q: Query, probs: dict) -> list:
    known = [o for o in q.outcomes if o in probs]
    return known + sorted((k for k in probs if k not in known), key=str)


def odds_payload(q: Query, dist: Distribution) -> dict[str, Any]:
    """Every declared outcome (zero ones too), then any others the resolution produced."""
    keys = list(q.outcomes) + sorted((k for k in dist.probs if k not in q.outcomes), key=str)
    return {
        "query": q.title,
        "outcomes": {str(k): float(dist.p(k)) for k in keys},
        "exact": {str(k): f"{dist.p(k).numerator}/{dist.p(k).denominator}" for k in keys},
        "placeholders": sorted(dist.placeholders),
        "method": dist.method,
        **(
            {"samples": dist.samples, "intervals": {str(k): v for k, v in dist.intervals.items()}}
            if not dist.is_exact
            else {}
        ),
    }


def warn_placeholders(labels: list[str]) -> None:
    """Say which placeholder values (invented, not the book's) an answer used."""
    if labels:
        console.print(
            "[yellow]uses placeholder values (not the rulebook's):[/] " + ", ".join(labels)
        )


class _Bounded(click.ParamType):
    """A number within the action's bounds; a refusal says where the bounds come from."""

    def __init__(self, p: Param) -> None:
        low, high = p.min, p.max
        self.inner: click.ParamType = (
            click.IntRange(None if low is None else int(low), None if high is None else int(high))
            if p.type is int
            else click.FloatRange(low, high)
        )
        self.name = self.inner.name
        self.bound = p.bound

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        try:
            return self.inner.convert(value, param, ctx)
        except click.BadParameter as exc:
            if self.bound and "not in the range" in exc.message:
                exc.message = f"{exc.message.rstrip('.')}, {self.bound}."
            raise


def _param_type(p: Param) -> click.ParamType | type:
    """Choices are checked by name, numbers against the action's bounds (never negative)."""
    if p.choices:
        return click.Choice(p.choices, case_sensitive=False)
    if p.type in (int, float):
        return _Bounded(p)
    return p.type


def _click_option(p: Param) -> click.Option:
    flag = "--" + p.name.replace("_", "-")
    help_text = p.describe() + (f" (e.g. {p.example})" if p.example is not None else "")
    if p.flag:
        return click.Option([flag], is_flag=True, default=False, help=p.help)
    kind = _param_type(p)
    # an explicit default=None counts as a value in click >= 8.3, so `required` would never fire
    default = {} if p.required else {"default": p.default}
    return click.Option(
        [flag, p.name],
        type=kind,
        required=p.required,
        help=help_text,
        show_default=p.default is not None,
        **default,
    )


OPTION = click.Option(
    ["--option", "option_pairs"], multiple=True, help="rules option name=value (see docs/decisions)"
)
JSON = click.Option(["--json", "as_json"], is_flag=True, help="print JSON")


def _odds_command(ruleset: str, action: Action) -> click.Command:
    def run(option_pairs, as_json, mc, seed, **params):
        def body():
            q = _query(ruleset, action, params, option_pairs)
            kwargs = {"key": q.key} if q.key else {}
            if mc:
                est = monte_carlo(q.fn, *q.args, n=mc, seed=seed or 0, **kwargs)
                payload = {
                    "query": q.title,
                    "samples": mc,
                    "outcomes": {str(k): v for k, v in est.floats().items()},
                    "intervals": {str(k): est.interval(k) for k in est.counts},
                }
                if as_json:
                    print_json(payload)
                else:
                    console.print(q.title, style="bold", markup=False)
                    console.print(
                        situation(action, params, option_pairs) + f", Monte Carlo {mc} samples",
                        markup=False,
                        highlight=False,
                    )
                    for k in _ordered(q, est.counts):
                        lo, hi = est.interval(k)
                        console.print(
                            f"{k!s:>16}  {est.p(k):7.4f}  [{lo:.4f}, {hi:.4f}]", markup=False
                        )
                return
            try:
                dist = exact(q.fn, *q.args, fallback=100_000, **kwargs)
            except TreeTooLarge as exc:
                raise ValueError(f"{exc}; rerun with --mc N") from None
            payload = odds_payload(q, dist)
            if as_json:
                print_json(payload)
                return
            console.print(q.title, style="bold", markup=False)
            console.print(situation(action, params, option_pairs), markup=False, highlight=False)
            if not dist.is_exact:
                console.print(
                    f"[yellow]estimated by Monte Carlo ({dist.samples} samples): "
                    "the exact tree is over the budget[/]"
                )
            for k in payload["outcomes"]:
                if dist.p(k) == 0:
                    console.print(f"{k:>16}  {'-':>7}  {'impossible':>12}", markup=False)
                    continue
                console.print(
                    f"{k:>16}  {payload['outcomes'][k]:7.4f}  {payload['exact'][k]:>12}",
                    markup=False,
                )
            warn_placeholders(payload["placeholders"])

        guarded(body)

    params = [_click_option(p) for p in action.params] + [
        OPTION,
        JSON,
        click.Option(
            ["--mc"], type=click.IntRange(min=1), default=None, help="Monte Carlo with N samples"
        ),
        click.Option(["--seed"], type=int, default=None, help="seed for --mc"),
    ]
    return click.Command(action.name, callback=run, params=params, help=action.help)


def _dice(text: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise ValueError(
            f"--dice {text!r}: expected die faces separated by commas, e.g. 7,3"
        ) from None


def situation(action: Action, params: dict[str, Any], option_pairs) -> str:
    """Every input of the answer in one line: the parameters (defaults included, unset and
    false flags left out) and the rules options chosen."""
    parts = []
    for p in action.params:
        value = params.get(p.name)
        if value is None or value is False:
            continue
        name = p.name.replace("_", " ")
        parts.append(
            name
            if value is True
            else f"{name} {value:g}"
            if isinstance(value, float)
            else f"{name} {value}"
        )
    parts += [f"option {o}" for o in option_pairs]
    return "situation: " + (", ".join(parts) or "defaults")


def _resolve_command(ruleset: str, action: Action) -> click.Command:
    def run(option_pairs, as_json, seed, dice, **params):
        def body():
            q = _query(ruleset, action, params, option_pairs)
            script = _dice(dice) if dice is not None else None
            res = sample(q.fn, *q.args, seed=seed, dice_script=script)
            if script is not None:
                used = sum(len(a) for r in res.rolls for a in r.attempts)
                if used < len(script):
                    raise ValueError(
                        f"--dice gave {len(script)} faces but this roll used only {used}: "
                        f"{','.join(map(str, script[:used]))}"
                    )
            result = res.result
            name = getattr(result, "name", result)
            payload = {
                "query": q.title,
                "seed": seed,
                "result": str(name),
                "detail": {k: v for k, v in getattr(result, "detail", ())},
                "explanation": res.lines(),
                "rolls": [
                    {
                        "label": r.label,
                        "dice": r.dice,
                        "faces": r.attempts,
                        "value": r.value,
                        "page": r.page,
                    }
                    for r in res.rolls
                ],
                "placeholders": sorted(res.placeholders),
            }
            if as_json:
                print_json(payload)
                return
            console.print(q.title, style="bold", markup=False)
            console.print(situation(action, params, option_pairs), markup=False, highlight=False)
            for line in payload["explanation"]:
                console.print(f"  {line}", highlight=False, markup=False)
            console.print(f"[bold green]result: {name}[/]")
            warn_placeholders(payload["placeholders"])

        guarded(body)

    params = [_click_option(p) for p in action.params] + [
        OPTION,
        JSON,
        click.Option(["--seed"], type=int, default=None, help="RNG seed (omit for a fresh roll)"),
        click.Option(["--dice"], type=str, default=None, help="inject die faces, e.g. 7,3"),
    ]
    return click.Command(action.name, callback=run, params=params, help=action.help)


def build_group(name: str, make, help_text: str) -> click.Group:
    group = click.Group(name, help=help_text)
    for ruleset in RULESETS:
        actions = ruleset_actions(ruleset)
        sub = click.Group(ruleset, help=f"{ruleset} actions")
        for action in actions.values():
            sub.add_command(make(ruleset, action))
        if not actions:
            sub.help = f"{ruleset}: no resolvable actions yet"
        group.add_command(sub)
    return group


def odds_group() -> click.Group:
    return build_group("odds", _odds_command, "Exact probability of every outcome of an action.")


def resolve_group() -> click.Group:
    return build_group("resolve", _resolve_command, "Roll an action once and explain every step.")
