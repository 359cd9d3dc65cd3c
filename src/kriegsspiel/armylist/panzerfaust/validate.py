"""Validation of a Panzerfaust roster against the construction rules (rules.yaml, pp. 5, 22, 27,
34-35, 39, 43-44). Each check yields messages naming the selection's path and the rule's page;
editing is never blocked, `strict` only refuses exports (armylist.service)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction

from ...rulesets.panzerfaust.models import Organisation
from ..report import Message, Report
from ..roster import Roster, Selection
from .catalogue import ADHOC, TOP_LEVEL_KINDS, ArmyCatalogue, construction_rules, in_window
from .pricing import Priced, _msg, group_rating, kind_of, price_roster
from .slots import slot_groups

ONBOARD_COMPANY_KINDS = ("organisation", "adhoc")


def validate(ac: ArmyCatalogue, roster: Roster) -> Report:
    groups, msgs = price_roster(ac, roster)
    total = sum(g.cost or 0 for g in groups)
    report = Report(total, roster.points, msgs)
    report.messages += list(check_entries(ac, roster, groups))
    known = _prune(ac, roster)  # entries the data no longer has are reported once, above
    for check in CHECKS:
        report.messages += list(check(ac, known, groups))
    report.totals = totals(ac, known, groups)
    return report


def _prune(ac: ArmyCatalogue, roster: Roster) -> Roster:
    def keep(sels: list[Selection]) -> list[Selection]:
        return [
            s.model_copy(update={"children": keep(s.children)})
            for s in sels
            if s.entry == ADHOC or ac.known(s.entry)
        ]

    return roster.model_copy(update={"selections": keep(roster.selections)})


# --- per selection ------------------------------------------------------------------------
def check_entries(ac: ArmyCatalogue, roster: Roster, groups) -> Iterator[Message]:
    y, m = roster.year_month
    undated: list[str] = []
    for path, sel, parent in roster.walk():
        if sel.entry == ADHOC:
            continue
        try:
            rec = ac.record(sel.entry)
        except LookupError as exc:
            yield _msg("not_in_organisation", str(exc.args[0]), path)
            continue
        if parent is None and kind_of(sel.entry) not in TOP_LEVEL_KINDS:
            yield _msg("not_in_organisation", f"{rec.name} is bought inside a unit", path)
        if rec.nation not in (roster.nation, "common") and kind_of(sel.entry) == "organisation":
            yield _msg("not_in_organisation", f"{rec.name} is in the {rec.nation} list", path)
        ok = in_window(ac.dates(sel.entry), y, m)
        if ok is False:
            d = ac.dates(sel.entry)
            yield _msg("date_window", f"{rec.name} serves {d.raw}, not {roster.date}", path)
        elif ok is None and kind_of(sel.entry) != "organisation":
            undated.append(rec.name)
        occupied = str(getattr(rec, "pv_basis", "") or "").startswith("occupants")
        if kind_of(sel.entry) == "fieldwork" and occupied and not sel.covers:
            yield _msg("fortification_cover", f"{rec.name} names no occupants", path)
        for option in sel.options:
            name, _, arg = option.partition(":")
            if name == "ammo":
                from .pricing import _special_ammo

                ammo = _special_ammo(ac, sel.entry, arg)
                if ammo and in_window(ammo.available, y, m) is False:
                    yield _msg(
                        "option_date", f"{arg} for {rec.name} from {ammo.available.raw}", path
                    )
    if undated:
        names = ", ".join(sorted(set(undated))[:8])
        more = len(set(undated)) - 8
        tail = f" and {more} more" if more > 0 else ""
        yield _msg("date_unknown", f"{len(set(undated))} items have no dates: {names}{tail}")


def check_organisation(ac: ArmyCatalogue, roster: Roster, groups) -> Iterator[Message]:
    """p5: complete platoons and companies as the lists lay them out (slots, choice groups,
    conditions as data, decision P9)."""
    rating_of = {g.sel.id: g.rating for g in groups}
    for path, sel, _ in roster.walk():
        if kind_of(sel.entry) != "organisation":
            continue
        try:
            org = ac.record(sel.entry)
        except LookupError:
            continue
        page = f"p{org.page}"
        counts = Counter()
        for child in sel.children:
            counts[child.entry] += child.count
        refs = {s.ref for s in org.slots}
        for child in sel.children:
            if child.entry not in refs:
                yield Message(
                    "error",
                    "not_in_organisation",
                    f"{ac.label(child.entry)} is not part of {org.name}",
                    f"{path}/{child.id}",
                    page,
                )
        whole = all(
            any(counts[s.ref] >= s.max for s in slots)
            or not any(counts[s.ref] for s in slots)
            and min(s.min for s in slots) == 0
            for slots in slot_groups(org, *roster.year_month)
            if not any(s.conditions for s in slots)
        )
        top = path.split("/")[0]
        for slots in slot_groups(org, *roster.year_month):
            used = [s for s in slots if counts[s.ref]]
            if len(used) > 1:
                names = " and ".join(ac.label(s.ref) for s in used)
                yield Message("error", "choice_group", f"{names} are alternatives", path, page)
                continue
            if not used:
                need = min(s.min for s in slots)
                if need:
                    yield Message(
                        "error",
                        "slot_min",
                        f"{org.name} needs {need} x {ac.label(slots[0].ref)}",
                        path,
                        page,
                    )
                continue
            slot = used[0]
            n = counts[slot.ref]
            if n < slot.min:
                yield Message(
                    "error",
                    "slot_min",
                    f"{org.name} needs {slot.min} x {ac.label(slot.ref)}, has {n}",
                    path,
                    page,
                )
            if n > slot.max:
                yield Message(
                    "error",
                    "slot_max",
                    f"{org.name} allows {slot.max} x {ac.label(slot.ref)}, has {n}",
                    path,
                    page,
                )
            for cond in slot.conditions:
                if cond == "whole_parent_only" and not whole:
                    yield Message(
                        "error",
                        "whole_parent_only",
                        f"{ac.label(slot.ref)} only comes with the whole {org.name}",
                        path,
                        page,
                    )
                if cond == "nation_policy":
                    yield Message(
                        "info",
                        "nation_policy",
                        f"{ac.label(slot.ref)}: a limit in the {roster.nation} list's notes",
                        path,
                        page,
                    )
                if cond.startswith("profile:"):
                    allowed = cond.removeprefix("profile:").split("|")
                    if (rating_of.get(top) or "").partition("@")[0] not in allowed:
                        yield Message(
                            "error",
                            "profile_only",
                            f"{ac.label(slot.ref)} only for {' or '.join(allowed)} units",
                            path,
                            page,
                        )
            if slot.valid and in_window(slot.valid, *roster.year_month) is False:
                yield Message(
                    "error",
                    "date_window",
                    f"{ac.label(slot.ref)} in {org.name} only {slot.valid.raw}",
                    path,
                    page,
                )


# --- companies and the force (p5, p44) ------------------------------------------------------
def _company_kind(ac: ArmyCatalogue, sel: Selection) -> str | None:
    if sel.entry == ADHOC:
        kinds = [
            ac.record(c.entry).kind
            for c in sel.children
            if kind_of(c.entry) == "organisation" and ac.record(c.entry).level == "platoon"
        ]
        return Counter(kinds).most_common(1)[0][0] if kinds else None
    rec = ac.record(sel.entry)
    return rec.kind if isinstance(rec, Organisation) else None


def _is_company(ac: ArmyCatalogue, sel: Selection) -> bool:
    if sel.entry == ADHOC:
        return True
    if kind_of(sel.entry) != "organisation":
        return False
    try:
        return ac.record(sel.entry).level in ("company", "battalion", "regiment", "division")
    except LookupError:
        return False


def check_force(ac: ArmyCatalogue, roster: Roster, groups) -> Iterator[Message]:
    companies = [s for s in roster.selections if _is_company(ac, s)]
    for sel in roster.selections:
        if kind_of(sel.entry) == "organisation" and not _is_company(ac, sel):
            try:
                level = ac.record(sel.entry).level
            except LookupError:
                continue
            yield _msg(
                "loose_platoon",
                f"{ac.label(sel.entry)} ({level}) must sit in an ad-hoc company",
                sel.id,
            )
    if companies:
        first = companies[0]
        kinds = construction_rules_param("first_company", "kinds")
        kind = _company_kind(ac, first)
        if kind not in kinds:
            yield _msg(
                "first_company",
                f"the first company is {kind or 'unknown'}, not {'/'.join(kinds)}",
                first.id,
            )
    support = [s for s in companies if _company_kind(ac, s) == "support"]
    cap = int(_param(ac, "support_companies", "max"))
    for extra in support[cap:]:
        yield _msg("support_companies", f"support company beyond {cap}", extra.id)
    nation = ac.nation(roster.nation)
    n_co = len(companies)
    batteries = [s for s in roster.selections if kind_of(s.entry) == "battery"]
    if len(batteries) > nation.offboard_batteries_per_company * n_co:
        yield _msg(
            "offboard_batteries",
            f"{len(batteries)} offboard batteries for {n_co} companies "
            f"(at most {nation.offboard_batteries_per_company} per company)",
        )
    aircraft = sum(s.count for s in roster.selections if kind_of(s.entry) == "aircraft")
    if aircraft > nation.aircraft_per_company * n_co:
        yield _msg(
            "aircraft",
            f"{aircraft} aircraft for {n_co} companies (at most {nation.aircraft_per_company} each)",
        )
    yield from _check_adhoc(ac, roster)
    yield from _check_max_in_force(ac, roster)


def construction_rules_param(code: str, key: str):
    rule = next(r for r in construction_rules()["rules"] if r["code"] == code)
    return rule["params"][key]


def _param(ac: ArmyCatalogue, code: str, key: str):
    value = construction_rules_param(code, key)
    if isinstance(value, str) and value.startswith("@fbr."):
        return ac.fbr(value.removeprefix("@fbr."))
    return value


def _check_adhoc(ac: ArmyCatalogue, roster: Roster) -> Iterator[Message]:
    """p5: two platoons make an ad-hoc company; three or more of one company type need
    that company's HQ; p44: at most 5 platoons."""
    hq_free = construction_rules_param("adhoc_hq", "ad_hoc_without_hq_max")
    top = int(_param(ac, "adhoc_size", "max"))
    for sel in roster.selections:
        if sel.entry != ADHOC:
            continue
        platoons = [
            c
            for c in sel.children
            if kind_of(c.entry) == "organisation" and ac.record(c.entry).level == "platoon"
        ]
        hqs = [
            c
            for c in sel.children
            if kind_of(c.entry) == "organisation" and ac.record(c.entry).kind == "hq"
        ]
        n = sum(p.count for p in platoons)
        if n > top:
            yield _msg("adhoc_size", f"{n} platoons, at most {top}", sel.id)
        by_company: Counter = Counter()
        for p in platoons:
            for company in {o.id for o in ac.parents(p.entry) if o.level == "company"}:
                by_company[company] += p.count
        hq_refs = {h.entry for h in hqs}
        allowed_hqs = {
            s.ref
            for p in platoons
            for o in ac.parents(p.entry)
            for s in o.slots
            if s.role == "hq" and o.level == "company"
        }
        for company, count in by_company.items():
            org = ac.record(f"organisation:{company}")
            own_hqs = {s.ref for s in org.slots if s.role == "hq"}
            if count > hq_free and own_hqs and not (own_hqs & hq_refs):
                yield _msg(
                    "adhoc_hq",
                    f"{count} platoons of {org.name} need its HQ ({ac.label(sorted(own_hqs)[0])})",
                    sel.id,
                )
        for h in hqs:
            if h.entry not in allowed_hqs:
                yield _msg(
                    "adhoc_hq_related",
                    f"{ac.label(h.entry)} is not the HQ of any of these platoons' companies",
                    f"{sel.id}/{h.id}",
                )


