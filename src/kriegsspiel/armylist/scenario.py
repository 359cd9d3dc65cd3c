"""A scenario from two rosters (issue 18 item 6): table, terrain template, deployment zones and
objectives per the Panzerfaust battle types (seed 000 pp. 4-5), and a `forces` block holding
the rosters.

Deployment (pp. 4-5): encounter — each side in the back 15 cm of its edge, objectives on the
centre line; attack/defence and breakthrough — the defender on 75 % of the table, the attacker
enters from the opposite edge, objectives in the defender's area but not its back 25 %
(breakthrough: a 20 cm exit area on the defender's edge); counter attack — the attacker holds 50 %,
the defender sets up in the back 20 % and objectives lie towards the attacker's rear but not in its
back 20 %. The first roster is side A (south edge), the second side B (north edge); in
attack/defence and breakthrough A attacks; in counter attack A is the book's "attacker" that
holds the taken ground and B the "defender" who must retake it.

The scenario's `forces` block maps side id -> {roster, role, deployment} (scenario v2); units are
also placed in their zones as Panzerfaust companies so the table can be drawn.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .roster import Roster, RosterError, Selection, parse_roster

BattleType = Literal["encounter", "attack-defence", "counter-attack", "breakthrough"]
BATTLE_TYPES: tuple[str, ...] = ("encounter", "attack-defence", "counter-attack", "breakthrough")
PLACED_KINDS = ("afv", "infantry_team", "infantry_weapon", "gun", "softskin", "motorised_gun")

# terrain templates as fractions of the table (x, y in 0..1), laid out symmetrically
TERRAIN_TEMPLATES: dict[str, list[dict[str, Any]]] = {
    "open": [],
    "village": [
        {"id": "church", "kind": "building", "height": 1.5, "box": (0.46, 0.46, 0.54, 0.54)},
        {"id": "farm-west", "kind": "building", "height": 1.0, "box": (0.2, 0.44, 0.27, 0.5)},
        {"id": "farm-east", "kind": "building", "height": 1.0, "box": (0.73, 0.5, 0.8, 0.56)},
        {"id": "wood-south", "kind": "woods", "height": 2.0, "box": (0.05, 0.25, 0.2, 0.38)},
        {"id": "wood-north", "kind": "woods", "height": 2.0, "box": (0.8, 0.62, 0.95, 0.75)},
    ],
    "hills": [
        {"id": "hill-west", "kind": "hill", "height": 1.0, "box": (0.15, 0.4, 0.35, 0.6)},
        {"id": "hill-east", "kind": "hill", "height": 1.0, "box": (0.65, 0.4, 0.85, 0.6)},
        {"id": "copse", "kind": "woods", "height": 2.0, "box": (0.45, 0.3, 0.55, 0.38)},
    ],
}


class ForcesEntry(BaseModel):
    """One side's `forces` object in a Panzerfaust scenario."""

    model_config = ConfigDict(extra="forbid")

    roster: Roster
    role: Literal["attacker", "defender", "encounter"]
    deployment: list[tuple[float, float]] = Field(min_length=3)
    enters_from_edge: bool = False
    nation: str | None = None
    companies: list[dict[str, Any]] = Field(default_factory=list)  # checked by the ruleset


def validate_forces(raw: Any, side_id: str) -> ForcesEntry:
    """The `forces_model` of a Panzerfaust scenario side: the roster must parse and be legal."""
    entry = ForcesEntry.model_validate(raw)
    from .builders import builder

    report = builder(entry.roster.ruleset).validate(entry.roster)
    if not report.ok:
        first = "; ".join(str(m) for m in report.of("error")[:3])
        raise ValueError(f"forces.{side_id}: the roster is not legal: {first}")
    return entry


def _box(x0: float, y0: float, x1: float, y1: float) -> list[tuple[float, float]]:
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def zones(battle: str, w: float, d: float) -> dict[str, Any]:
    """Deployment zones (side A south, B north), objectives and roles (pp. 4-5)."""
    if battle == "encounter":
        return {
            "a": ("encounter", _box(0, 0, w, 15), False),
            "b": ("encounter", _box(0, d - 15, w, d), False),
            "objectives": [(w / 2, d / 2)],
        }
    if battle in ("attack-defence", "breakthrough"):
        out = {
            "a": ("attacker", _box(0, 0, w, 10), True),
            "b": ("defender", _box(0, d * 0.25, w, d), False),
            "objectives": [(w / 2, d * 0.6)],
        }
        if battle == "breakthrough":
            out["exit"] = _box(w / 2 - 10, d - 1, w / 2 + 10, d)
        return out
    if battle == "counter-attack":
        return {
            # p4: the side that took the objective (the book's "attacker") holds half the table
            "a": ("attacker", _box(0, 0, w, d * 0.5), False),
            "b": ("defender", _box(0, d * 0.8, w, d), False),
            "objectives": [(w / 2, d * 0.3)],
        }
    raise RosterError(f"--battle {battle!r}: choose one of {', '.join(BATTLE_TYPES)}")


def parse_table(text: str) -> tuple[float, float]:
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*x\s*(\d+(?:\.\d+)?)\s*", text)
    if not m or float(m.group(1)) < 60 or float(m.group(2)) < 60:
        raise RosterError(
            f"--table {text!r}: give WIDTHxDEPTH in cm, each at least 60, e.g. 180x120"
        )
    return float(m.group(1)), float(m.group(2))


