"""The odds/resolve bounds said to come from the data match the data (issue 15 item 3): a
data revision that widens a table or adds a longer gun fails here instead of being refused."""

from __future__ import annotations

from kriegsspiel.rulesets import load, ruleset_actions
from kriegsspiel.rulesets.quickref.options import Options as QuickrefOptions
from kriegsspiel.rulesets.quickref.tables import rules as quickref_rules


def bound(ruleset: str, action: str, name: str) -> float:
    p = next(p for p in ruleset_actions(ruleset)[action].params if p.name == name)
    assert p.max is not None
    return p.max


def test_quickref_bounds_come_from_its_data():
    cat = load("quickref")
    r = quickref_rules(cat, QuickrefOptions())
    longest = max(a.max_range or 0 for a in cat.all("artillery"))
    longest = max(longest, *(v.gun.range[-1] for v in cat.all("vehicle") if v.gun))
    assert bound("quickref", "fire", "range") == longest  # L4
    assert bound("quickref", "small-arms", "strength") == r.effects.columns[-1]  # L2
    assert bound("quickref", "he", "strength") == r.const("he-max-column")
    infantry = cat.all("infantry")
    mg = max(i.sa for i in infantry if i.kind == "mg_team")
    assert bound("quickref", "assault-infantry", "defender") == mg + max(
        i.sa for i in infantry if i.kind != "mg_team"
    )


def test_panzerfaust_bounds_come_from_its_data():
    cat = load("panzerfaust")
    edge = max(e for b in cat.all("range_bands") for e in b.edges_cm)  # p29
    for action, name in [("at-fire", "range"), ("observe", "distance"), ("area-fire", "range")]:
        assert bound("panzerfaust", action, name) == edge
    calibres = [g.calibre_mm for g in cat.all("gun") if g.calibre_mm]
    assert bound("panzerfaust", "indirect", "calibre_mm") == max(calibres)
    orgs = cat.all("organisation")
    subunits = max(sum(s.max for s in o.slots if s.ref.startswith("organisation:")) for o in orgs)
    assert bound("panzerfaust", "morale", "subunits_lost") == subunits
    teams = max(
        sum(s.max for s in o.slots if s.ref.startswith("infantry_team:"))
        for o in orgs
        if o.level in ("squad", "section")
    )
    assert bound("panzerfaust", "morale", "teams_lost") == teams


def test_battleground_bounds_come_from_its_data():
    cat = load("battleground")
    assert bound("battleground", "mg-vs-afv", "rof") == max(a.rof for a in cat.all("small_arm"))
    pens = [v for g in [*cat.all("gun"), *cat.all("vehicle")] for v in (g.pen or {}).values()]
    assert bound("battleground", "penetration", "pen") == max(v for v in pens if v is not None)