def _check_max_in_force(ac: ArmyCatalogue, roster: Roster) -> Iterator[Message]:
    nation = ac.nation(roster.nation)
    counts: Counter = Counter()
    for _, sel, _ in roster.walk():
        if kind_of(sel.entry) == "organisation":
            org = ac.record(sel.entry)
            counts[org.id] += sel.count
            if org.group:
                counts[f"group:{org.group}"] += sel.count
            if org.max_in_force is not None and counts[org.id] == org.max_in_force + 1:
                yield Message(
                    "error",
                    "max_in_force",
                    f"at most {org.max_in_force} x {org.name} in a force",
                    None,
                    f"p{org.page}",
                )
    for key, cap in nation.max_in_force.items():
        if counts[key.removeprefix("organisation:")] > cap:
            yield _msg("max_in_force", f"at most {cap} x {key} in a {nation.name} force")


def check_ratings(ac: ArmyCatalogue, roster: Roster, groups) -> Iterator[Message]:
    for g in groups:
        sel = g.sel
        selector = group_rating(ac, roster, sel)
        if not ac.rating_rules(roster.nation, selector):
            known = sorted({r.selector for r in ac.nation(roster.nation).rating_rules})
            yield _msg("rating_unknown", f"{selector!r}; {roster.nation} has {known}", sel.id)
            continue
        yield from _rating_scope(ac, roster, sel, selector)
        for path, child, _ in _walk(sel, sel.id):
            if child.rating and child.rating != selector:
                yield _msg("rating_mixed", f"{child.rating} inside a {selector} company", path)
            if kind_of(child.entry) == "organisation":
                org = ac.record(child.entry)
                prof = org.troop_profile
                if prof and prof != selector.partition("@")[0]:
                    yield _msg(
                        "rating_profile", f"{org.name} is rated {prof}, not {selector}", path
                    )


