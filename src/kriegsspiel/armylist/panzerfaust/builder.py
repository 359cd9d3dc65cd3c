"""Editing a Panzerfaust roster: new, what may be added where, add (with the chart's
mandatory contents), snapshot for migration."""

from __future__ import annotations

from ...rulesets.panzerfaust.models import DateRange, Organisation
from ..roster import Roster, RosterError, Selection, SnapshotItem
from .catalogue import ADHOC, ArmyCatalogue, in_window
from .pricing import kind_of, price_roster
from .slots import slot_groups
from .validate import validate

RULESET = "panzerfaust"


class PanzerfaustBuilder:
    """The army builder's face for Panzerfaust (armylist.service dispatches here)."""

    ruleset = RULESET

    def __init__(self, overlays=None):
        self.ac = ArmyCatalogue.load(overlays)

    def new(
        self, nation: str, date: str, theatre: str | None, points: int | None, name: str | None
    ) -> Roster:
        rec = self.ac.nation(nation)
        return Roster(
            ruleset=RULESET,
            nation=rec.id,
            army_list=f"{rec.name} (pp. {min(rec.pages)}-{max(rec.pages)})",
            theatre=theatre,
            date=date,
            points=points,
            name=name or f"{rec.name} {date}",
            data_revision=self.ac.revision,
        )

    def available(self, roster: Roster, path: str = "") -> list[dict]:
        """Entries that may be added at `path` (the root: buyable units of the nation, offboard
        batteries, aircraft, an ad-hoc company), each with PV, dates and availability now."""
        parent = roster.find(path).entry if path.strip("/") else None
        return self.available_in(roster, parent)

    def available_in(self, roster: Roster, parent: str | None) -> list[dict]:
        """Entries that may be bought inside an entry `parent` (None = the roster root) at the
        roster's nation and date; the web builder's organisation tree walks this."""
        y, m = roster.year_month
        if parent is not None:
            if parent == ADHOC:
                refs = [
                    f"organisation:{o.id}"
                    for o in self.ac.organisations(roster.nation)
                    if o.buyable and o.level in ("platoon", "section")
                ]
            elif kind_of(parent) == "organisation":
                refs = [s.ref for s in self.ac.record(parent).slots]
            else:
                refs = []
        else:
            refs = [ADHOC] + [
                f"organisation:{o.id}"
                for o in self.ac.organisations(roster.nation)
                if o.buyable and o.level == "company"
            ]
            refs += [
                f"battery:{b.id}" for b in self.ac.cat.all("battery") if b.nation == roster.nation
            ]
            refs += [f"aircraft:{a.id}" for a in self.ac.cat.all("aircraft")]
            refs += [f"fieldwork:{f.id}" for f in self.ac.cat.all("fieldwork")]
        out = []
        for ref in dict.fromkeys(refs):
            if ref == ADHOC:
                out.append({"entry": ref, "name": "Ad-hoc company", "available": True})
                continue
            price = self.ac.price(ref)
            dates = self.ac.dates(ref)
            rec = self.ac.record(ref)
            out.append(
                {
                    "entry": ref,
                    "name": rec.name,
                    "kind": getattr(rec, "kind", None) if isinstance(rec, Organisation) else None,
                    "pv": price.pv,
                    "pv_provenance": price.provenance,
                    "dates": dates.raw if dates else None,
                    "dates_placeholder": self.ac.dates_placeholder(ref),
                    "available": in_window(dates, y, m) is not False,
                    "page": self.ac.page(ref),
                }
            )
        return out

    def add(
        self,
        roster: Roster,
        path: str,
        entry: str,
        count: int = 1,
        rating: str | None = None,
        options: list[str] | None = None,
        name: str | None = None,
        expand: bool = True,
    ) -> Selection:
        """Add `entry` under `path` ('' = root); an organisation brings its mandatory contents
        at the roster's date (see `_expand`, decision P110)."""
        if entry != ADHOC:
            try:
                self.ac.record(entry)
            except LookupError as exc:
                raise RosterError(str(exc.args[0])) from None
        siblings = roster.parent_list(path)
        sel = Selection(
            id=roster.new_id(),
            entry=entry,
            count=count,
            rating=rating,
            options=list(options or []),
            name=name,
        )
        siblings.append(sel)
        if expand:
            self._expand(roster, sel)
        return sel

    def _expand(self, roster: Roster, sel: Selection, depth: int = 0) -> None:
        """The chart's mandatory contents at the roster's date (decision P110): per choice group
        the first alternative known to serve then, else the first not known out of service, else
        the first; per item its minimum over the slots in force then. A mandatory item out of
        service stays in: the validator names it."""
        if kind_of(sel.entry) != "organisation" or depth > 8:
            return
        y, m = roster.year_month
        for group in slot_groups(self.ac.record(sel.entry), y, m):
            state = [self.serves(s.ref, y, m, s.valid) for s in group]
            slot = group[
                state.index(True) if True in state else state.index(None) if None in state else 0
            ]
            if slot.min == 0:
                continue
            if kind_of(slot.ref) == "organisation":
                for _ in range(slot.min):
                    child = Selection(id=roster.new_id(), entry=slot.ref)
                    sel.children.append(child)
                    self._expand(roster, child, depth + 1)
            else:
                sel.children.append(Selection(id=roster.new_id(), entry=slot.ref, count=slot.min))

    def serves(
        self, ref: str, year: int, month: int, window: DateRange | None = None, depth: int = 0
    ) -> bool | None:
        """Whether the entry (in a slot dated `window`) serves at the date: False when it or a
        mandatory part of it is out of service, True when its own window holds the date, None
        when the window is lost."""
        own = [in_window(w, year, month) for w in (window, self.ac.dates(ref))]
        if False in own:
            return False
        if kind_of(ref) == "organisation" and depth < 8:
            for group in slot_groups(self.ac.record(ref), year, month):
                if group[0].min and all(
                    self.serves(s.ref, year, month, s.valid, depth + 1) is False for s in group
                ):
                    return False
        return True if True in own else None

    def validate(self, roster: Roster):
        return validate(self.ac, roster)

    def snapshot(self, roster: Roster) -> dict[str, SnapshotItem]:
        """Price and availability of every entry the roster uses, as the data gives them now."""
        out: dict[str, SnapshotItem] = {}
        for _, sel, _ in roster.walk():
            if sel.entry == ADHOC or sel.entry in out:
                continue
            try:
                rec = self.ac.record(sel.entry)
            except LookupError:
                continue
            price = self.ac.price(sel.entry)
            dates = self.ac.dates(sel.entry)
            out[sel.entry] = SnapshotItem(
                name=rec.name,
                pv=price.pv,
                provenance=price.provenance,
                available=_window(dates),
            )
        return out

    def sheet(self, roster: Roster) -> list[dict]:
        """The priced tree for exports: per node its name, count, base PV, page and a unit card;
        per top-level group its rating, multiplier and cost (p22)."""
        groups, _ = price_roster(self.ac, roster)

        def node(p) -> dict:
            known = p.sel.entry != ADHOC and self.ac.known(p.sel.entry)
            rec = self.ac.record(p.sel.entry) if known else None
            out = {
                "id": p.sel.id,
                "path": p.path,
                "entry": p.sel.entry,
                "name": p.label,
                "count": p.sel.count,
                "base_pv": float(p.base),
                "placeholder": any(i.provenance == "placeholder" for i in p.items),
                "unpriced": any(i.pv is None for i in p.items),
                "options": list(p.sel.options),
                "notes": p.sel.notes,
                "page": self.page(p.sel.entry),
                "card": card(rec),
                "children": [node(c) for c in p.children],
            }
            if p.surcharge:
                out["afv_hq_surcharge"] = p.surcharge
            return out

        out = []
        for g in groups:
            d = node(g)
            d.update(
                rating=g.rating,
                multiplier=float(g.multiplier) if g.multiplier is not None else None,
                cost=g.cost,
            )
            out.append(d)
        return out

    def exists(self, entry: str) -> bool:
        if entry == ADHOC:
            return True
        try:
            self.ac.record(entry)
        except LookupError:
            return False
        return True

    def label(self, entry: str) -> str:
        return self.ac.label(entry)

    def page(self, entry: str) -> str | None:
        return None if entry == ADHOC else self.ac.page(entry)


def _window(dates) -> str | None:
    if dates is None or (dates.start is None and dates.end is None):
        return None
    s = f"{dates.start.year}-{dates.start.month or 1:02d}" if dates.start else ""
    e = f"{dates.end.year}-{dates.end.month or 12:02d}" if dates.end else ""
    return f"{s}..{e}"


CARD_FIELDS = (
    "chart",
    "armour",
    "speed_road",
    "speed_cc",
    "size",
    "fire_order",
    "capacity",
    "radio",
    "open",
    "fire_factors",
    "cqc",
    "weapon",
    "designation",
    "to_hit",
    "penetration",
    "he",
    "smoke",
    "tow",
    "drive",
    "role",
)


def card(rec) -> dict:
    """The fields a unit card prints (legends p26-29); armament as printed."""
    if rec is None or isinstance(rec, Organisation):
        return {}
    data = rec.model_dump(mode="json")
    out = {k: data[k] for k in CARD_FIELDS if data.get(k) not in (None, [], {})}
    if getattr(rec, "armament", None):
        out["armament"] = [m.raw for m in rec.armament]
    return out
