"""Decisions P321 and P322 (issue 16): a documented placeholder for every armour face that no
source gives, so that every AFV has the six faces the p31 hit location table reads.

The *reference pool* is every AFV whose six faces are all known and none of them a placeholder,
a P295 copy of the hull (a turretless body) or P2's retired range split: the vehicles whose faces
were read face by face (seed, overlay or a per-plate source). P322 also draws on the turretless
bodies whose turret faces are their hull's (P295): their six faces are the walls a hit strikes.

P321, a vehicle that knows some of its faces: a missing turret side or rear of a vehicle the book
marks open there (p27 flags) is 0.0, as P261 reads an open mount; a missing face of a modified model (a row named
"... Modified" beside its base row) is the base model's face, a floor its added plate only raises;
otherwise it is one of the vehicle's own known,
non-zero faces (the first in `PROXY`: the same side of the other part, or the neighbouring face of
the same part) times the median ratio missing/known over the pool vehicles of the same chart kind
(tank, spg, apc_recon) whose known face is not zero; the ratio is rounded to 0.01 and the product
to 0.1 cm, half up (P2's rounding).

P322, a vehicle that knows none: each face is the median of that face over the `NEIGHBOURS` pool
vehicles nearest to it in the book's PV (the printed points value, which prices armour with gun
and speed: a tankette sits beside tankettes) among those of the same chart kind, size class (p27
size A-E) and open top/sides/rear (p27 flags), or of the same kind and size, or of the same kind,
the first that has `NEIGHBOURS` priced; a vehicle whose PV was lost takes the median of the first
of those groups with `MIN_GROUP` members; rounded to 0.1 cm, half up.

Every such face is `placeholder`, its note naming the rule and the figures it came from, so a
result that uses it says so (the AT fire resolution cites placeholder armour) and a printed copy
or an overlay can replace it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from statistics import median
from typing import Any

FACES = ("hf", "hs", "hr", "tf", "ts", "tr")
# the known face a missing face is scaled from, best first: the other part's face of the same side,
# then the same part's neighbouring faces
PROXY = {
    "hf": ("tf", "hs", "hr", "ts", "tr"),
    "hs": ("hf", "hr", "ts", "tf", "tr"),
    "hr": ("hs", "hf", "tr", "ts", "tf"),
    "tf": ("hf", "ts", "hs", "tr", "hr"),
    "ts": ("tf", "hs", "tr", "hf", "hr"),
    "tr": ("ts", "hr", "tf", "hs", "hf"),
}
OPEN_SIDE = {"ts": "sides", "tr": "rear"}  # the turret faces the p27 open flags leave bare
MIN_GROUP = 3
NEIGHBOURS = 5
# notes of faces that are not a face-by-face reading and so stay out of the pool
NOT_READ = ("P295", "largest figure", "max figure", "range only", "P321", "P322")


@dataclass(frozen=True)
class Vehicle:
    """What the fill needs of an AFV: its chart kind, size class and faces (None = missing), with
    each face's provenance and note (to tell a read face from a placeholder)."""

    id: str
    chart: str
    size: str | None
    pv: int | None
    open: tuple[str, ...]
    faces: Mapping[str, float | None]
    provenance: Mapping[str, str]
    notes: Mapping[str, str]


