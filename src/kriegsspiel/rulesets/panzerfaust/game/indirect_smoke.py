"""Smoke and white phosphorus laid by indirect fire (p37): an off-table battery's fire mission
or map fire, or an on-board mortar firing over open sights, may fire smoke or WP instead of HE
where its guns are able to (p37: the gun charts; the army lists' notes say which artillery and
mortars of each nation fire smoke indirectly). It comes down like HE fire (call-down, beaten
zone) but fills the zone with smoke: one gun pair, mortar or rocket set needs two turns of
constant fire on the same point, two or more need one (p37, p38); the cloud forms at the start
of the next turn and then behaves as direct-fire smoke (game/smoke.py: duration, drift, sight;
p33). Smoke rolls against nothing; WP also rolls the beaten-zone dice against every unit in the
zone with -1 (p37). Which batteries may fire WP is decision P266 (option `indirect_wp`)."""

from __future__ import annotations

from typing import Any, Literal

from ..forces import Battery
from ..rules import indirect
from . import smoke, support
from .state import State

Ammo = Literal["he", "smoke", "wp"]
AMMO: tuple[Ammo, ...] = ("he", "smoke", "wp")
ALL = "all"
MATCH_MM = 1.5  # a calibre named in a note matches within this (75/76.2, 81/82, 114/114.3)

# nation -> (artillery calibres that fire smoke indirectly, mortar calibres, page of the note);
# ("to", mm): every calibre up to mm; ALL: every one. The army-list notes, in numbers.
SMOKE_NOTES: dict[str, tuple[Any, Any, int]] = {
    "britain": (ALL, ALL, 45),
    "france": ((75, 105, 145, 155), (81,), 53),
    "germany": (("to", 150), (81, 105, 120), 59),
    "italy": ((75, 100, 105), (81,), 71),
    "japan": ((75, 105), ALL, 77),
    "ussr": ((76, 107, 122), (81, 107, 120), 82),
    "usa_europe": ((75, 105, 155), ALL, 90),
    "usa_pacific": ((75, 105, 155), ALL, 96),
    "belgium": (ALL, (81,), 99),
    "finland": ((75, 105), (81,), 101),
    "hungary": ((75, 100, 105), (81,), 103),
    "poland": ((75, 100, 105, 114), (81,), 106),
    "rumania": ((75, 76, 100, 105), (81,), 109),
}


def _listed(rule: Any, calibre_mm: float) -> bool:
    if rule == ALL:
        return True
    if rule and rule[0] == "to":
        return calibre_mm <= rule[1] + MATCH_MM
    return any(abs(calibre_mm - mm) <= MATCH_MM for mm in rule)


def note_allows(state: State, side: str, kind: str, calibre_mm: float) -> str | None:
    """Why the side's army-list note does not let a gun or mortar of this calibre fire smoke
    indirectly, or None. Rocket launchers may (p38 gives their smoke rate)."""
    if kind == "rocket":
        return None
    nation = state.nations.get(side, "")
    note = SMOKE_NOTES.get(nation)
    if note is None:
        return f"no army-list note says which {nation or 'of its'} guns fire smoke indirectly (p37)"
    guns, mortars, page = note
    if _listed(mortars if kind == "mortar" else guns, calibre_mm):
        return None
    what = "mortars" if kind == "mortar" else "artillery"
    return f"{nation} {what} of {calibre_mm:g} mm do not fire smoke indirectly (army list, p{page})"


def refused(
    state: State, side: str, ammo: str, kind: str, calibre_mm: float,
    smoke_flag: bool | None = None, wp_flag: bool | None = None,
) -> str | None:  # fmt: skip
    """Why this fire cannot be smoke or WP (None for HE, or when it can): the battery's own
    `smoke`/`wp` word in the forces block wins over the army-list note; WP needs smoke and,
    with `indirect_wp=declared`, its own `wp: true` (P266); a gale scatters it (p33)."""
    if ammo == "he":
        return None
    if smoke_flag is False:
        return "its guns have no smoke rounds (forces block: smoke false; p37)"
    if smoke_flag is None:
        why = note_allows(state, side, kind, calibre_mm)
        if why:
            return why
    if ammo == "wp":
        if wp_flag is False:
            return "its guns have no WP rounds (forces block: wp false; p37)"
        if state.rules.opts.indirect_wp == "declared" and not wp_flag:
            return "WP by indirect fire needs `wp: true` on the battery (option indirect_wp=declared, P266)"
    return smoke.disperses(state, ammo == "wp")


def battery_kind(state: State, b: Battery) -> str:
    if support.is_rocket(state, b):
        return "rocket"
    return "mortar" if support.is_mortar(state, b) else "gun"


def battery_refused(state: State, side: str, b: Battery, ammo: str) -> str | None:
    why = refused(state, side, ammo, battery_kind(state, b), b.calibre_mm, b.smoke, b.wp)
    return f"battery {b.id}: {why}" if why else None


def lay(
    state: State, ammo: str, radius: float, units: int, run: int
) -> tuple[dict[str, Any] | None, list[str]]:  # fmt: skip
    """Smoke or WP fired this turn into a zone of `radius` by `units` gun pairs, mortars or
    rocket sets, its `run`-th turn in a row on the same point: the cloud it lays (or None while
    the zone is still filling) and the lines that explain it (p37)."""
    need = indirect.smoke_moves(units)
    what = "WP" if ammo == "wp" else "smoke"
    head = (
        f"{what} shells, {units} pair(s)/mortar(s)/set(s): {need} turn(s) of constant fire "
        f"fill the zone (p37); this is turn {run} on the point"
    )
    if run < need:
        return None, [head, "the zone is not yet filled: no cloud this turn (p37)"]
    mk, lines = smoke.cloud(state, radius, ammo == "wp")
    return mk, [head, *lines]
