"""Write the Panzerfaust gun charts' penetration rows from the extracted public figures (P49).

    .venv/bin/python scripts/pf_penetration.py [--check]

Reads `rulesets/panzerfaust/sources/penetration.yaml`, converts each target with
`rulesets.panzerfaust.sources.penetration.band_values` and rewrites only the targeted
`penetration` lists in `data/<nation>/gun.yaml` (the rest of each file is left byte for byte).
`--check` exits 1 if any file would change.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

from kriegsspiel.data.yamlsplice import get, record, rewrite, set_value
from kriegsspiel.rulesets.panzerfaust.sources.penetration import band_values, load_sources

DATA = Path(__file__).resolve().parents[1] / "src/kriegsspiel/rulesets/panzerfaust/data"


def _plain(v):
    return v["value"] if isinstance(v, dict) and "value" in v else v


def _parent(root: yaml.MappingNode, rid: str, row: str) -> yaml.MappingNode:
    rec = record(root, rid)
    if row == "penetration":
        return rec
    for item in get(rec, "ammo")[1].value:
        if get(item, "kind")[1].value == row:
            return item
    raise LookupError(f"{rid} has no {row} ammo row")


def splice(text: str, rid: str, row: str, values: list[dict]) -> str:
    """`text` with the `penetration` list of record `rid` (gun or ammo row `row`) replaced."""
    parent = _parent(yaml.compose(text), rid, row)
    return set_value(text, parent, "penetration", values, after="to_hit")


def _lengths(raw: dict, rid: str, row: str) -> int:
    rec = next(r for r in raw["records"] if r["id"] == rid)
    if row == "penetration":
        return len(rec["to_hit"])
    ammo = next(a for a in rec["ammo"] if a["kind"] == row)
    return len(ammo.get("to_hit") or [])


def main(check: bool = False) -> int:
    with open(DATA / "common/range_bands.yaml", encoding="utf-8") as fh:
        bands = yaml.safe_load(fh)
    edges = [
        _plain(e)
        for r in bands["records"]
        if r["id"] == "common/gun-range-bands"
        for e in r["edges_cm"]
    ]
    by_file: dict[Path, list[dict]] = {}
    for target in load_sources()["targets"]:
        by_file.setdefault(DATA / target["gun"].split("/")[0] / "gun.yaml", []).append(target)

    def edit(text: str, targets: list[dict]) -> str:
        for target in targets:
            n = _lengths(yaml.safe_load(text), target["gun"], target["row"])
            values = [v.as_yaml() for v in band_values(target, edges, n)]
            text = splice(text, target["gun"], target["row"], values)
        return text

    changed = [
        rewrite(path, lambda text, t=targets: edit(text, t), check, DATA.parents[3])
        for path, targets in by_file.items()
    ]
    return 1 if check and any(changed) else 0


if __name__ == "__main__":
    sys.exit(main(check="--check" in sys.argv[1:]))