def _rating_scope(ac: ArmyCatalogue, roster: Roster, sel: Selection, selector: str):
    """A rating reserved for some units (p22-23 and the lists' notes): a troop-profile rating
    (guards, marines, volksgrenadiers, ...) needs a node of that profile; `rating_scope` in
    rules.yaml limits the others (e.g. SS) to the units the list names."""
    name = selector.partition("@")[0]
    orgs = [
        ac.record(c.entry) for _, c, _ in _walk(sel, sel.id) if kind_of(c.entry) == "organisation"
    ]
    profiles = {o.troop_profile for o in ac.organisations(roster.nation) if o.troop_profile}
    if name in profiles and not any(o.troop_profile == name for o in orgs):
        yield _msg("rating_profile", f"{name} is only for units of that profile", sel.id)
    for scope in construction_rules().get("rating_scope", []):
        if scope["nation"] != roster.nation or scope["selector"] != name:
            continue
        top = orgs[0].name if orgs else ac.label(sel.entry)
        if not re.search(scope["names"], top, re.IGNORECASE):
            yield Message(
                "error", "rating_profile", f"{name} only for {scope['text']}", sel.id, scope["page"]
            )


def _walk(sel: Selection, path: str):
    yield path, sel, None
    for c in sel.children:
        yield from _walk(c, f"{path}/{c.id}")