def _companies(roster: Roster, side: str, zone: list[tuple[float, float]]) -> list[dict]:
    """The roster's pieces as Panzerfaust forces (company -> platoon -> team), placed on a
    grid inside the side's deployment zone: a company is a top-level selection, a platoon the
    selection that holds the pieces."""
    companies: dict[str, dict] = {}
    platoons: dict[str, dict] = {}
    pieces: list[tuple[dict, Selection, int]] = []
    for path, sel, parent in roster.walk():
        if sel.entry.partition(":")[0] not in PLACED_KINDS or sel.children:
            continue
        head = path.split("/")[0]
        company = companies.get(head)
        if company is None:
            top = roster.find(head)
            company = companies[head] = {"id": f"{side}-{top.id}", "name": top.name, "platoons": []}
        holder = parent or sel
        platoon = platoons.get(f"{head}|{holder.id}")
        if platoon is None:
            platoon = platoons[f"{head}|{holder.id}"] = {
                "id": f"{side}-{holder.id}",
                "name": holder.name,
                "teams": [],
            }
            company["platoons"].append(platoon)
        pieces.extend((platoon, sel, i) for i in range(sel.count))
    (x0, y0), (x1, y1) = zone[0], zone[2]
    cols = max(1, int((x1 - x0) // 8))
    for n, (platoon, sel, i) in enumerate(pieces):
        row, col = divmod(n, cols)
        x = x0 + 4 + col * 8
        y = min(y1 - 1, y0 + 4 + row * 6) if side == "a" else max(y0 + 1, y1 - 4 - row * 6)
        platoon["teams"].append(
            {
                "id": f"{side}-{sel.id}-{i + 1}",
                "type": sel.entry,
                "name": sel.name,
                "x": round(x, 1),
                "y": round(y, 1),
                "facing": 0.0 if side == "a" else 180.0,
            }
        )
    return list(companies.values())


def build_scenario(
    rosters: list[Roster],
    table: str = "180x120",
    terrain: str = "open",
    battle: str = "encounter",
    turn_limit: int = 12,
) -> dict[str, Any]:
    """The scenario document (a dict ready for YAML)."""
    if len(rosters) != 2:
        raise RosterError(f"give exactly two --roster files, got {len(rosters)}")
    if {r.ruleset for r in rosters} != {"panzerfaust"}:
        raise RosterError(
            "scenario new builds Panzerfaust battles; both rosters must be panzerfaust"
        )
    if terrain not in TERRAIN_TEMPLATES:
        raise RosterError(f"--terrain {terrain!r}: choose one of {', '.join(TERRAIN_TEMPLATES)}")
    w, d = parse_table(table)
    z = zones(battle, w, d)
    features = []
    for f in TERRAIN_TEMPLATES[terrain]:
        x0, y0, x1, y1 = f["box"]
        features.append(
            {
                "id": f["id"],
                "kind": f["kind"],
                "height": f["height"],
                "polygon": [
                    [round(x, 1), round(y, 1)] for x, y in _box(x0 * w, y0 * d, x1 * w, y1 * d)
                ],
            }
        )
    sides, forces = [], {}
    for key, roster, edge in (("a", rosters[0], "south"), ("b", rosters[1], "north")):
        role, zone, enters = z[key]
        sides.append({"id": key, "name": roster.name, "nation": roster.nation, "edge": edge})
        forces[key] = {
            "nation": roster.nation,
            "companies": _companies(roster, key, zone),
            "roster": roster.model_dump(mode="json", exclude_defaults=True)
            | {"format": roster.format, "version": roster.version},
            "role": role,
            "deployment": [list(p) for p in zone],
            "enters_from_edge": enters,
        }
    objectives = [
        {"id": f"obj-{i + 1}", "name": f"Objective {i + 1}", "x": x, "y": y, "radius": 10.0}
        for i, (x, y) in enumerate(z["objectives"])
    ]
    holder = "b" if battle in ("attack-defence", "breakthrough") else "a"
    taker = "a" if holder == "b" else "b"
    special = [f"battle type: {battle} (pp. 4-5)"]
    if "exit" in z:
        special.append("breakthrough: the attacker must exit half its PV through the 20 cm exit")
    return {
        "id": f"pf-{rosters[0].nation}-vs-{rosters[1].nation}-{battle}",
        "name": f"{rosters[0].name} vs {rosters[1].name}",
        "ruleset": "panzerfaust",
        "description": f"{battle} battle built from two rosters on a {table} cm table",
        "table": {"width": w, "depth": d, "unit": "cm"},
        "terrain": features,
        "sides": sides,
        "objectives": objectives,
        "victory": {
            "turn_limit": turn_limit,
            "default_winner": holder if battle != "encounter" else None,
            "conditions": [
                {"kind": "hold", "side": side, "objectives": [o["id"] for o in objectives]}
                for side in ((taker, holder) if battle == "encounter" else (taker,))
            ]
            # p5: half the attacker's initial point value out by the defender's edge (P257)
            + (
                [{"kind": "exit", "side": taker, "edge": "north", "share": 0.5}]
                if "exit" in z
                else []
            ),
        },
        "special_rules": special,
        "forces": forces,
    }


def validate_scenario(doc: dict[str, Any]) -> None:
    """Validate the scenario: the engine's model (scenario v2, whose `forces` blocks
    Panzerfaust's own model checks), then each side's roster for legality here."""
    from ..engine.scenario import Scenario

    for side, raw in doc.get("forces", {}).items():
        validate_forces(raw, side)
    Scenario.model_validate(doc)


def load_rosters(paths: list[Any]) -> list[Roster]:
    from .roster import load_roster

    return [load_roster(p) for p in paths]


__all__ = ["BATTLE_TYPES", "build_scenario", "parse_roster", "validate_forces", "validate_scenario"]