def tenth(x: float) -> float:
    return float(Decimal(repr(x)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


def hundredth(x: float) -> float:
    return float(Decimal(repr(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def is_read(v: Vehicle, hull_copies: bool = False) -> bool:
    """In the pool: six known faces, none a placeholder or the retired split, and (unless
    `hull_copies`) none a P295 copy of the hull, which would pull every turret/hull ratio to 1."""
    marks = tuple(m for m in NOT_READ if not (hull_copies and m == "P295"))
    return all(
        v.faces[f] is not None
        and v.provenance[f] != "placeholder"
        and not any(mark in (v.notes[f] or "") for mark in marks)
        for f in FACES
    )


def ratio(pool: Iterable[Vehicle], chart: str, face: str, proxy: str) -> tuple[float, int]:
    """The median of face/proxy over the pool vehicles of `chart` whose proxy face is not zero,
    rounded to 0.01, and how many vehicles it is the median of."""
    values = [v.faces[face] / v.faces[proxy] for v in pool if v.chart == chart and v.faces[proxy]]
    return (hundredth(median(values)), len(values)) if values else (0.0, 0)


def fill(
    v: Vehicle, pool: list[Vehicle], near: list[Vehicle], base: Vehicle | None = None
) -> dict[str, dict[str, Any]]:
    """{face: {value, provenance, note}} for every face `v` is missing (none if it has six):
    the face of its `base` model where the data has one (a "Modified" row, P321), else ratios
    from `pool` (P321), medians from `near` (P322: the pool with turretless bodies)."""
    missing = [f for f in FACES if v.faces[f] is None]
    known = {f: x for f, x in v.faces.items() if x is not None}
    if not missing:
        return {}
    if not known:
        return _from_medians(v, near)
    out = {}
    for face in missing:
        side = OPEN_SIDE.get(face)
        if side in v.open:  # P261 (4): an open mount's side or rear with no plate printed
            note = (
                f"P321 placeholder (no source gives this face): the book marks the vehicle open "
                f"at the {side} (p27) and no plate is known: 0.0, as P261 reads an open mount"
            )
            out[face] = {"value": 0.0, "provenance": "placeholder", "note": note}
            continue
        if base is not None and base.faces[face] is not None:
            value = base.faces[face]
            note = (
                f"P321 placeholder (no source gives this face): {face} = the base model "
                f"{base.id}'s {value:g}; the modification's added plate is not counted"
            )
            out[face] = {"value": value, "provenance": "placeholder", "note": note}
            continue
        proxy = next((p for p in PROXY[face] if known.get(p)), None)
        if proxy is None:  # every known face is an open 0.0 face: nothing to scale
            out |= {face: _from_medians(v, near)[face]}
            continue
        r, n = ratio(pool, v.chart, face, proxy)
        value = tenth(known[proxy] * r)
        note = (
            f"P321 placeholder (no source gives this face): {face} = {proxy} {known[proxy]:g} x "
            f"median {face}/{proxy} {r:g} of the face-by-face {v.chart} AFVs (n={n}) -> {value:g}"
        )
        out[face] = {"value": value, "provenance": "placeholder", "note": note}
    return out


def _levels(v: Vehicle, pool: list[Vehicle]) -> list[tuple[str, list[Vehicle]]]:
    """The pool vehicles like `v`, closest first: same chart kind, size and open sides; same kind
    and size; same kind."""
    same = [p for p in pool if p.chart == v.chart]
    sized = [p for p in same if v.size and p.size == v.size]
    opened = [p for p in sized if p.open == v.open]
    shown = "/".join(v.open) or "none"
    return [
        (f"{v.chart} size {v.size} open {shown}", opened),
        (f"{v.chart} size {v.size}", sized),
        (v.chart, same),
    ]


def _from_medians(v: Vehicle, pool: list[Vehicle]) -> dict[str, dict[str, Any]]:
    levels = _levels(v, pool)
    if v.pv is not None:  # the NEIGHBOURS nearest in the book's PV among the closest like it
        label, near = next(
            (lab, [p for p in g if p.pv is not None])
            for lab, g in levels
            if sum(p.pv is not None for p in g) >= NEIGHBOURS or g is levels[-1][1]
        )
        group = sorted(near, key=lambda p: (abs(p.pv - v.pv), p.id))[:NEIGHBOURS]
        names = ", ".join(f"{p.id} {p.pv}" for p in group)
        label = f"{len(group)} face-by-face {label} AFVs nearest in PV to its {v.pv} ({names})"
    else:
        label, group = next(
            (lab, g) for lab, g in levels if len(g) >= MIN_GROUP or g is levels[-1][1]
        )
        label = f"face-by-face {label} AFVs (no PV printed; n={len(group)})"
    out = {}
    for face in FACES:
        value = tenth(median(p.faces[face] for p in group))
        note = (
            f"P322 placeholder (no source gives any face): {face} = median {face} of the "
            f"{label} -> {value:g}"
        )
        out[face] = {"value": value, "provenance": "placeholder", "note": note}
    return out
