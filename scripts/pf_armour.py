"""Write Panzerfaust AFV armour face by face from the extracted DarkestHour plates (P2).

    .venv/bin/python scripts/pf_armour.py [--check]

Reads `rulesets/panzerfaust/sources/armour.yaml`, folds each face with
`rulesets.panzerfaust.sources.armour.faces` and rewrites only the `armour` mapping of each target
in `data/<nation>/afv.yaml`; a face the source does not give, the target leaves
out (`faces`: where the thickest-plate rule picks a strip the book does not count) or the seed
gives keeps its value and provenance. A target with `sister` takes a sister vehicle's faces as
placeholders (P225). A target with `turretless` (and maybe no `vehicle`: the record's own hull
faces) fills its missing turret faces from the hull faces (P295). Last, every face still missing gets a documented placeholder (P321: scaled from the
vehicle's own faces; P322: the median of its chart kind and size), recomputed on every run.
`--check` exits 1 if any file would change.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

from kriegsspiel.data import Provenance
from kriegsspiel.data.yamlsplice import record, rewrite, set_value
from kriegsspiel.rulesets import _load_cached, load
from kriegsspiel.rulesets.panzerfaust.sources.armour import (
    FACES,
    faces,
    load_sources,
    turret_from_hull,
)
from kriegsspiel.rulesets.panzerfaust.sources.armour_fill import Vehicle, fill, is_read

FILLED = ("P321", "P322")
MODIFIED = "-modified"  # a "... Modified" row beside its base model's row (P321)

BOOK = {Provenance.SEED, Provenance.SEED_INFERRED, Provenance.OVERLAY}
DATA = Path(__file__).resolve().parents[1] / "src/kriegsspiel/rulesets/panzerfaust/data"


def _kept(afv, face: str):
    """The face as it is now, with its own provenance, for faces the source does not give."""
    value = getattr(afv.armour, face)
    if value is None:
        return None
    entry = afv.prov_entry(f"armour.{face}")
    kept = {"value": value, "provenance": str(entry.provenance)}
    kept |= {k: v for k, v in (("ref", entry.ref), ("note", entry.note)) if v}
    return kept


def _from_book(afv, face: str) -> bool:
    """A face the seed (or an overlay) gives is never replaced by a public figure."""
    return getattr(afv.armour, face) is not None and afv.prov(f"armour.{face}") in BOOK


def main(check: bool = False) -> int:
    cat = load("panzerfaust", ())
    by_file: dict[Path, list[dict]] = {}
    for target in load_sources()["targets"]:
        by_file.setdefault(DATA / target["afv"].split("/")[0] / "afv.yaml", []).append(target)

    def edit(text: str, targets: list[dict]) -> str:
        new_by_afv: dict[str, dict] = {}
        turretless: dict[str, str] = {}
        for target in targets:  # an AFV may take some faces from one source, the rest from another
            new = faces(target["vehicle"], target.get("sister")) if "vehicle" in target else {}
            new = {f: v for f, v in new.items() if f in target.get("faces", FACES)}
            new_by_afv.setdefault(target["afv"], {}).update(new)
            if "turretless" in target:
                turretless[target["afv"]] = target["turretless"]
        for afv_id, new in new_by_afv.items():
            afv = cat.get("afv", afv_id)
            armour = {
                f: _kept(afv, f) if f not in new or _from_book(afv, f) else new[f] for f in FACES
            }
            if afv_id in turretless:  # recomputed on every run from the hull as it now stands
                armour |= {f: None for f in ("tf", "ts", "tr") if not _from_book(afv, f)}
                armour |= turret_from_hull(armour, turretless[afv_id])
            text = set_value(
                text, record(yaml.compose(text), afv.id), "armour", armour, after="armament"
            )
        return text

    changed = [
        rewrite(path, lambda text, t=targets: edit(text, t), check, DATA.parents[3])
        for path, targets in by_file.items()
    ]
    if not check:  # the placeholders are computed from the faces as the sources now give them
        _load_cached.cache_clear()
        cat = load("panzerfaust", ())
    changed += fill_placeholders(cat, check)
    return 1 if check and any(changed) else 0


def _vehicle(afv) -> Vehicle:
    """The AFV as the fill sees it; a P321/P322 face from an earlier run counts as missing."""
    entries = {f: afv.prov_entry(f"armour.{f}") for f in FACES}
    own = {f: (e.note or "").startswith(FILLED) for f, e in entries.items()}
    return Vehicle(
        afv.id,
        afv.chart,
        afv.size,
        afv.pv,
        tuple(afv.open),
        {f: None if own[f] else getattr(afv.armour, f) for f in FACES},
        {f: str(e.provenance) for f, e in entries.items()},
        {f: e.note or "" for f, e in entries.items()},
    )


def fill_placeholders(cat, check: bool) -> list[bool]:
    """Decisions P321/P322: every face still missing gets a documented placeholder."""
    afvs = list(cat.all("afv"))
    vehicles = {afv.id: _vehicle(afv) for afv in afvs}
    pool = [v for v in vehicles.values() if is_read(v)]
    near = [v for v in vehicles.values() if is_read(v, hull_copies=True)]
    by_file: dict[Path, dict[str, dict]] = {}
    for afv in afvs:
        base = vehicles.get(afv.id.removesuffix(MODIFIED)) if afv.id.endswith(MODIFIED) else None
        new = fill(vehicles[afv.id], pool, near, base)
        if new:
            path = DATA / afv.id.split("/")[0] / "afv.yaml"
            by_file.setdefault(path, {})[afv.id] = {
                f: new[f] if f in new else _kept(afv, f) for f in FACES
            }

    def edit(text: str, armours: dict[str, dict]) -> str:
        for afv_id, armour in armours.items():
            node = record(yaml.compose(text), afv_id)
            text = set_value(text, node, "armour", armour, after="armament")
        return text

    return [
        rewrite(path, lambda text, a=armours: edit(text, a), check, DATA.parents[3])
        for path, armours in by_file.items()
    ]


if __name__ == "__main__":
    sys.exit(main(check="--check" in sys.argv[1:]))
