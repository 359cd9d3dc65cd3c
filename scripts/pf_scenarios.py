"""Write the shipped Panzerfaust scenarios (issue 19 item 5) from army-builder rosters.

Each side's roster is built with the army builder (organisations bring their mandatory
contents, decision P110) and kept in the scenario; its tree becomes the forces block:
a top-level selection is a company, an organisation node at platoon level (or a company's HQ
node) a platoon, a squad/section/HQ node a squad, and every leaf × count a team. Infantry of
a squad ride the squad's carrier when the layout says they start mounted. The layout (where
each platoon stands, terrain, objectives, briefing) is written out below by hand.

    .venv/bin/python scripts/pf_scenarios.py            # rewrite the three files
    .venv/bin/python scripts/pf_scenarios.py --check    # exit 1 if a file is stale
                                                        # (the rosters' data_revision aside)
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

import yaml

from kriegsspiel.armylist.builders import builder
from kriegsspiel.armylist.roster import Roster, Selection
from kriegsspiel.rulesets import load

OUT = Path(__file__).resolve().parents[1] / "src/kriegsspiel/rulesets/panzerfaust/scenarios"
CARRIERS = ("afv", "softskin")
HEAD = "# Written by scripts/pf_scenarios.py from the rosters it keeps below; edit that script.\n"


def roster(nation: str, date: str, name: str, theatre: str, plan: list[tuple]) -> Roster:
    """A roster from `plan`: (key, parent key or None, entry, {builder kwargs})."""
    b = builder("panzerfaust")
    r = b.new(nation, date, theatre, None, name)
    paths: dict[str, str] = {}
    for key, parent, entry, kw in plan:
        where = paths[parent] if parent else ""
        sel = b.add(r, where, entry, **kw)
        paths[key] = f"{where}/{sel.id}".strip("/")
    report = b.validate(r)
    if not report.ok:
        raise SystemExit(f"{name}: roster not legal: {[str(m) for m in report.of('error')]}")
    return r


def _level(entry: str) -> str | None:
    kind, _, ident = entry.partition(":")
    if kind != "organisation":
        return None
    return load("panzerfaust").get("organisation", ident).level


def _kind(entry: str) -> str:
    return entry.partition(":")[0]


def companies(r: Roster, side: str) -> list[dict[str, Any]]:
    """The roster's tree as Panzerfaust companies → platoons → teams (squad ids kept)."""
    out = []
    for top in r.selections:
        platoons: list[dict[str, Any]] = []
        _platoons(top, side, platoons, top)
        company = {
            "id": f"{side}-{top.id}",
            "name": top.name or _name(top.entry),
            "platoons": platoons,
        }
        if _kind(top.entry) == "organisation":
            company["organisation"] = top.entry
        company.update(_rating(r, top))
        teams = [t for p in platoons for t in p["teams"]]
        if len(platoons) == 1 and not any(t.get("hq") == "company" for t in teams):
            lead = next((t for t in teams if t.get("hq") == "platoon"), None)
            if lead is not None:
                lead["hq"] = "company"
        out.append(company)
    return out


def _rating(r: Roster, top: Selection) -> dict[str, str]:
    """The company's troop class and morale: its rating row at the roster's date (p22)."""
    from kriegsspiel.armylist.panzerfaust.catalogue import in_window
    from kriegsspiel.armylist.panzerfaust.pricing import group_rating

    ac = builder("panzerfaust").ac
    rules = ac.rating_rules(r.nation, group_rating(ac, r, top))
    y, m = r.year_month
    dated = [x for x in rules if x.valid is None or in_window(x.valid, y, m) is not False]
    row = (dated or rules or [None])[0]
    if row is None:
        return {}
    return {
        k: v
        for k, v in (("troop_class", row.troop_class), ("morale", row.morale))
        if v != "as_unit"
    }


def _name(entry: str) -> str:
    kind, _, ident = entry.partition(":")
    if kind == "adhoc":
        return "Ad-hoc company"
    return load("panzerfaust").get(kind, ident).name


def _platoons(sel: Selection, side: str, out: list, company: Selection) -> None:
    for child in sel.children:
        level = _level(child.entry)
        if (
            level in ("platoon",)
            or (level == "company" and child is not company)
            or (level is not None and "hq" in child.entry and sel is company)
        ):
            teams: list[dict[str, Any]] = []
            _teams(child, side, teams, child.id, hq_node=child)
            out.append(
                {
                    "id": f"{side}-{child.id}",
                    "name": child.name or _name(child.entry),
                    "organisation": child.entry,
                    "teams": teams,
                }
            )
        elif level is not None:
            _platoons(child, side, out, company)
        else:  # a loose item straight under the company: a platoon of its own
            teams = []
            _teams(child, side, teams, child.id, hq_node=child)
            out.append({"id": f"{side}-{child.id}", "name": _name(child.entry), "teams": teams})


def _teams(sel: Selection, side: str, out: list, squad: str, hq_node: Selection) -> None:
    level = _level(sel.entry)
    if level is not None:
        for child in sel.children:
            lv = _level(child.entry)
            sub = child.id if lv in ("squad", "section") or (lv and "hq" in child.entry) else squad
            _teams(child, side, out, sub, hq_node)
        if sel is hq_node:
            _commanders(out)
        return
    rec = load("panzerfaust").get(_kind(sel.entry), sel.entry.partition(":")[2])
    for i in range(sel.count):
        team: dict[str, Any] = {
            "id": f"{side}-{sel.id}-{i + 1}",
            "type": sel.entry,
            "squad": f"{side}-{squad}",
        }
        lname = rec.name.casefold()
        if "company hq" in lname and i == 0:
            team["hq"] = "company"
        elif "platoon hq" in lname and i == 0:
            team["hq"] = "platoon"
        out.append(team)


