"""Write the army builder's organisation fields into every Panzerfaust organisation.yaml (issue 16.6).

For each organisation node this adds, right after its `level:` line,
  - `kind`: formation | hq | armour | infantry | cavalry | recon | support (p44 names the company
    kinds a force's first company may be: armour, infantry, cavalry or recon; support units are guns,
    artillery, mortars, MG/HMG per p44);
  - `buyable`: whether the node is bought as a unit (p5, p44: complete companies and platoons, the
    HQ of an (ad-hoc) company, support sections added to platoons; not formations or squads);
  - `troop_profile`: the nation rating-rule selector (p22-23 and the list's table) the node's troops
    take (SS, paratroops, Volksgrenadiers, Guards, Siberians, Bersaglieri, Marines), inherited by
    a contained node only when every unit holding it has that profile (decision P110).
All three are `seed-inferred` (judged from the node's printed name, level and contents). The script
also rewrites the 33 free-text slot conditions to the small vocabulary `SLOT_CONDITIONS` the
validator understands. It is idempotent: run it again after editing organisations.

    .venv/bin/python scripts/classify_orgs.py [--check]

It also writes `valid` for nodes the book dates only through their name, the units holding them
(decision P108) or what they hold (P114). `--check` exits 1 if any file would change.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml

from kriegsspiel.data import Provenance
from kriegsspiel.data.provenance import split_provenance
from kriegsspiel.rulesets import load

DATA = Path(__file__).resolve().parents[1] / "src/kriegsspiel/rulesets/panzerfaust/data"
NOTE = "by name, level and contents (scripts/classify_orgs.py)"

# free text as printed/transcribed -> condition code (kriegsspiel.armylist.panzerfaust.rules)
CONDITION_CODES = {
    "only_if_fielded_as_whole_company": "whole_parent_only",
    "only_if_not_broken_down": "whole_parent_only",
    "only_if_fielded_intact": "whole_parent_only",
    "only if the company is not broken down": "whole_parent_only",
    "only if the whole company is fielded": "whole_parent_only",
    "only if the whole company is used": "whole_parent_only",
    "only if the whole platoon is fielded": "whole_parent_only",
    "take only if not broken down": "whole_parent_only",
    "only use if not broken down": "whole_parent_only",
    "only if not broken down": "whole_parent_only",
    "only use if platoons not allocated": "whole_parent_only",
    "not_if_platoons_allocated_to_companies": "whole_parent_only",
    "not_if_sections_allocated_to_platoons": "whole_parent_only",
    "cannot_break_down": "cannot_break_down",
    "see_at_gun_restrictions": "nation_policy",
    "at most 5 battalions in all": "nation_policy",
    "3 battalions, only 2 from 1942": "nation_policy",
    "strengthened companies only": "nation_policy",
    "on_motorcycles": "mounted_motorcycles",
    "the two squads must keep squad cohesion with each other": "cohesion",
    "attach_to_company": "attach_to_company",
    "Guards or Siberian units only": "profile:guards|siberians",
}

PROFILE_WORDS = [
    (r"\bss\b|waffen", "ss"),
    (r"paratroop|fallschirm|airborne|parachute", "paratroops"),
    (r"volksgrenadier", "volksgrenadiers"),
    (r"\bguards?\b", "guards"),
    (r"siberian", "siberians"),
    (r"bersaglieri", "bersaglieri"),
    (r"\bmarines?\b", "marines"),
]

SUPPORT = re.compile(
    r"\b(at|a/t|anti-tank|antitank|gun|guns|artillery|battery|mortars?|mg|mmg|hmg|lmg|machine[- ]gun|"
    r"weapons|aa|flak|engineers?|pioneers?|sappers?|flame\w*|rockets?|panzerschreck|piat|bazooka|"
    r"support|howitzers?|cannon|ig|pak|snipers?|atr|at rifle|fao|heavy company|tank hunter|"
    r"jagdpanzer|tank destroyers?)\b"
)
INFANTRY_FIRST = re.compile(r"grenadier|armou?red infantry|rifle|\bsmg\b")
RECON = re.compile(r"recon|recce|reconn|scout|armou?red car|armored car|\bcars?\b")
CAVALRY = re.compile(r"cavalry|horse|cossack|\bsabre|\bhussar")
INFANTRY = re.compile(
    r"infantry(?! tank)|rifle|grenadier|paratroop|marine|motorcycle|bersaglieri|alpini|ski|"
    r"fusilier|commando|ranger|chasseur|squad|assault engineer|jaeger|jäger"
)
ARMOUR = re.compile(
    r"panzer|(?<!anti-)(?<!anti )tank(?! hunter| destroyer)|armou?red (company|platoon|squadron|troop)|"
    r"assault gun|stug|\bchar\b|dlm|dcr|squadron|\btroop\b|semovente|carro"
)


def _leaf_kinds(oid: str, orgs: dict[str, dict], seen: frozenset[str] = frozenset()) -> list[str]:
    out: list[str] = []
    for slot in orgs[oid].get("slots") or []:
        ref = _plain(slot.get("ref"))
        kind, _, ident = ref.partition(":")
        if kind == "organisation" and ident in orgs and ident not in seen:
            out += _leaf_kinds(ident, orgs, seen | {oid})
        else:
            out.append(kind)
    return out


def _plain(value):
    return value["value"] if isinstance(value, dict) and "value" in value else value


def classify(oid: str, orgs: dict[str, dict]) -> tuple[str, bool]:
    org = orgs[oid]
    name = str(_plain(org["name"])).casefold()
    name = re.sub(r"sub[- ]?machine[- ]gun", "smg", re.sub(r"\(.*?\)", "", name))
    name = re.sub(r"\b(at|anti-tank) rifle", "atr", name)
    level = _plain(org["level"])
    if level in ("division", "regiment", "battalion"):
        return "formation", False
    if re.search(r"\bhq\b|headquarters|command", name):
        return "hq", True
    leaves = _leaf_kinds(oid, orgs)
    afv = leaves.count("afv") + leaves.count("motorised_gun")
    guns = leaves.count("gun") + leaves.count("battery")
    teams = leaves.count("infantry_team") + leaves.count("infantry_weapon")
    named = (
        (RECON, "recon"),
        (CAVALRY, "cavalry"),
        (INFANTRY_FIRST, "infantry"),
        (ARMOUR, "armour"),
        (SUPPORT, "support"),
        (INFANTRY, "infantry"),
    )
    kind = next((k for pattern, k in named if pattern.search(name)), None)
    if kind is None:  # a name that says nothing: what the slots hold
        kind = "armour" if afv > max(guns, teams) else "support" if guns > teams else "infantry"
    buyable = level in ("company", "platoon") or (level == "section" and kind == "support")
    return kind, buyable


def profiles(orgs: dict[str, dict], selectors: set[str]) -> dict[str, str]:
    """Profile per node: from its own name, else the one profile shared by every unit that holds
    it. A node also held by a unit of another profile, or of none (a British infantry section in
    both the paratroop and the line infantry platoons), gets no profile: it takes any rating."""
    own: dict[str, str] = {}
    for oid, org in orgs.items():
        name = str(_plain(org["name"])).casefold()
        for pattern, selector in PROFILE_WORDS:
            hit = next((s for s in selectors if s.startswith(selector)), None)
            if hit and re.search(pattern, name):
                own[oid] = hit
                break
    parents: dict[str, list[str]] = {}
    for oid, org in orgs.items():
        for slot in org.get("slots") or []:
            kind, _, child = str(_plain(slot.get("ref"))).partition(":")
            if kind == "organisation" and child in orgs:
                parents.setdefault(child, []).append(oid)

    def profile(oid: str, seen: frozenset[str] = frozenset()) -> str | None:
        if oid in own:
            return own[oid]
        held = [profile(p, seen | {oid}) for p in parents.get(oid, []) if p not in seen]
        return held[0] if held and len(set(held)) == 1 else None

    return {oid: prof for oid in orgs if (prof := profile(oid)) is not None}


YEAR = re.compile(r"\b19(39|4[0-5])\b")
STEM = re.compile(
    r"[(),]|\b(?:19)?(39|4[0-5])\b|\b(jan|feb|mar|march|apr|may|jun|july?|aug|sep|oct|nov|dec)\b"
)


def _window(raw) -> tuple[int, int] | None:
    raw = split_provenance(raw)[0]
    if not isinstance(raw, dict) or not raw.get("start"):
        return None
    end = raw.get("end") or {"year": 1945}
    return int(raw["start"]["year"]), int(end["year"])


def dates(
    orgs: dict[str, dict], held: dict[tuple[str, str], tuple[int, int, bool]] | None = None
) -> dict[str, tuple[int, int, str]]:
    """Service windows for undated nodes (p44 step 3): a year printed in the node's name runs
    until the next dated variant of the same name (else 1945); a node inside dated nodes takes
    the span of their windows."""
    own = {oid: _window(_plain(o.get("valid"))) for oid, o in orgs.items()}
    named: dict[str, tuple[int, int, str]] = {}
    stems: dict[tuple[str, str], list[tuple[int, str]]] = {}
    for oid, org in orgs.items():
        name = str(_plain(org["name"]))
        m = YEAR.search(name)
        if m:
            year = 1900 + int(m.group(1))
            stem = re.sub(r"\s+", " ", STEM.sub(" ", name.casefold())).strip()
            stems.setdefault((str(_plain(org["level"])), stem), []).append((year, oid))
    for variants in stems.values():
        variants.sort()
        for i, (year, oid) in enumerate(variants):
            nxt = next((y for y, _ in variants[i + 1 :] if y > year), None)
            named[oid] = (year, nxt - 1 if nxt else 1945, "year printed in its name")
    parents: dict[str, list[str]] = {}
    for oid, org in orgs.items():
        for slot in org.get("slots") or []:
            kind, _, child = str(_plain(slot.get("ref"))).partition(":")
            if kind == "organisation" and child in orgs:
                parents.setdefault(child, []).append(oid)

    def window(oid: str, seen: frozenset[str] = frozenset()) -> tuple[int, int] | None:
        if own.get(oid):
            return own[oid]
        if oid in named:
            return named[oid][:2]
        spans = [window(p, seen | {oid}) for p in parents.get(oid, []) if p not in seen]
        if not spans or any(s is None for s in spans):
            return None  # an undated parent: the node is not dated by it
        return min(s[0] for s in spans), max(s[1] for s in spans)

    out = {}
    for oid in orgs:
        if own.get(oid):
            continue
        if oid in named:
            out[oid] = named[oid]
        elif (w := window(oid)) is not None:
            out[oid] = (*w, "inside dated units")
    by_contents = contents_windows(orgs, own | {k: v[:2] for k, v in out.items()}, held or {})
    for oid, (y0, y1, seed_only) in by_contents.items():
        out.setdefault(oid, (y0, y1, CONTENTS_NOTE if seed_only else CONTENTS_NOTE_P113))
    return out


CONTENTS_NOTE = (
    "P114: the years in which every mandatory slot can be filled, from the dates of what it holds"
)
CONTENTS_NOTE_P113 = CONTENTS_NOTE + " (P113 chart years, ends open to 1945)"
SEEDLIKE = {Provenance.SEED, Provenance.SEED_INFERRED}


def held_windows(cat) -> dict[tuple[str, str], tuple[int, int, bool]]:
    """(nation, item ref) -> the span of that army's equipment-list windows for the item, and
    whether both ends of every one are the book's (seed, seed-inferred)."""
    out: dict[tuple[str, str], tuple[int, int, bool]] = {}
    for row in cat.all("equipment"):
        d = row.dates
        if not row.item_ref or d is None or d.start is None:
            continue
        seed = row.prov("dates.start") in SEEDLIKE and row.prov("dates.end") in SEEDLIKE
        span = (d.start.year, d.end.year if d.end else 1945, seed)
        key = (row.nation, row.item_ref)
        if key in out:
            old = out[key]
            span = (min(old[0], span[0]), max(old[1], span[1]), old[2] and span[2])
        out[key] = span
    return out


