"""Organisation nodes dated by what they hold (issue 16 item 5, decision P114), and HEAT rows
the book leaves undated because they always serve (P115).

`scripts/classify_orgs.py` writes a `valid` window into a node the book leaves undated (after the
P108 rules: a year in its name, the dated units holding it) when every mandatory slot group holds
dated items: from the year the last group can first be filled to the year the first group can last
be filled. The windows below are worked by hand from the equipment rows named in each comment.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from kriegsspiel.armylist.panzerfaust.catalogue import in_window
from kriegsspiel.data import Provenance

ROOT = Path(__file__).resolve().parents[3]

# node -> (start, end, provenance), hand-computed
HAND = {
    # Pz IV G-J (P113 chart 43) or Pz V Panther (P113 chart 43); both ends open to 1945
    "germany/pz-platoon-late": (1943, 1945, Provenance.PLACEHOLDER),
    # Light Tank Mk VI-VIC, the list prints 39-42? (p46)
    "britain/light-tank-platoon": (1939, 1942, Provenance.SEED_INFERRED),
    # one choice group: 2pdr 39-43?, 6pdr 42-45?, 17pdr 43-45? (p46) -> 1939 to 1945
    "britain/at-troop": (1939, 1945, Provenance.SEED_INFERRED),
    # holds 4 AT troops (above): a contained node's window is its own
    "britain/at-battery": (1939, 1945, Provenance.SEED_INFERRED),
}
# dated nodes of 896: 38 printed, 94 more by P108, 323 more by P114 (82 more once P230/P233 and
# the second chart pass dated
# rows of Poland, Belgium, France, Hungary, Japan, Italy and the USSR)
PINNED = {"nodes": 896, "dated": 511, "P114": 379, "P114 seed-inferred": 177}


def _window(org):
    return org.valid.start.year, org.valid.end.year, org.prov("valid")


def test_hand_computed_windows(cat):
    for oid, want in HAND.items():
        org = cat.get("organisation", oid)
        assert _window(org) == want, oid
        assert org.prov_entry("valid").note.startswith("P114"), oid


def test_coverage_of_node_dates_pinned(cat):
    orgs = list(cat.all("organisation"))
    p114 = [o for o in orgs if o.valid and (o.prov_entry("valid").note or "").startswith("P114")]
    got = {
        "nodes": len(orgs),
        "dated": sum(1 for o in orgs if o.valid),
        "P114": len(p114),
        "P114 seed-inferred": sum(1 for o in p114 if o.prov("valid") == Provenance.SEED_INFERRED),
    }
    assert got == PINNED


def test_p114_window_holds_every_contained_dated_node(cat):
    """A contained node dated by its own contents serves within its container's P114 window's
    bounds: the container cannot start before it nor end after it (the rule's min/max). Of a
    choice group (one of several slots fills the place) the earliest choice bounds the start:
    the Italian artillery battalion (p76) serves from its 75mm batteries' year, its 105mm
    batteries later."""
    for org in cat.all("organisation"):
        if not org.valid or not (org.prov_entry("valid").note or "").startswith("P114"):
            continue
        groups: dict[str, list[int]] = {}
        for slot in org.slots:
            kind, _, child = slot.ref.partition(":")
            if kind != "organisation" or not slot.min or slot.valid:
                continue
            sub = cat.get("organisation", child)
            assert sub.valid is not None, (org.id, child)
            if slot.choice_group:
                groups.setdefault(slot.choice_group, []).append(sub.valid.start.year)
                continue
            assert sub.valid.start.year <= org.valid.start.year, (org.id, child)
            assert org.valid.end.year <= (sub.valid.end.year if sub.valid.end else 1945)
        for group, starts in groups.items():
            assert min(starts) <= org.valid.start.year, (org.id, group)


def test_script_is_up_to_date():
    """`scripts/classify_orgs.py --check`: running the rules again changes no organisation file."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts/classify_orgs.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


# (gun, ammo index): HEAT rows printed with neither a date nor a pp/pg cost (gun charts p49, p64, p93)
ALWAYS = {
    ("britain/95mm-l22-mk-i", 0),
    ("germany/75mm-l22-ig-37", 0),
    ("germany/105mm-l13-lg40", 0),
    ("usa_europe/57mm-l27-m18-recoilless", 0),
    ("usa_europe/75mm-l28-m20-recoilless", 0),
    ("usa_europe/75mm-l16-m1a1-pack", 1),
    ("usa_europe/105mm-l16-m3", 0),
    ("usa_europe/105mm-l22-m2a1", 1),
}


def test_undated_heat_rows_serve_with_their_gun(cat):
    """Decision P115 (p35: a HEAT row with no date can always be fired): an open window of the
    book's, on exactly the rows that print neither a date nor a per-gun/per-platoon cost; a
    priced row whose date was lost (75mm L10 LG40, 100mm L24 vs 14/19) stays undated."""
    seen = set()
    for gun in cat.all("gun"):
        for i, ammo in enumerate(gun.ammo):
            note = gun.prov_entry(f"ammo.{i}.available").note or ""
            if not note.startswith("P115"):
                continue
            seen.add((gun.id, i))
            assert ammo.kind == "HEAT" and ammo.basis in (None, "included"), gun.id
            assert ammo.available.start is None and ammo.available.end is None
            assert gun.prov(f"ammo.{i}.available") == Provenance.SEED_INFERRED
            assert in_window(ammo.available, 1939, 9) is not False
    assert seen == ALWAYS
    for gid in ("germany/75mm-l10-lg40", "italy/100mm-l24-vs-14-19"):
        heat = cat.get("gun", gid).ammo[0]
        assert heat.kind == "HEAT" and heat.basis == "pg" and heat.available is None
