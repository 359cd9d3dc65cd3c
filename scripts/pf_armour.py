"""Write Panzerfaust AFV armour face by face from the extracted DarkestHour plates (P2).

    .venv/bin/python scripts/pf_armour.py [--check]

Reads `rulesets/panzerfaust/sources/armour.yaml`, folds each face with
`rulesets.panzerfaust.sources.armour.faces` and rewrites only the `armour` mapping of each target
in `data/<nation>/afv.yaml`; a face the source does not give, the target leaves
out (`faces`: where the thickest-plate rule picks a strip the book does not count) or the seed
gives keeps its value and provenance. A target with `sister` takes a sister vehicle's faces as
placeholders (P225). A target with `turretless` (and maybe no `vehicle`: the record's own hull
faces) fills its missing turret faces from the hull faces (P295).
`--check` exits 1 if any file would change.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

from kriegsspiel.data import Provenance
from kriegsspiel.data.yamlsplice import record, rewrite, set_value
from kriegsspiel.rulesets import load
from kriegsspiel.rulesets.panzerfaust.sources.armour import (
    FACES,
    faces,
    load_sources,
    turret_from_hull,
)

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
    return 1 if check and any(changed) else 0


if __name__ == "__main__":
    sys.exit(main(check="--check" in sys.argv[1:]))
