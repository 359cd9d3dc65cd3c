"""Write the Panzerfaust gun charts' penetration rows from the extracted public figures (P49).

    .venv/bin/python scripts/pf_penetration.py [--check]

Reads `rulesets/panzerfaust/sources/penetration.yaml`, converts each target with
`rulesets.panzerfaust.sources.penetration.band_values` and rewrites only the targeted
`penetration` lists in `data/<nation>/gun.yaml` (the rest of each file is left byte for byte).
`--check` exits 1 if any file would change.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml

from kriegsspiel.rulesets.panzerfaust.sources.penetration import band_values, load_sources

DATA = Path(__file__).resolve().parents[1] / "src/kriegsspiel/rulesets/panzerfaust/data"


def _plain(v):
    return v["value"] if isinstance(v, dict) and "value" in v else v


def _get(node: yaml.MappingNode, key: str):
    for k, v in node.value:
        if k.value == key:
            return k, v
    return None


def _record(root: yaml.MappingNode, rid: str) -> yaml.MappingNode:
    for item in _get(root, "records")[1].value:
        if _get(item, "id")[1].value == rid:
            return item
    raise LookupError(f"no gun record {rid}")


def _parent(root: yaml.MappingNode, rid: str, row: str) -> yaml.MappingNode:
    rec = _record(root, rid)
    if row == "penetration":
        return rec
    for item in _get(rec, "ammo")[1].value:
        if _get(item, "kind")[1].value == row:
            return item
    raise LookupError(f"{rid} has no {row} ammo row")


def _item(v: dict) -> str:
    return (
        f"{{value: {v['value']}, provenance: {v['provenance']}, "
        f"ref: {json.dumps(v['ref'])}, note: {json.dumps(v['note'])}}}"
    )


def _last_line(node: yaml.Node) -> int:
    """0-based line of the node's last character (a block list ends with its last item)."""
    if isinstance(node, yaml.SequenceNode) and not node.flow_style and node.value:
        node = node.value[-1]
    end = node.end_mark
    return end.line - 1 if end.column == 0 else end.line


def splice(text: str, rid: str, row: str, values: list[dict]) -> str:
    """`text` with the `penetration` list of record `rid` (gun or ammo row `row`) replaced."""
    root = yaml.compose(text)
    parent = _parent(root, rid, row)
    found = _get(parent, "penetration")
    if parent.flow_style:
        flow = "[" + ", ".join(_item(v) for v in values) + "]"
        if found:
            s, e = found[1].start_mark.index, found[1].end_mark.index
            return text[:s] + flow + text[e:]
        close = parent.end_mark.index - 1
        return text[:close] + f", penetration: {flow}" + text[close:]
    lines = text.splitlines(keepends=True)
    if found:
        key, val = found
        first, last, col = key.start_mark.line, _last_line(val), key.start_mark.column
    else:
        key, val = _get(parent, "to_hit")
        first = last = _last_line(val) + 1
        col = key.start_mark.column
        last -= 1
    pad = " " * col
    block = [f"{pad}penetration:\n"] + [f"{pad}  - {_item(v)}\n" for v in values]
    return "".join(lines[:first] + block + lines[last + 1 :])


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
    changed = []
    by_file: dict[Path, list[dict]] = {}
    for target in load_sources()["targets"]:
        by_file.setdefault(DATA / target["gun"].split("/")[0] / "gun.yaml", []).append(target)
    for path, targets in by_file.items():
        before = text = path.read_text(encoding="utf-8")
        for target in targets:
            n = _lengths(yaml.safe_load(text), target["gun"], target["row"])
            values = [v.as_yaml() for v in band_values(target, edges, n)]
            text = splice(text, target["gun"], target["row"], values)
        if text != before:
            changed.append(path)
            if not check:
                path.write_text(text, encoding="utf-8")
    for path in changed:
        print(f"{'would change' if check else 'wrote'} {path.relative_to(DATA.parents[3])}")
    return 1 if check and changed else 0


if __name__ == "__main__":
    sys.exit(main(check="--check" in sys.argv[1:]))
