"""Point values of a Panzerfaust roster (p22 multipliers, p27 AFV HQ surcharges, p28 skirts,
p34-35 special ammunition, p35 FAO / fire control, p39 fortifications, p43 aircraft).

Every army-list PV is a base value (p44). A top-level group (company, ad-hoc company, offboard
battery) sums the base PVs of everything in it, then the nation's multiplier for the group's
troop rating scales the sum, rounded once (decision P7). Aircraft are never scaled (p43).
Fortifications cost a multiple of their occupants' base PV (p39, decision P58).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ...rulesets.panzerfaust.models import AFV, Organisation
from ...rulesets.panzerfaust.points import Rounding, multiplier, scaled_pv
from ..report import Message
from ..roster import Roster, Selection
from .catalogue import ADHOC, ArmyCatalogue, construction_rules


@dataclass
class Item:
    path: str
    ref: str
    name: str
    pv: Fraction | None
    provenance: str | None


@dataclass
class Priced:
    path: str
    sel: Selection
    kind: str
    label: str
    base: Fraction = Fraction(0)
    surcharge: int = 0
    items: list[Item] = field(default_factory=list)
    children: list[Priced] = field(default_factory=list)
    rating: str | None = None
    multiplier: Fraction | None = None
    cost: int | None = None  # top-level groups only

    def all_items(self) -> list[Item]:
        out = list(self.items)
        for c in self.children:
            out += c.all_items()
        return out


def kind_of(entry: str) -> str:
    return "adhoc" if entry == ADHOC else entry.partition(":")[0]


def _opt(name: str) -> dict:
    return construction_rules()["options"].get(name, {})


def _special_ammo(ac: ArmyCatalogue, ref: str, ammo: str):
    rec = ac.record(ref)
    guns = [rec] if ref.startswith("gun:") else []
    if isinstance(rec, AFV):
        guns = [ac.record(m.gun_ref) for m in rec.armament if m.gun_ref]
    for gun in guns:
        for a in getattr(gun, "ammo", []):
            if a.kind.casefold() == ammo.casefold():
                return a
    return None


def option_pv(
    ac: ArmyCatalogue, sel: Selection, path: str, msgs: list[Message]
) -> tuple[Fraction, list[str]]:
    """PV of a selection's options and the names of the ones priced by a placeholder."""
    total = Fraction(0)
    kind = kind_of(sel.entry)
    for option in sel.options:
        name, _, arg = option.partition(":")
        if name == "skirts" and kind == "afv" and arg.isdigit():
            per = ac.table_value("common/spaced-armour-pv", "per_facing", "pv")
            total += int(arg) * per * sel.count
        elif name == "ammo" and arg:
            ammo = _special_ammo(ac, sel.entry, arg)
            if ammo is None:
                msgs.append(
                    _msg("option_unknown", f"{ac.label(sel.entry)} has no {arg} round", path)
                )
                continue
            delta = ammo.pv_delta or 0
            total += delta * (sel.count if ammo.basis == "pg" else 1)
        elif _opt(name) and kind in _opt(name)["applies"]:
            o = _opt(name)
            total += o["pv"] * (sel.count if o["basis"] == "per_unit" else 1)
        else:
            msgs.append(
                _msg("option_unknown", f"option {option!r} does not apply to {kind} entries", path)
            )
    return total, []


def _msg(code: str, text: str, path: str | None = None) -> Message:
    rule = next(r for r in construction_rules()["rules"] if r["code"] == code)
    return Message(rule["severity"], code, text, path, rule["page"])


def _afv_surcharge(ac: ArmyCatalogue, org: Organisation, leaves: list[Selection]) -> int:
    """p27: +10 for an AFV platoon's HQ vehicle, +20 for each of one or two company HQ
    vehicles, +20 more where only the command vehicle has a radio."""
    s = construction_rules()["afv_hq_surcharge"]
    hq_refs = {slot.ref for slot in org.slots if slot.role == "hq"}
    afvs = [
        (x, ac.record(x.entry)) for x in leaves if x.entry.startswith("afv:") and ac.known(x.entry)
    ]
    if not afvs:
        return 0
    if org.level == "platoon":
        return s["platoon_hq_vehicle"] + _radio(afvs[0][1], s)
    n, total = 0, 0
    for sel, rec in afvs:
        if org.kind != "hq" and sel.entry not in hq_refs:
            continue
        take = min(sel.count, s["company_hq_vehicles_max"] - n)
        n += take
        total += take * (s["company_hq_vehicle"] + _radio(rec, s))
    return total


def _radio(rec: AFV, s: dict) -> int:
    return s["command_only_radio"] if rec.radio == "command_only" else 0


