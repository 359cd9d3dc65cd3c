"""A BattleScribe-style roster (`.ros`, roster schema v2.03 element names) for interoperability.

Each selection becomes a `<selection>` with `entryId` = our `kind:id`, `number` = count,
`customName`, `customNotes`, the PV as a `<cost name="pts">`, and our own fields (rating,
options, covers, the selection id) as `<characteristic>`-free attributes in a `ks:` namespace,
so that reading the file back gives the same roster (`from_ros(to_ros(r)) == r`).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from .roster import Roster, RosterError, Selection, parse_roster

NS = "http://www.battlescribe.net/schema/rosterSchema"
KS = "https://kriegsspiel.invalid/roster"
ET.register_namespace("", NS)
ET.register_namespace("ks", KS)


def _q(tag: str) -> str:
    return f"{{{NS}}}{tag}"


def _k(attr: str) -> str:
    return f"{{{KS}}}{attr}"


def to_ros(roster: Roster, sheet: list[dict] | None = None) -> str:
    costs = {}
    if sheet:

        def walk(n):
            costs[n["id"]] = n["base_pv"]
            for c in n["children"]:
                walk(c)

        for g in sheet:
            walk(g)
    root = ET.Element(
        _q("roster"),
        {
            "id": roster.name,
            "name": roster.name,
            "battleScribeVersion": "2.03",
            "gameSystemId": roster.ruleset,
            "gameSystemName": roster.ruleset,
            "gameSystemRevision": "1",
            "xmlns": NS,
        },
    )
    root.attrib.pop("xmlns")
    meta = {
        k: v for k, v in json.loads(roster.model_dump_json()).items() if k not in ("selections",)
    }
    root.set(_k("meta"), json.dumps(meta, sort_keys=True))
    if roster.points is not None:
        limits = ET.SubElement(root, _q("costLimits"))
        ET.SubElement(
            limits, _q("costLimit"), {"name": "pts", "typeId": "pts", "value": str(roster.points)}
        )
    forces = ET.SubElement(root, _q("forces"))
    force = ET.SubElement(
        forces,
        _q("force"),
        {
            "id": "force-1",
            "name": roster.army_list or roster.nation,
            "entryId": roster.nation,
            "catalogueId": f"{roster.ruleset}/{roster.nation}",
            "catalogueRevision": roster.data_revision or "",
            "catalogueName": roster.army_list or roster.nation,
        },
    )
    _selections(force, roster.selections, costs)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _selections(parent: ET.Element, sels: list[Selection], costs: dict) -> None:
    if not sels:
        return
    box = ET.SubElement(parent, _q("selections"))
    for s in sels:
        el = ET.SubElement(
            box,
            _q("selection"),
            {
                "id": s.id,
                "name": s.entry,
                "entryId": s.entry,
                "number": str(s.count),
                "type": "unit" if s.children else "model",
            },
        )
        if s.name is not None:
            el.set("customName", s.name)
        if s.rating is not None:
            el.set(_k("rating"), s.rating)
        if s.options:
            el.set(_k("options"), json.dumps(s.options))
        if s.covers:
            el.set(_k("covers"), json.dumps(s.covers))
        if s.notes is not None:
            ET.SubElement(el, _q("customNotes")).text = s.notes
        if s.id in costs:
            box_c = ET.SubElement(el, _q("costs"))
            ET.SubElement(
                box_c, _q("cost"), {"name": "pts", "typeId": "pts", "value": f"{costs[s.id]:g}"}
            )
        _selections(el, s.children, costs)


def from_ros(text: str, where: str = "roster.ros") -> Roster:
    """Read a `.ros` written by `to_ros` (lenient: unknown elements are ignored)."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise RosterError(f"{where}:{exc.position[0]}: not valid XML: {exc}") from None
    meta_raw = root.get(_k("meta"))
    if meta_raw is None:
        raise RosterError(f"{where}: not a Kriegsspiel .ros (no ks:meta attribute on <roster>)")
    data = json.loads(meta_raw)
    force = root.find(f"{_q('forces')}/{_q('force')}")
    data["selections"] = _read(force) if force is not None else []
    return parse_roster(data, where)


def _read(parent: ET.Element) -> list[dict]:
    box = parent.find(_q("selections"))
    if box is None:
        return []
    out = []
    for el in box.findall(_q("selection")):
        d: dict = {
            "id": el.get("id"),
            "entry": el.get("entryId"),
            "count": int(el.get("number", 1)),
        }
        if el.get("customName") is not None:
            d["name"] = el.get("customName")
        if el.get(_k("rating")) is not None:
            d["rating"] = el.get(_k("rating"))
        for key in ("options", "covers"):
            if el.get(_k(key)) is not None:
                d[key] = json.loads(el.get(_k(key)))
        notes = el.find(_q("customNotes"))
        if notes is not None:
            d["notes"] = notes.text or ""
        d["children"] = _read(el)
        out.append(d)
    return out