def contents_windows(
    orgs: dict[str, dict],
    dated: dict[str, tuple[int, int] | None],
    held: dict[tuple[str, str], tuple[int, int, bool]],
) -> dict[str, tuple[int, int, bool]]:
    """Decision P114: an undated node whose every mandatory slot group (a choice group's
    alternatives, else one item; slots with a window of their own do not count) holds dated
    items serves from the year the last group can first be filled to the year the first group
    can last be filled; an alternative's window is its army's equipment-list rows', a contained
    node's is its own. `True` when every window used is the book's."""

    def item(nation: str, ref: str, seen: frozenset[str]) -> tuple[int, int, bool] | None:
        kind, _, ident = ref.partition(":")
        if kind != "organisation":
            return held.get((nation, ref))
        if ident not in orgs or ident in seen:
            return None
        if dated.get(ident):
            y0, y1 = dated[ident]
            return y0, y1, True
        return node(ident, seen)

    def node(oid: str, seen: frozenset[str] = frozenset()) -> tuple[int, int, bool] | None:
        org = orgs[oid]
        nation = str(_plain(org["nation"]))
        groups: dict[str, list[dict]] = {}
        for slot in org.get("slots") or []:
            ref = str(_plain(slot.get("ref")))
            groups.setdefault(slot.get("choice_group") or ref, []).append(slot)
        spans = []
        for group in groups.values():
            if any(s.get("valid") for s in group) or not any(_plain(s.get("min")) for s in group):
                continue
            alts = [item(nation, str(_plain(s.get("ref"))), seen | {oid}) for s in group]
            if any(a is None for a in alts):
                return None
            spans.append(
                (min(a[0] for a in alts), max(a[1] for a in alts), all(a[2] for a in alts))
            )
        if not spans:
            return None
        y0, y1 = max(s[0] for s in spans), min(s[1] for s in spans)
        return (y0, y1, all(s[2] for s in spans)) if y0 <= y1 else None

    return {oid: w for oid in orgs if not dated.get(oid) and (w := node(oid)) is not None}


