"""Penetration Effects (p31): 3D6 plus variations after a penetration or an HE hit, and how
results accumulate (same result again -> the next one up; stuns add up; damage is permanent)."""

from __future__ import annotations

from ....chance import Cite, Lookup, Modifier, Note, Roll, total
from . import placeholders as ph
from .tables import Rules

P_EFFECTS = "p31 Penetration Effects"
# ordered from nothing to destroyed; "damaged" is hull (immobilised) or gun damaged by location
LADDER = ("no_effect", "stunned_1", "stunned_2", "damaged", "destroyed")
ROWS = {
    "destroyed": "destroyed",
    "hull_gun_damaged": "damaged",
    "stunned_2_moves": "stunned_2",
    "stunned_1_move": "stunned_1",
    "no_effect": "no_effect",
}


def effect_of(rules: Rules, value: int) -> tuple[str, tuple[str, ...]]:
    """The table row a modified 3D6 falls in, and the placeholder labels of its bounds."""
    labels: list[str] = []
    for key, name in ROWS.items():
        lo, la = rules.cell("penetration-effects-table", key, "min_3d6", fallback=-999)
        hi, lb = rules.cell("penetration-effects-table", key, "max_3d6", fallback=999)
        labels += [x for x in la + lb if not x.startswith("rules-placeholder")]
        if int(lo) <= value <= int(hi):
            return name, tuple(labels)
    return "no_effect", tuple(labels)


def escalate(prior: str, new: str) -> str:
    """p31: the same result a second time counts as the next one up (Stunned 2 twice ->
    Hull/Gun damaged, example p31); a weaker result leaves the stronger standing; stuns add up."""
    prior = "damaged" if prior in ("immobilised", "gun_damaged") else prior
    if prior.startswith("stunned_") and prior not in LADDER:
        prior = "stunned_2"  # three or more moves of stun: the next step up is damage
    if prior in ("none", "no_effect") or new == "no_effect":
        return new if prior in ("none", "no_effect") else prior
    pi, ni = LADDER.index(prior), LADDER.index(new)
    if ni == pi:
        return LADDER[min(pi + 1, len(LADDER) - 1)]
    if prior.startswith("stunned") and new.startswith("stunned"):
        return f"stunned_{pi + ni}"  # different stuns add their moves (p31)
    return LADDER[max(pi, ni)]


def penetration_effects(rules: Rules, mods: list[Modifier], why: str):
    """Roll 3D6 + mods on the Penetration Effects table; returns the ladder name."""
    yield from mods
    roll = yield Roll("3d6", f"penetration effects ({why})", P_EFFECTS)
    value = roll + total(mods)
    name, labels = effect_of(rules, value)
    if labels:
        yield Cite(labels)
    yield Lookup("Penetration Effects", f"{roll}{total(mods):+d} = {value}", name, P_EFFECTS)
    return name


def located(name: str, location: str) -> str:
    """A 'damaged' result by location: hull or tracks -> immobilised, turret -> gun damaged."""
    if name != "damaged":
        return name
    return "gun_damaged" if location == "turret" else "immobilised"


def note_prior(prior: str, before: str, after: str):
    if prior not in ("none", "no_effect") and after != before:
        yield Note(f"earlier result {prior} and now {before}: counts as {after}", P_EFFECTS)


CALIBRE_BANDS = ((47, "to_47mm"), (82, "to_82mm"), (122, "to_122mm"))


def calibre_band(calibre_mm: float | None) -> str:
    """The calibre row of the (lost) Penetration Effects calibre variations (P87 reads the
    p9 gun calibre rows: to 47, to 82, to 122 mm, larger)."""
    cal = calibre_mm or 0
    return next((band for mm, band in CALIBRE_BANDS if cal <= mm), "over_122mm")


def calibre_variation(rules: Rules, ammo: str, calibre_mm: float | None):
    """The p31 calibre variation for AP or HE (lost: placeholder P87, reported; an overlay
    adding table `common/penetration-effects-calibre` replaces it). Yields its cite."""
    band = calibre_band(calibre_mm)
    column = "he" if ammo == "HE" else "ap"
    fallback = ph.EFFECTS_CALIBRE_HE if ammo == "HE" else ph.EFFECTS_CALIBRE_AP
    value, labels = rules.lost("penetration-effects-calibre", band, column, fallback)
    yield Cite(labels)
    lost = " (lost; placeholder P87)" if labels else ""
    return [Modifier(f"{ammo} calibre variation, {band}{lost}", int(value), "p31")]
