"""The Infantry Casualty Table (p16, again p18 for CQC): final fire (or CQC) factors by final
variation -> teams lost; the chance die (1-2 -1, 3-4 0, 5-6 +1); the clamp to +7/-9; totals
over 100 read as a 100 group plus the remainder (p16). The table body is a placeholder (P53)."""

from __future__ import annotations

from ....chance import Cite, Lookup, Modifier, Note, Roll, total
from .tables import Rules

P_TABLE = "p16 Infantry Casualty Table"
CHANCE = {1: -1, 2: -1, 3: 0, 4: 0, 5: 1, 6: 1}


def columns(rules: Rules) -> list[tuple[int, str]]:
    cols = [c for c in rules.table("infantry-casualty-table").columns if c.startswith("ff_")]
    return sorted((int(c[3:]), c) for c in cols)


def clamp(rules: Rules, variation: int) -> int:
    hi, _ = rules.cell("infantry-casualty-table", "variation_clamp", "max_variation")
    lo, _ = rules.cell("infantry-casualty-table", "variation_clamp", "min_variation")
    return max(int(lo), min(int(hi), variation))


def teams_lost(rules: Rules, factors: int, variation: int) -> tuple[int, tuple[str, ...]]:
    """Teams lost for a fire-factor total at a final (clamped) variation."""
    if factors <= 0:
        return 0, ()
    groups = [100] * (factors // 100) + ([factors % 100] if factors % 100 else [])
    lost, labels = 0, []
    key = f"variation_{variation:+d}"
    i, values = rules.row("infantry-casualty-table", key)
    t = rules.table("infantry-casualty-table")
    labels += t.placeholders(f"rows.{i}.values")
    for g in groups:
        col = next(c for n, c in columns(rules) if g <= n)
        lost += int(values[col])
    return lost, tuple(labels)


def chance_and_read(rules: Rules, factors: int, mods: list[Modifier], label: str):
    """Roll the chance die, clamp, read the table; returns teams lost."""
    yield from mods
    die = yield Roll("1d6", f"chance ({label})", "p16")
    chance = CHANCE[die]
    yield Modifier(f"chance die {die}", chance, "p16")
    raw = total(mods) + chance
    final = clamp(rules, raw)
    if final != raw:
        yield Note(f"variation {raw:+d} clamped to {final:+d}", "p16")
    lost, labels = teams_lost(rules, factors, final)
    yield Cite(labels)
    yield Lookup(
        "Infantry Casualty Table", f"factors {factors}, variation {final:+d}", lost, P_TABLE
    )
    return lost


def allocate(losses: int, squads: int) -> tuple[int, ...]:
    """Losses spread evenly over the squads fired on together (p14; p14 example: 3 squads,
    3 teams lost -> one each); the remainder falls on the first squads (owner's choice)."""
    if squads < 1:
        raise ValueError("at least one squad is fired on")
    base, extra = divmod(losses, squads)
    return tuple(base + (1 if i < extra else 0) for i in range(squads))