def _commanders(teams: list[dict[str, Any]]) -> None:
    """A platoon without a platoon HQ team is led by its first AFV (p27, decision P106); a
    company node without a company HQ team (an ad-hoc company's lone platoon) by that
    platoon's leader (decision P127)."""
    if not any(t.get("hq") for t in teams):
        lead = next((t for t in teams if _kind(t["type"]) == "afv"), None)
        if lead is not None:
            lead["hq"] = "platoon"


def place(company_list: list, layout: dict[str, dict], mounted: bool) -> None:
    """Put each platoon's teams on a grid at its anchor (layout by roster selection id):
    {x, y, facing, cols, gap, hidden, dug_in, unplaced}; riders share their carrier's place."""
    for c in company_list:
        for p in c["platoons"]:
            spec = layout.get(p["id"].split("-", 1)[1], layout.get("*", {}))
            carriers = [t for t in p["teams"] if _kind(t["type"]) in CARRIERS]
            by_squad: dict[str, list] = {}
            for t in carriers:
                by_squad.setdefault(t["squad"], []).append(t)
            if mounted and spec.get("mounted", True):
                for t in p["teams"]:
                    if _kind(t["type"]) in CARRIERS or t.get("transport"):
                        continue
                    cars = by_squad.get(t["squad"]) or carriers
                    for car in cars:
                        load_ = sum(1 for u in p["teams"] if u.get("transport") == car["id"])
                        if load_ < spec.get("per_carrier", 2):
                            t["transport"] = car["id"]
                            break
            if spec.get("unplaced"):
                continue
            standing = [t for t in p["teams"] if not t.get("transport")]
            cols = spec.get("cols", 4)
            gap = spec.get("gap", 6.0)
            a = math.radians(spec.get("facing", 0))
            for n, t in enumerate(standing):
                row, col = divmod(n, cols)
                dx, dy = (col - (cols - 1) / 2) * gap, -row * gap
                # rotate the grid so its front faces `facing`
                x = spec["x"] + dx * math.cos(a) + dy * math.sin(a)
                y = spec["y"] - dx * math.sin(a) + dy * math.cos(a)
                t["x"], t["y"], t["facing"] = round(x, 1), round(y, 1), float(spec.get("facing", 0))
                for k in ("hidden", "dug_in", "camouflaged"):
                    if spec.get(k) and _kind(t["type"]) not in ("afv", "softskin"):
                        t[k] = True
            for t in p["teams"]:
                car = next((u for u in p["teams"] if u["id"] == t.get("transport")), None)
                if car is not None and "x" in car:
                    t["x"], t["y"], t["facing"] = car["x"], car["y"], car["facing"]


def roster_doc(r: Roster) -> dict[str, Any]:
    return r.model_dump(mode="json", exclude_defaults=True) | {
        "format": r.format,
        "version": r.version,
    }