# --- frequency ratings (p44) -----------------------------------------------------------------
def platoon_frs(ac: ArmyCatalogue, roster: Roster) -> list[tuple[str, str, int | None]]:
    """(path, name, FR) per platoon: the FR of its rarest item (p44)."""
    out = []
    for path, sel, parent in roster.walk():
        if kind_of(sel.entry) != "organisation":
            continue
        org = ac.record(sel.entry)
        if org.level != "platoon" and not (parent is None or parent.entry == ADHOC):
            continue
        if org.kind == "hq" or org.level in ("company", "battalion", "regiment"):
            continue
        frs = [ac.fr(c.entry) for _, c, _ in _walk(sel, path) if kind_of(c.entry) != "organisation"]
        known = [f for f in frs if f is not None]
        out.append((path, org.name, max(known) if known else None))
    return out


def _fr_row(ac: ArmyCatalogue, total: int) -> tuple[str, dict]:
    rows = ac.fr_limits()
    for key, values in rows:
        digits = "".join(ch for ch in key.split("_")[-1] if ch.isdigit())
        if digits and total <= int(digits) and "plus" not in key:
            return key, values
    return rows[-1]


def check_frequency(ac: ArmyCatalogue, roster: Roster, groups) -> Iterator[Message]:
    frs = platoon_frs(ac, roster)
    total = sum(g.cost or 0 for g in groups)
    key, limits = _fr_row(ac, total)
    for col, band in (("fr_5", 5), ("fr_6", 6), ("fr_7", 7)):
        n = sum(1 for _, _, fr in frs if fr == band)
        cap = limits.get(col)
        if not n or cap in ("none", None):
            continue
        cap = 0 if cap == "NA" else int(cap)
        if n > cap:
            yield _msg(
                "frequency_limit",
                f"{n} platoons of FR {band}; a {total} PV force may have {cap} (row {key})",
            )
    common = sum(1 for _, _, fr in frs if fr is not None and fr <= 4)
    rare = sum(1 for _, _, fr in frs if fr is not None and fr >= 5)
    if rare > common:
        yield _msg("frequency_balance", f"{rare} platoons of FR 5-7 against {common} of FR 0-4")
    unknown = [name for _, name, fr in frs if fr is None]
    if unknown:
        yield _msg("frequency_unknown", f"{len(unknown)} platoons: {', '.join(unknown[:6])}")