def rewrite(path: Path, selectors: set[str], held=None, check: bool = False) -> int | bool:
    text = path.read_text()
    first = re.search(r"(?m)^( *)- id: ", text)
    pad = " " * (len(first.group(1)) + 2)
    text = re.sub(rf"(?m)^{pad}(kind|buyable|troop_profile): .*\n", "", text)
    text = re.sub(rf"(?m)^{pad}valid: .*classify_orgs.*\n", "", text)
    for raw in sorted(CONDITION_CODES, key=len, reverse=True):
        code = CONDITION_CODES[raw]
        text = re.sub(r"(?<=[\[\s])" + re.escape(raw) + r"(?=[\],]|$)", code, text, flags=re.M)
    records = yaml.safe_load(text)["records"]
    orgs = {r["id"]: r for r in records}
    prof = profiles(orgs, selectors)
    dated = dates(orgs, held)
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    ids = iter(r["id"] for r in records)
    for line in lines:
        out.append(line)
        if line.startswith(f"{pad}level: "):
            oid = next(ids)
            kind, buyable = classify(oid, orgs)
            out.append(f"{pad}kind: {{value: {kind}, provenance: seed-inferred, note: '{NOTE}'}}\n")
            out.append(
                f"{pad}buyable: {{value: {str(buyable).lower()}, provenance: seed-inferred, note: p5 p44}}\n"
            )
            if oid in prof:
                out.append(
                    f"{pad}troop_profile: {{value: {prof[oid]}, provenance: seed-inferred, note: by the node name or the unit holding it}}\n"
                )
            if oid in dated:
                y0, y1, why = dated[oid]
                raw = str(y0) if y0 == y1 else f"{y0}-{y1}"
                prov = "placeholder" if why == CONTENTS_NOTE_P113 else "seed-inferred"
                out.append(
                    f"{pad}valid: {{value: {{raw: '{raw}', start: {{year: {y0}}}, end: {{year: {y1}}}}},"
                    f" provenance: {prov}, note: '{why} (scripts/classify_orgs.py)'}}\n"
                )
    if next(ids, None) is not None:
        raise SystemExit(f"{path}: a record without a '{pad}level:' line")
    if check:
        return "".join(out) != path.read_text()
    path.write_text("".join(out))
    return len(records)


def main(check: bool = False) -> int:
    held = held_windows(load("panzerfaust", ()))
    stale = []
    for path in sorted(DATA.glob("*/organisation.yaml")):
        nation = yaml.safe_load((path.parent / "nation.yaml").read_text())["records"][0]
        selectors = {r["selector"] for r in nation["rating_rules"]}
        result = rewrite(path, selectors, held, check)
        if check and result:
            stale.append(path.parent.name)
        elif not check:
            print(path.parent.name, result)
    if stale:
        print("stale:", ", ".join(stale), "(run scripts/classify_orgs.py)")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(check="--check" in sys.argv[1:]))