def price_selection(
    ac: ArmyCatalogue, sel: Selection, path: str, msgs: list[Message], by_id: dict
) -> Priced:
    kind = kind_of(sel.entry)
    node = Priced(path, sel, kind, sel.name or ac.label(sel.entry))
    if sel.entry != ADHOC and not ac.known(sel.entry):
        node.items.append(Item(path, sel.entry, node.label, None, None))
        return node  # validation reports it (not_in_organisation); priced as nothing
    if kind in ("adhoc", "organisation"):
        for child in sel.children:
            node.children.append(price_selection(ac, child, f"{path}/{child.id}", msgs, by_id))
        node.base = sum((c.base for c in node.children), Fraction(0))
        if kind == "organisation":
            org = ac.record(sel.entry)
            leaves = [c for c in sel.children if kind_of(c.entry) != "organisation"]
            node.surcharge = _afv_surcharge(ac, org, leaves) * sel.count
            node.base = node.base * sel.count + node.surcharge
        extra, _ = option_pv(ac, sel, path, msgs)
        node.base += extra
        return node
    if kind == "fieldwork" and sel.covers:
        mult = _fortification_multiplier(ac, sel.entry)
        if mult is not None:
            held = sum(
                (
                    price_selection(ac, by_id[c], c, [], by_id).base
                    for c in sel.covers
                    if c in by_id
                ),
                Fraction(0),
            )
            node.base = mult * held * sel.count
            node.items.append(Item(path, sel.entry, node.label, node.base, "seed"))
            return node
    price = ac.price(sel.entry)
    pv = None
    if price.pv is not None:
        per = Fraction(price.pv) / (2 if price.basis == "per_pair" else 1)
        pv = per * sel.count
    extra, _ = option_pv(ac, sel, path, msgs)
    node.items.append(Item(path, sel.entry, node.label, pv, price.provenance))
    node.base = (pv or Fraction(0)) + extra
    return node


def _fortification_multiplier(ac: ArmyCatalogue, ref: str) -> Fraction | None:
    basis = getattr(ac.record(ref), "pv_basis", None) or ""
    if not basis.startswith("occupants_pv_x"):
        return None
    return Fraction(basis.removeprefix("occupants_pv_x"))


def group_rating(ac: ArmyCatalogue, roster: Roster, sel: Selection) -> str:
    """The rating selector a top-level group is bought at: its own, its troop profile, or
    the nation's default (`all_other`; offboard batteries `offboard_artillery`)."""
    if sel.rating:
        return sel.rating
    kind = kind_of(sel.entry)
    if kind == "battery":
        return "offboard_artillery"
    if kind == "organisation" and ac.known(sel.entry):
        org = ac.record(sel.entry)
        if org.troop_profile:
            return org.troop_profile
    for row in construction_rules().get("rating_by_date", []):
        if row["nation"] == roster.nation and roster.date <= str(row["until"]):
            return row["selector"]
    return "all_other"


def group_multiplier(ac: ArmyCatalogue, roster: Roster, sel: Selection) -> Fraction | None:
    kind = kind_of(sel.entry)
    if kind in ("aircraft", "fieldwork"):
        return Fraction(1)  # p43: aircraft never scaled; fortifications: decision P58
    rules = ac.rating_rules(roster.nation, group_rating(ac, roster, sel))
    y, m = roster.year_month
    dated = [r for r in rules if r.valid is None or _covers(r.valid, y, m)]
    rule = (dated or rules or [None])[0]
    if rule is None:
        return None
    if rule.multiplier is None and rule.multiplier_by_class:
        default = ac.rating_rules(roster.nation, "all_other")
        cls = default[0].troop_class if default else "regular"
        return multiplier(rule, cls) if cls in rule.multiplier_by_class else Fraction(1)
    return multiplier(rule)


def _covers(valid, y: int, m: int) -> bool:
    from .catalogue import in_window

    return in_window(valid, y, m) is not False


def price_roster(ac: ArmyCatalogue, roster: Roster) -> tuple[list[Priced], list[Message]]:
    msgs: list[Message] = []
    by_id = {path.rsplit("/", 1)[-1]: sel for path, sel, _ in roster.walk()}
    groups = []
    for sel in roster.selections:
        node = price_selection(ac, sel, sel.id, msgs, by_id)
        node.rating = group_rating(ac, roster, sel)
        node.multiplier = group_multiplier(ac, roster, sel)
        if node.multiplier is not None:
            node.cost = int(scaled_pv([node.base], node.multiplier, Rounding.TOTAL_HALF_UP))
        groups.append(node)
    return groups, msgs