# --- prices --------------------------------------------------------------------------------
def check_prices(ac: ArmyCatalogue, roster: Roster, groups: list[Priced]) -> Iterator[Message]:
    total = sum(g.cost or 0 for g in groups)
    if roster.points is not None and total > roster.points:
        yield _msg("points_limit", f"{total} PV against a limit of {roster.points}")
    placeholder: list[tuple[str, Fraction]] = []
    unpriced: list[str] = []
    base_total = Fraction(0)
    for g in groups:
        for item in g.all_items():
            if item.pv is None:
                unpriced.append(item.name)
            else:
                base_total += item.pv
                if item.provenance == "placeholder":
                    placeholder.append((item.name, item.pv))
    if placeholder:
        share = sum(pv for _, pv in placeholder) / base_total * 100 if base_total else 0
        names = ", ".join(sorted({n for n, _ in placeholder}))
        yield _msg(
            "placeholder_price",
            f"{round(share)}% of the base PV rests on placeholder prices: {names}",
        )
    if unpriced:
        yield _msg("unpriced", f"no PV for: {', '.join(sorted(set(unpriced)))}")


def totals(ac: ArmyCatalogue, roster: Roster, groups: list[Priced]) -> dict[str, float]:
    teams = vehicles = capacity = 0
    for _, sel, _ in roster.walk():
        k = kind_of(sel.entry)
        if k in ("infantry_team", "infantry_weapon"):
            teams += sel.count
        elif k in ("afv", "softskin", "motorised_gun"):
            vehicles += sel.count
            capacity += (getattr(ac.record(sel.entry), "capacity", None) or 0) * sel.count
    return {
        "pv": sum(g.cost or 0 for g in groups),
        "teams": teams,
        "vehicles": vehicles,
        "transport_capacity": capacity,
        "companies": sum(1 for s in roster.selections if _is_company(ac, s)),
    }


CHECKS = (
    check_organisation,
    check_force,
    check_ratings,
    check_frequency,
    check_prices,
)
