"""Statistics of a batch of battles: win/draw rates with 95 % Wilson intervals, losses by unit
type, turn lengths, objective control."""

from __future__ import annotations

from collections import Counter
from statistics import mean
from typing import Any

from ..chance.drivers import wilson


def _rate(k: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(k, n)
    return {"count": k, "rate": k / n if n else 0.0, "ci95": [lo, hi]}


def summarize(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The batch's figures (JSON data)."""
    n = len(results)
    sides = sorted({s for r in results for s in r["losses"]})
    wins = Counter(r["winner"] for r in results)
    losses: dict[str, dict[str, float]] = {}
    for side in sides:
        types = Counter()
        for r in results:
            types.update(r["losses"].get(side, {}))
        losses[side] = {t: c / n for t, c in sorted(types.items())}
    objectives: dict[str, dict[str, float]] = {}
    for r in results:
        for o, h in r["objectives"].items():
            objectives.setdefault(o, Counter())[h or "nobody"] += 1
    turns = [r["turns"] for r in results]
    return {
        "battles": n,
        "scenario": results[0]["scenario"] if results else None,
        "profiles": results[0]["profiles"] if results else {},
        "wins": {s: _rate(wins.get(s, 0), n) for s in sides},
        "draws": _rate(wins.get(None, 0), n),
        "reasons": dict(Counter(r["reason"] for r in results).most_common()),
        "losses_per_battle": losses,
        "turns": {
            "mean": mean(turns) if turns else 0.0,
            "min": min(turns, default=0),
            "max": max(turns, default=0),
            "histogram": dict(sorted(Counter(turns).items())),
        },
        "objective_control": {
            o: {h: c / n for h, c in sorted(cs.items())} for o, cs in objectives.items()
        },
    }