def box(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


# ------------------------------------------------------------------------------ scenarios

SUPPORT = ("battery", "aircraft", "fieldwork")


def forces(r: Roster, side: str, role: str, zone, layout: dict, mounted: bool = True, **extra):
    """A side's forces block: the roster's companies placed by `layout`, its batteries and
    aircraft, the roster itself."""
    tops = [t for t in r.selections if _kind(t.entry) not in SUPPORT]
    trimmed = r.model_copy(update={"selections": tops})
    cs = companies(trimmed, side)
    place(cs, layout, mounted)
    block: dict[str, Any] = {"nation": r.nation, "role": role}
    if zone is not None:
        block["deployment"] = zone
    else:
        block["enters_from_edge"] = True
    block["companies"] = cs
    for sel in r.selections:
        kind = _kind(sel.entry)
        if kind == "battery":
            block.setdefault("batteries", []).append(
                {"id": f"{side}-{sel.id}", "type": sel.entry, "count": sel.count}
            )
        elif kind == "aircraft":  # one entry per aircraft: each has its own damage (p44)
            block.setdefault("aircraft", []).extend(
                {"id": f"{side}-{sel.id}" + (f"-{n + 1}" if sel.count > 1 else ""),
                 "type": sel.entry, "count": 1}
                for n in range(sel.count)
            )  # fmt: skip
    for key, value in extra.items():
        if key in block and isinstance(value, list):
            for item, more in zip(block[key], value, strict=False):
                item.update(more)
        else:
            block[key] = value
    block["roster"] = roster_doc(r)
    return block


def mount(block: dict, riders: list[str], carriers: list[str], per: int) -> None:
    """Tank riders (p28): the teams of the `riders` platoons climb on the AFVs of the
    `carriers` platoons, `per` to a vehicle, in order."""
    plats = {p["id"]: p for c in block["companies"] for p in c["platoons"]}
    cars = [t for pid in carriers for t in plats[pid]["teams"] if _kind(t["type"]) == "afv"]
    teams = [t for pid in riders for t in plats[pid]["teams"]]
    for n, t in enumerate(teams):
        car = cars[n // per]
        t["transport"] = car["id"]
        for k in ("x", "y", "facing"):
            if k in car:
                t[k] = car[k]
            else:
                t.pop(k, None)


def _hide(block: dict, where: list[str], key: str, value: Any) -> None:
    for c in block["companies"]:
        for p in c["platoons"]:
            if p["id"] in where:
                for t in p["teams"]:
                    t[key] = value


def normandy_encounter() -> dict[str, Any]:
    ger = roster(
        "germany",
        "1944-06",
        "Kampfgruppe Hoffmann",
        "Normandy",
        [
            ("pg", None, "organisation:germany/panzer-grenadier-company", {}),
            ("adhoc", None, "adhoc:company", {}),
            ("pz", "adhoc", "organisation:germany/pz-platoon-late", {}),
            ("pz+", "pz", "afv:germany/pz-iv-ausf-g-j", {"count": 1}),
        ],
    )
    gb = roster(
        "britain",
        "1944-06",
        "B Company, 5th Wiltshires",
        "Normandy",
        [
            ("inf", None, "organisation:britain/infantry-company", {}),
            ("adhoc", None, "adhoc:company", {}),
            ("tp", "adhoc", "organisation:britain/sherman-troop-1944", {}),
            ("ff", "tp", "afv:britain/firefly", {}),
        ],
    )
    g = forces(
        ger,
        "germany",
        "encounter",
        box(0, 105, 180, 120),
        {
            "s2": {"x": 92, "y": 109, "facing": 180, "cols": 4, "gap": 5, "per_carrier": 3},
            "s11": {"x": 35, "y": 108, "facing": 180, "cols": 4, "gap": 7},
            "s25": {"x": 65, "y": 108, "facing": 180, "cols": 4, "gap": 7},
            "s39": {"x": 120, "y": 108, "facing": 180, "cols": 4, "gap": 7},
            "s54": {"x": 152, "y": 110, "facing": 180, "cols": 4, "gap": 7},
        },
    )
    b = forces(
        gb,
        "britain",
        "encounter",
        box(0, 0, 180, 15),
        {
            "s2": {"x": 95, "y": 12, "cols": 4, "gap": 5},
            "s6": {"x": 30, "y": 13, "cols": 5, "gap": 4.5},
            "s20": {"x": 70, "y": 13, "cols": 5, "gap": 4.5},
            "s34": {"x": 140, "y": 13, "cols": 5, "gap": 4.5},
            "s49": {"x": 115, "y": 8, "cols": 4, "gap": 7},
        },
    )
    return {
        "id": "pf-normandy-encounter",
        "name": "Le Mesnil crossroads (Normandy, June 1944)",
        "ruleset": "panzerfaust",
        "description": "Encounter: a Panzergrenadier company with Pz IVs meets a British rifle "
        "company with a Sherman troop in the bocage",
        "briefing": (
            "Normandy, mid-June 1944. A British rifle company, with a troop of Shermans "
            "(one a Firefly) under command, pushes south-east towards the Le Mesnil crossroads "
            "just as a half-tracked Panzergrenadier company, backed by four Pz IVs, arrives "
            "from the north to seal the gap. Neither side knows the other is this close.\n"
            "Forces: Germany, a Panzergrenadier company (company HQ, three platoons mounted in "
            "Sdkfz 251 half-tracks) and a platoon of four Pz IV Ausf G-J; Britain, a rifle "
            "company (HQ with PIAT, three platoons of three sections) and a troop of three M4 "
            "Shermans and a Firefly.\n"
            "Objectives: the crossroads in the hamlet and the Ferme du Bois farm, both on the "
            "centre line. A side holds one when it has a squad, heavy weapon, gun or AFV within "
            "10 cm of its centre and the enemy has nothing there (p5).\n"
            "Victory: after 12 turns, the side that alone holds both objectives wins; a side "
            "that loses half its pieces first loses at once. Otherwise a draw.\n"
            "Set-up: encounter battle, each side in the 15 cm along its own edge, the side "
            "with the lower troop class deploying first; no programmed map fire."
        ),
        "table": {"width": 180, "depth": 120, "unit": "cm"},
        "terrain": [
            {
                "id": "road-north-south",
                "kind": "road",
                "width": 3,
                "line": [[95, 0], [92, 40], [90, 60], [88, 80], [85, 120]],
            },
            {
                "id": "road-east-west",
                "kind": "road",
                "width": 3,
                "line": [[0, 62], [60, 61], [90, 60], [130, 58], [180, 56]],
            },
            {"id": "hamlet-1", "kind": "building", "height": 2, "polygon": box(78, 64, 85, 70)},
            {"id": "hamlet-2", "kind": "building", "height": 2, "polygon": box(95, 63, 102, 69)},
            {"id": "hamlet-3", "kind": "building", "height": 2, "polygon": box(79, 50, 85, 56)},
            {"id": "church", "kind": "building", "height": 4, "polygon": box(96, 47, 104, 55)},
            {"id": "farm", "kind": "building", "height": 2, "polygon": box(25, 63, 35, 69)},
            {
                "id": "orchard-farm",
                "kind": "orchard",
                "height": 2,
                "polygon": [[14, 40], [45, 41], [44, 58], [15, 57]],
            },
            {
                "id": "bocage-1",
                "kind": "bocage",
                "width": 1.5,
                "height": 3,
                "line": [[0, 30], [60, 32], [62, 55]],
            },
            {
                "id": "bocage-2",
                "kind": "bocage",
                "width": 1.5,
                "height": 3,
                "line": [[110, 30], [180, 28]],
            },
            {
                "id": "bocage-3",
                "kind": "bocage",
                "width": 1.5,
                "height": 3,
                "line": [[118, 31], [118, 52]],
            },
            {
                "id": "bocage-4",
                "kind": "bocage",
                "width": 1.5,
                "height": 3,
                "line": [[0, 88], [70, 86], [72, 100]],
            },
            {
                "id": "bocage-5",
                "kind": "bocage",
                "width": 1.5,
                "height": 3,
                "line": [[112, 86], [180, 88]],
            },
            {
                "id": "hedge-1",
                "kind": "hedge",
                "width": 1,
                "height": 1,
                "line": [[40, 70], [40, 84]],
            },
            {
                "id": "bois-saint-clair",
                "kind": "woods",
                "height": 4,
                "attributes": {"density": "thick"},
                "polygon": [[135, 65], [165, 68], [170, 80], [150, 84], [132, 78]],
            },
            {"id": "wheat", "kind": "field", "polygon": [[55, 70], [80, 72], [80, 84], [57, 84]]},
            {
                "id": "la-seulles",
                "kind": "stream",
                "width": 2,
                "attributes": {"ford": [[139, 22]]},
                "line": [[140, 0], [138, 25], [150, 40], [180, 45]],
            },
            {
                "id": "hill-north",
                "kind": "hill",
                "height": 2,
                "polygon": [[118, 92], [160, 90], [170, 104], [128, 104]],
            },
        ],
        "sides": [
            {"id": "germany", "name": "Kampfgruppe Hoffmann", "nation": "germany", "edge": "north"},
            {
                "id": "britain",
                "name": "B Company, 5th Wiltshires",
                "nation": "britain",
                "edge": "south",
            },
        ],
        "forces": {"germany": g, "britain": b},
        "objectives": [
            {"id": "crossroads", "name": "Le Mesnil crossroads", "x": 90, "y": 60, "radius": 10},
            {"id": "farm", "name": "Ferme du Bois", "x": 30, "y": 60, "radius": 10},
        ],
        "victory": {
            "turn_limit": 12,
            "default_winner": None,
            "conditions": [
                {"kind": "destroy", "side": "germany", "fraction": 0.5},
                {"kind": "destroy", "side": "britain", "fraction": 0.5},
                {"kind": "hold", "side": "germany", "objectives": ["crossroads", "farm"]},
                {"kind": "hold", "side": "britain", "objectives": ["crossroads", "farm"]},
            ],
        },
        "special_rules": [
            "Encounter battle (p4): both sides set up in the 15 cm along their own edge; no "
            "programmed map fire.",
            "Bocage is a thick treeline: a size C or D fully tracked AFV may try to force it "
            "(1D6 4-6, p26); woods are thick.",
            "La Seulles may be forded at the marked point only.",
            "Weather: rolled for northern Europe in summer at set-up (p10).",
        ],
        "options": {"pregame": {"battle_type": "encounter", "sphere": "ne", "season": "summer"}},
    }


def kursk_attack() -> dict[str, Any]:
    su = roster(
        "ussr",
        "1943-07",
        "2nd Battalion, 181st Tank Brigade",
        "Kursk salient",
        [
            ("tc", None, "organisation:ussr/medium-tank-company-1942", {"expand": False}),
            ("hq", "tc", "afv:ussr/t-34-76-m1943", {}),
            ("p1", "tc", "organisation:ussr/t-34-platoon", {"expand": False}),
            ("p1t", "p1", "afv:ussr/t-34-76-m1943", {"count": 3}),
            ("p2", "tc", "organisation:ussr/t-34-platoon", {"expand": False}),
            ("p2t", "p2", "afv:ussr/t-34-76-m1943", {"count": 3}),
            ("smg", None, "organisation:ussr/smg-company", {}),
        ],
    )
    de = roster(
        "germany",
        "1943-07",
        "7./Grenadier-Regiment 508",
        "Kursk salient",
        [
            ("inf", None, "organisation:germany/infantry-company", {}),
            ("adhoc", None, "adhoc:company", {}),
            ("at", "adhoc", "organisation:germany/at-platoon-75mm", {}),
        ],
    )
    s = forces(su, "ussr", "attacker", None, {"*": {"unplaced": True}}, mounted=False)
    tanks = [p["id"] for c in s["companies"][:1] for p in c["platoons"]]
    smg = [p["id"] for c in s["companies"][1:] for p in c["platoons"]]
    # each carrier platoon brings its riders (p28: at most four teams on a tank)
    mount(s, [smg[1], smg[3]], [tanks[1]], 4)
    mount(s, [smg[2]], [tanks[2]], 2)
    mount(s, [smg[0]], [tanks[0]], 1)
    s["arrivals"] = [  # p4: at least one platoon of each company a turn, all on by turn 3
        {"turn": 1, "platoons": [tanks[1], smg[1], smg[3]], "point": [60, 0]},
        {"turn": 2, "platoons": [tanks[2], smg[2]], "point": [120, 0]},
        {"turn": 3, "platoons": [tanks[0], smg[0]], "point": [90, 0]},
    ]
    g = forces(
        de,
        "germany",
        "defender",
        box(0, 30, 180, 120),
        {
            "s2": {"x": 92, "y": 100, "facing": 180, "cols": 2, "gap": 5},
            "s5": {"x": 45, "y": 74, "facing": 180, "cols": 6, "gap": 5},
            "s18": {"x": 95, "y": 78, "facing": 180, "cols": 6, "gap": 5},
            "s31": {"x": 140, "y": 74, "facing": 180, "cols": 6, "gap": 5},
            "s45": {"x": 92, "y": 91, "facing": 180, "cols": 3, "gap": 20},
        },
        mounted=False,
    )
    front = [p["id"] for c in g["companies"] for p in c["platoons"]]
    _hide(g, front, "hidden", True)
    _hide(g, front[1:4], "dug_in", True)
    _hide(g, front[4:], "camouflaged", True)
    for p, work in zip(front[1:4], ("trench-west", "trench-centre", "trench-east"), strict=True):
        _hide(g, [p], "entrenched", work)
        _hide(g, [p], "dug_in", False)
    g["works"] = [
        {
            "id": "trench-west",
            "type": "fieldwork:common/entrenchment",
            "polygon": box(28, 71, 62, 82),
        },
        {
            "id": "trench-centre",
            "type": "fieldwork:common/entrenchment",
            "polygon": box(78, 75, 112, 86),
        },
        {
            "id": "trench-east",
            "type": "fieldwork:common/entrenchment",
            "polygon": box(123, 71, 157, 82),
        },
        {
            "id": "mines-road",
            "type": "fieldwork:common/at-mine",
            "hidden": True,
            "density": "dense",
            "polygon": box(80, 52, 100, 58),
        },
        {
            "id": "mines-gully",
            "type": "fieldwork:common/at-mine",
            "hidden": True,
            "density": "medium",
            "polygon": box(130, 48, 155, 54),
        },
        {
            "id": "mines-ap-west",
            "type": "fieldwork:common/ap-mine",
            "hidden": True,
            "density": "sparse",
            "polygon": box(25, 56, 60, 60),
        },
    ]
    g["dummies"] = [
        {"id": "dummy-1", "x": 20, "y": 80, "size": "A"},
        {"id": "dummy-2", "x": 65, "y": 88, "size": "C"},
        {"id": "dummy-3", "x": 120, "y": 86, "size": "C"},
        {"id": "dummy-4", "x": 165, "y": 78, "size": "A"},
    ]
    return {
        "id": "pf-kursk-attack",
        "name": "Height 226.6 (Kursk salient, July 1943)",
        "ruleset": "panzerfaust",
        "description": "Attack/Defence: T-34s carrying submachine gunners assault a German "
        "rifle company dug in behind mines with PaK 40s",
        "briefing": (
            "The Kursk salient, July 1943. A German rifle company holds the village of "
            "Berezovka and the height beside it with three PaK 40s, trenches and mine fields "
            "laid in front of them. A Soviet tank company comes on from the south with a "
            "submachine gun company riding its T-34s, to take the height and the village.\n"
            "Forces: USSR, seven T-34/76 m1943 (company commander and two platoons of three) "
            "with a submachine gun company (HQ and three platoons) as tank riders; Germany, "
            "an infantry company (HQ and three platoons, each in its own trench line) and a "
            "platoon of three 75 mm PaK 40.\n"
            "Objectives: the village and the height, in the German ground.\n"
            "Victory: the Soviets win if after 10 turns they have a piece within 10 cm of "
            "each objective and no German piece is within 10 cm of it; Germany wins at once "
            "if the Soviets lose 60 % of their pieces, and otherwise when the turns run out.\n"
            "Set-up: attack/defence (p4). The German player writes his positions on a map; "
            "teams start hidden (counters, up to one dummy each) and the mine fields stay "
            "secret until found. The Soviets enter from the south edge: a tank platoon and "
            "its riders on turns 1 and 2, everything else on turn 3."
        ),
        "table": {"width": 180, "depth": 120, "unit": "cm"},
        "terrain": [
            {
                "id": "height-226",
                "kind": "hill",
                "height": 3,
                "polygon": [[120, 80], [150, 76], [172, 90], [160, 110], [125, 104]],
            },
            {
                "id": "height-crest",
                "kind": "hill",
                "height": 5,
                "polygon": [[135, 88], [155, 86], [160, 96], [140, 100]],
            },
            {"id": "village-1", "kind": "building", "height": 2, "polygon": box(40, 92, 48, 98)},
            {"id": "village-2", "kind": "building", "height": 2, "polygon": box(55, 94, 62, 100)},
            {"id": "village-3", "kind": "building", "height": 2, "polygon": box(45, 104, 52, 110)},
            {"id": "village-4", "kind": "building", "height": 2, "polygon": box(62, 104, 70, 110)},
            {
                "id": "orchard-village",
                "kind": "orchard",
                "height": 2,
                "polygon": [[30, 100], [42, 100], [42, 115], [30, 115]],
            },
            {
                "id": "balka",
                "kind": "gully",
                "height": -2,
                "polygon": [[125, 40], [165, 44], [170, 50], [128, 50]],
            },
            {
                "id": "track",
                "kind": "road",
                "width": 2,
                "line": [[90, 0], [90, 55], [75, 90], [55, 102], [0, 110]],
            },
            {
                "id": "birch-copse",
                "kind": "woods",
                "height": 4,
                "attributes": {"density": "thin"},
                "polygon": [[5, 40], [25, 38], [28, 55], [8, 56]],
            },
            {"id": "wheat-south", "kind": "field", "polygon": box(20, 10, 80, 30)},
            {"id": "wheat-east", "kind": "field", "polygon": box(100, 10, 170, 32)},
            {"id": "brush", "kind": "low_brush", "polygon": box(60, 36, 120, 46)},
        ],
        "sides": [
            {
                "id": "ussr",
                "name": "2nd Battalion, 181st Tank Brigade",
                "nation": "ussr",
                "edge": "south",
            },
            {
                "id": "germany",
                "name": "7./Grenadier-Regiment 508",
                "nation": "germany",
                "edge": "north",
            },
        ],
        "forces": {"ussr": s, "germany": g},
        "objectives": [
            {"id": "village", "name": "Berezovka", "x": 55, "y": 100, "radius": 10},
            {"id": "height", "name": "Height 226.6", "x": 147, "y": 93, "radius": 10},
        ],
        "victory": {
            "turn_limit": 10,
            "default_winner": "germany",
            "conditions": [
                {"kind": "destroy", "side": "germany", "fraction": 0.6},
                {
                    "kind": "occupy",
                    "side": "ussr",
                    "objectives": ["village", "height"],
                    "distance": 10,
                },
            ],
        },
        "special_rules": [
            "Attack/defence (p4): the defender sets up anywhere north of y = 30 cm; the "
            "attacker comes on from the south edge, all of it by turn 3.",
            "Hidden deployment with counters (p5): German teams are shown as counters of "
            "their size until they fire, move or are seen; the four dummies vanish when seen.",
            "Mine fields are secret to the Soviet player until a unit enters or finds them (p38).",
            "Tank riders (p28) dismount at the start of the turn after they or their tank "
            "are fired at.",
            "Weather: southern Russia in summer (Mediterranean column), rolled at set-up.",
        ],
        "options": {
            "pregame": {"battle_type": "attack-defence", "sphere": "med", "season": "summer"}
        },
    }


def cobra_breakthrough() -> dict[str, Any]:
    us = roster(
        "usa_europe",
        "1944-07",
        "Company A, 41st Armored Infantry",
        "Normandy",
        [
            ("aic", None, "organisation:usa_europe/armored-infantry-company", {}),
            ("adhoc", None, "adhoc:company", {}),
            # the platoon's tanks named: its chart lists the M3 Lee first, and the Lee's sourced
            # window (P113) ends at a placeholder 1945, so the builder's default would pick it
            ("tk", "adhoc", "organisation:usa_europe/medium-tank-platoon", {"expand": False}),
            ("m4", "tk", "afv:usa_europe/m4", {"count": 5}),
            ("bty", None, "battery:usa_europe/105mm-battery", {"count": 2}),
            ("air", None, "aircraft:common/fighter-bomber", {"count": 2}),
        ],
    )
    de = roster(
        "germany",
        "1944-07",
        "Kampfgruppe Lehr (remnants)",
        "Normandy",
        [
            ("inf", None, "organisation:germany/infantry-company", {}),
            ("adhoc", None, "adhoc:company", {}),
            ("at", "adhoc", "organisation:germany/at-platoon-75mm", {}),
        ],
    )
    a = forces(
        us,
        "usa",
        "attacker",
        box(0, 0, 180, 15),
        {
            "s2": {"x": 90, "y": 4, "cols": 3, "gap": 6, "per_carrier": 3},
            "s8": {"x": 35, "y": 10, "cols": 5, "gap": 7, "per_carrier": 3},
            "s29": {"x": 70, "y": 10, "cols": 5, "gap": 7, "per_carrier": 3},
            "s50": {"x": 145, "y": 10, "cols": 5, "gap": 7, "per_carrier": 3},
            "s71": {"x": 120, "y": 4, "cols": 4, "gap": 6, "per_carrier": 2},
            "s77": {"x": 105, "y": 12, "cols": 5, "gap": 7},
        },
        batteries=[{"missions": 6, "observers": []}],
        aircraft=[{"sorties": 2, "from_turn": 2}, {"sorties": 2, "from_turn": 2}],
    )
    hq = next(t for t in a["companies"][0]["platoons"][0]["teams"] if t.get("hq") == "company")
    hq["fao"] = True
    a["batteries"][0]["observers"] = [hq["id"]]
    g = forces(
        de,
        "germany",
        "defender",
        box(0, 30, 180, 120),
        {
            "s2": {"x": 90, "y": 100, "facing": 180, "cols": 2, "gap": 5},
            "s5": {"x": 38, "y": 68, "facing": 180, "cols": 6, "gap": 5},
            "s18": {"x": 92, "y": 68, "facing": 180, "cols": 6, "gap": 5},
            "s31": {"x": 152, "y": 68, "facing": 180, "cols": 6, "gap": 5},
            "s45": {"x": 92, "y": 86, "facing": 180, "cols": 3, "gap": 15},
        },
        mounted=False,
    )
    plats = [p["id"] for c in g["companies"] for p in c["platoons"]]
    _hide(g, plats[1:5], "dug_in", True)
    g["works"] = [
        {
            "id": "wire-centre",
            "type": "fieldwork:common/barbed-wire",
            "polygon": [[70, 54], [115, 54], [115, 56], [70, 56]],
        },
    ]
    return {
        "id": "pf-cobra-breakthrough",
        "name": "Through the Marigny hedgerows (Operation Cobra, July 1944)",
        "ruleset": "panzerfaust",
        "description": "Breakthrough: US armored infantry and Shermans, with fighter-bombers and "
        "a 105 mm battery, must break a thin German line and exit",
        "briefing": (
            "Normandy, 26 July 1944. After the carpet bombing, an American armored infantry "
            "company and a platoon of Shermans must punch through what is left of a German "
            "line near Marigny and get out the far side before reserves close the gap. Two "
            "P-47 fighter-bombers are on call and a battery of 105 mm howitzers answers the "
            "company commander's radio.\n"
            "Forces: USA, an armored infantry company (HQ, three platoons in M3 half-tracks, "
            "an AT platoon with 57 mm guns) and five M4 Shermans, two fighter-bombers "
            "(2 sorties each, from turn 2) and an off-table pair of 105 mm howitzers "
            "(6 missions, the company HQ team is its observer); Germany, an infantry company "
            "dug in behind wire, and three PaK 40.\n"
            "Objectives: get at least half of the attacking force off the north edge through "
            "the 20 cm exit area (p5: 1D6 1-4 the American picks it in secret, 5-6 the "
            "German picks and declares it).\n"
            "Victory: the Americans win at once when units worth half the points of their "
            "whole force (army-list base PV, the infantry riding out in their half-tracks "
            "included) have left by the north edge; Germany wins at once if the Americans lose 60 % of their pieces, "
            "and otherwise when the 12 turns run out.\n"
            "Set-up: breakthrough, set up as attack/defence (p5): the German player maps his "
            "positions, the American sets up in the 15 cm along the south edge."
        ),
        "table": {"width": 180, "depth": 120, "unit": "cm"},
        "terrain": [
            {
                "id": "route-marigny",
                "kind": "road",
                "width": 3,
                "line": [[100, 0], [96, 40], [92, 80], [90, 120]],
            },
            {
                "id": "lane-east",
                "kind": "road",
                "width": 2,
                "line": [[96, 40], [140, 48], [180, 50]],
            },
            {
                "id": "bocage-a",
                "kind": "bocage",
                "width": 1.5,
                "height": 3,
                "line": [[0, 50], [85, 50]],
            },
            {
                "id": "bocage-b",
                "kind": "bocage",
                "width": 1.5,
                "height": 3,
                "line": [[110, 50], [180, 52]],
            },
            {
                "id": "bocage-c",
                "kind": "bocage",
                "width": 1.5,
                "height": 3,
                "line": [[60, 50], [58, 88], [0, 90]],
            },
            {
                "id": "bocage-d",
                "kind": "bocage",
                "width": 1.5,
                "height": 3,
                "line": [[130, 52], [132, 90], [180, 92]],
            },
            {
                "id": "hedge-e",
                "kind": "hedge",
                "width": 1,
                "height": 1,
                "line": [[20, 20], [70, 22]],
            },
            {
                "id": "craters",
                "kind": "rough",
                "attributes": {"note": "bomb craters"},
                "polygon": [[60, 20], [130, 18], [135, 36], [65, 38]],
            },
            {
                "id": "farm-la-chapelle",
                "kind": "building",
                "height": 2,
                "polygon": box(70, 96, 80, 104),
            },
            {"id": "barn", "kind": "building", "height": 2, "polygon": box(100, 98, 108, 106)},
            {
                "id": "orchard-north",
                "kind": "orchard",
                "height": 2,
                "polygon": box(110, 96, 128, 112),
            },
            {
                "id": "wood-bretel",
                "kind": "woods",
                "height": 4,
                "attributes": {"density": "thin"},
                "polygon": [[10, 95], [45, 96], [48, 115], [8, 116]],
            },
            {
                "id": "stream-terrette",
                "kind": "stream",
                "width": 2,
                "attributes": {"bridge": [[94, 58]]},
                "line": [[0, 58], [60, 60], [94, 58], [140, 62], [180, 60]],
            },
            {
                "id": "hill-east",
                "kind": "hill",
                "height": 2,
                "polygon": [[140, 70], [175, 68], [178, 84], [145, 86]],
            },
        ],
        "sides": [
            {
                "id": "usa",
                "name": "Company A, 41st Armored Infantry",
                "nation": "usa_europe",
                "edge": "south",
            },
            {
                "id": "germany",
                "name": "Kampfgruppe Lehr (remnants)",
                "nation": "germany",
                "edge": "north",
            },
        ],
        "forces": {"usa": a, "germany": g},
        "objectives": [],
        "victory": {
            "turn_limit": 12,
            "default_winner": "germany",
            "conditions": [
                # p5: at least half the attacker's initial point value (P257)
                {"kind": "exit", "side": "usa", "edge": "north", "share": 0.5},
                {"kind": "destroy", "side": "germany", "fraction": 0.6},
            ],
        },
        "special_rules": [
            "Breakthrough (p5): the attacker must exit at least half its starting force's "
            "points (army-list base PV, riders with their carriers) by the north edge, "
            "through a 20 cm exit area (decisions P256, P257).",
            "Programmed map fire (p37) and pre-planned air strikes (p42) are written before "
            "the game without knowledge of the German positions.",
            "The stream is crossed at the bridge on the Marigny road, or waded elsewhere.",
            "Weather: chosen, clear (the Cobra bombing needed it).",
        ],
        "options": {
            "pregame": {
                "battle_type": "breakthrough",
                "sphere": "ne",
                "season": "summer",
                "weather": ["clear"],
            }
        },
    }


def _company_hq(block: dict) -> None:
    """A company whose HQ node holds only tanks (a Tiger company's two, a squadron's four):
    the first of them is the company commander (decision P211), and so may call the battery."""
    first = block["companies"][0]["platoons"][0]["teams"][0]
    first["hq"] = "company"
    for b in block.get("batteries", []):
        b["observers"] = [first["id"]]


def orchard_skirmish() -> dict[str, Any]:
    """A short tank battle (two turns) for learning the turn and for the two-browser test:
    a Tiger company against a Sherman squadron, each with one battery on call (phase A)."""
    ger = roster(
        "germany",
        "1944-06",
        "2./s.SS-Pz.Abt. 101",
        "Normandy",
        [
            ("tg", None, "organisation:germany/heavy-tank-company", {}),
            ("bty", None, "battery:germany/105mm-battery", {"count": 1}),
        ],
    )
    gb = roster(
        "britain",
        "1944-06",
        "A Squadron, 4th County of London Yeomanry",
        "Normandy",
        [
            ("sq", None, "organisation:britain/armored-squadron-1944", {}),
            ("bty", None, "battery:britain/84-88mm-battery", {"count": 1}),
        ],
    )
    g = forces(
        ger,
        "germany",
        "encounter",
        box(0, 105, 180, 120),
        {
            "s2": {"x": 90, "y": 114, "facing": 180, "cols": 2, "gap": 8},
            "s3": {"x": 50, "y": 110, "facing": 180, "cols": 2, "gap": 8},
            "s5": {"x": 90, "y": 108, "facing": 180, "cols": 2, "gap": 8},
            "s7": {"x": 130, "y": 110, "facing": 180, "cols": 2, "gap": 8},
        },
        batteries=[{"missions": 2, "calibre_mm": 105, "troop_class": "veteran"}],
    )
    b = forces(
        gb,
        "britain",
        "encounter",
        box(0, 0, 180, 15),
        {
            "s2": {"x": 90, "y": 6, "cols": 4, "gap": 6},
            "s3": {"x": 40, "y": 12, "cols": 3, "gap": 6},
            "s5": {"x": 90, "y": 12, "cols": 3, "gap": 6},
            "s7": {"x": 140, "y": 12, "cols": 3, "gap": 6},
        },
        batteries=[{"missions": 2, "calibre_mm": 87.6}],
    )
    _company_hq(g)
    _company_hq(b)
    return {
        "id": "pf-orchard-skirmish",
        "name": "The orchard road (Normandy, June 1944; a two-turn skirmish)",
        "ruleset": "panzerfaust",
        "description": "Encounter, two turns: a Tiger company meets a Sherman squadron across "
        "an orchard and a farm; each side has one battery on call",
        "briefing": (
            "Normandy, June 1944. A company of Tigers and a squadron of Shermans reach the "
            "same orchard road from opposite ends. It is a short fight, meant for learning the "
            "turn: two turns, each side with one off-table battery answering its company "
            "commander.\n"
            "Forces: Germany, a heavy tank company (two HQ Tigers and three platoons of two) "
            "and a 105 mm battery (two missions); Britain, an armoured squadron (four HQ "
            "Shermans and three troops of three) and a 25-pounder battery (two missions).\n"
            "Objectives: the crossroads by the farm. A side holds it when it has an AFV within "
            "10 cm of its centre and the enemy has nothing there (p5).\n"
            "Victory: after 2 turns, the side that alone holds the crossroads wins; a side that "
            "loses half its tanks first loses at once. Otherwise a draw.\n"
            "Set-up: encounter battle, each side in the 15 cm along its own edge."
        ),
        "table": {"width": 180, "depth": 120, "unit": "cm"},
        "terrain": [
            {
                "id": "orchard-road",
                "kind": "road",
                "width": 3,
                "line": [[90, 0], [90, 120]],
            },
            {"id": "farm", "kind": "building", "height": 2, "polygon": box(96, 56, 104, 64)},
            {
                "id": "orchard",
                "kind": "orchard",
                "height": 2,
                "polygon": [[40, 50], [75, 48], [76, 72], [42, 72]],
            },
            {
                "id": "bois-east",
                "kind": "woods",
                "height": 4,
                "attributes": {"density": "thick"},
                "polygon": [[120, 45], [160, 48], [158, 75], [122, 72]],
            },
            {"id": "wheat", "kind": "field", "polygon": box(100, 20, 150, 35)},
        ],
        "sides": [
            {"id": "germany", "name": "2./s.SS-Pz.Abt. 101", "nation": "germany", "edge": "north"},
            {
                "id": "britain",
                "name": "A Squadron, 4th County of London Yeomanry",
                "nation": "britain",
                "edge": "south",
            },
        ],
        "forces": {"germany": g, "britain": b},
        "objectives": [
            {"id": "crossroads", "name": "Orchard crossroads", "x": 90, "y": 60, "radius": 10},
        ],
        "victory": {
            "turn_limit": 2,
            "default_winner": None,
            "conditions": [
                {"kind": "destroy", "side": "germany", "fraction": 0.5},
                {"kind": "destroy", "side": "britain", "fraction": 0.5},
                {"kind": "hold", "side": "germany", "objectives": ["crossroads"]},
                {"kind": "hold", "side": "britain", "objectives": ["crossroads"]},
            ],
        },
        "special_rules": [
            "Encounter battle (p4): both sides set up in the 15 cm along their own edge; no "
            "programmed map fire, so each battery fires only where its written orders (phase "
            "A) put it, once its company commander calls it down (phase E).",
            "Weather: chosen, clear.",
        ],
        "options": {
            "pregame": {
                "battle_type": "encounter",
                "sphere": "ne",
                "season": "summer",
                "weather": ["clear"],
            }
        },
    }


SCENARIOS = {
    "pf-normandy-encounter": normandy_encounter,
    "pf-kursk-attack": kursk_attack,
    "pf-cobra-breakthrough": cobra_breakthrough,
    "pf-orchard-skirmish": orchard_skirmish,
}


def _pinned(text: str) -> list[str]:
    """The file without the rosters' data revision: any data change moves that hash, and the
    file is stale only when what it holds would change."""
    return [ln for ln in text.splitlines() if not ln.strip().startswith("data_revision:")]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    stale = []
    OUT.mkdir(exist_ok=True)
    for ident, make in SCENARIOS.items():
        text = HEAD + yaml.safe_dump(make(), sort_keys=False, width=100, allow_unicode=True)
        path = OUT / f"{ident}.yaml"
        if args.check:
            if not path.exists() or _pinned(path.read_text()) != _pinned(text):
                stale.append(path.name)
        else:
            path.write_text(text)
            print(f"wrote {path}")
    if stale:
        print(f"stale: {', '.join(stale)} (run scripts/pf_scenarios.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
