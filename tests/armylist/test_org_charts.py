"""The builder's own organisations validate (issue 18, decision P110): `army add` of a buyable
company brings the chart's mandatory contents at the roster's date, and that roster has no error.

Every buyable company of every nation is checked (all of them, not a sample: the run is under a
second). A company that may not lead a force (support, HQ: p44's first-company rule) is added after
the nation's first company that serves at the date. The date is inside the company's window where
its mandatory contents serve: the window's middle, else its ends, else a June within it.
"""

from __future__ import annotations

import pytest

from kriegsspiel.armylist.panzerfaust import Builder

FIRST_KINDS = ("armour", "infantry", "cavalry", "recon")
# p44's frequency table judges the whole force (FR 5-7 platoons against common ones, by the
# force's PV), not a company's chart: a lone recon company may breach it and stay a legal chart.
FORCE_RULES = ("frequency_limit", "frequency_balance")
# organisations the book itself makes illegal at every date: none found (id -> reason)
BOOK_ILLEGAL: dict[str, str] = {}


@pytest.fixture(scope="module")
def b() -> Builder:
    return Builder()


def nations(b: Builder) -> list[str]:
    return sorted({o.nation for o in b.ac.cat.all("organisation")})


def companies(b: Builder, nation: str) -> list:
    orgs = sorted(b.ac.organisations(nation), key=lambda o: o.id)
    return [o for o in orgs if o.buyable and o.level == "company"]


def serving_date(b: Builder, org) -> tuple[int, int] | None:
    v = org.valid
    lo = max((v.start.year, v.start.month or 1) if v and v.start else (1939, 9), (1939, 9))
    hi = min((v.end.year, v.end.month or 12) if v and v.end else (1945, 5), (1945, 5))
    first, last = lo[0] * 12 + lo[1] - 1, hi[0] * 12 + hi[1] - 1
    junes = [k for k in range(first, last + 1) if k % 12 == 5]
    for k in [(first + last) // 2, first, last, *junes]:
        if b.serves(f"organisation:{org.id}", k // 12, k % 12 + 1) is not False:
            return k // 12, k % 12 + 1
    return None


def chart_errors(b: Builder, nation: str, org) -> list[str]:
    when = serving_date(b, org)
    assert when is not None, f"{org.id}: no date where its mandatory contents serve"
    y, m = when
    roster = b.new(nation, f"{y}-{m:02d}", None, None, None)
    if org.kind not in FIRST_KINDS:
        lead = next(
            o
            for o in companies(b, nation)
            if o.kind in FIRST_KINDS and b.serves(f"organisation:{o.id}", y, m) is not False
        )
        b.add(roster, "", f"organisation:{lead.id}")
    b.add(roster, "", f"organisation:{org.id}")
    errors = b.validate(roster).of("error")
    return [
        f"{y}-{m:02d} {e.path}: {e.code}: {e.text}" for e in errors if e.code not in FORCE_RULES
    ]


def test_every_nation_has_at_least_three_companies(b):
    assert all(len(companies(b, n)) >= 3 for n in nations(b))


@pytest.mark.parametrize(
    "nation",
    ["belgium", "britain", "finland", "france", "germany", "hungary", "italy", "japan"]
    + ["poland", "rumania", "usa_europe", "usa_pacific", "ussr"],
)
def test_each_company_with_its_mandatory_contents_validates(b, nation):
    assert nation in nations(b)
    bad = {
        o.id: errs
        for o in companies(b, nation)
        if o.id not in BOOK_ILLEGAL and (errs := chart_errors(b, nation, o))
    }
    assert bad == {}


# --- the lead's three reproductions (issue 18) ---------------------------------------------
def test_british_infantry_company_is_not_rated_as_paratroops(b):
    """p22, p50: the line infantry section is shared with the paratroop platoon; it takes the
    company's rating (its profile is not inherited from the paratroops), and the company HQ's
    radio and plain HQ teams are two slots of one item."""
    assert b.ac.record("organisation:britain/infantry-section").troop_profile is None
    assert b.ac.record("organisation:britain/paratroop-section").troop_profile is not None
    r = b.new("britain", "1944-06", None, None, None)
    b.add(r, "", "organisation:britain/infantry-company")
    assert b.validate(r).of("error") == []


def test_choice_picks_the_variant_in_service(b):
    """p44-45, P110: in 1944 the platoon HQ is the PIAT variant, not the Boys ATR one (39-42);
    in 1941 the Boys variant."""

    def hqs(date: str) -> set[str]:
        r = b.new("britain", date, None, None, None)
        b.add(r, "", "organisation:britain/infantry-platoon")
        return {c.entry for c in r.selections[0].children if "hq" in c.entry}

    assert hqs("1944-06") == {"organisation:britain/infantry-platoon-hq-piat"}
    assert hqs("1941-06") == {"organisation:britain/infantry-platoon-hq-boys"}


def test_a_mandatory_item_out_of_service_is_named(b):
    """P110: with no alternative left, an out-of-date mandatory item stays in and is an error."""
    r = b.new("britain", "1944-06", None, None, None)
    plt = b.add(r, "", "organisation:britain/infantry-platoon", expand=False)
    b.add(r, plt.id, "organisation:britain/infantry-platoon-hq-boys")
    texts = [m.text for m in b.validate(r).of("error") if m.code == "date_window"]
    assert any("Boys ATR" in t for t in texts)


@pytest.mark.parametrize(("date", "mortars"), [("1941-06", 3), ("1944-06", 2)])
def test_soviet_company_mortar_section_by_date(b, date, mortars):
    """p86: the rifle company's mortar section has 3 x 50mm mortars 1939-41, 2 from 1942."""
    r = b.new("ussr", date, None, None, None)
    b.add(r, "", "organisation:ussr/rifle-company")
    section = next(
        c for c in r.selections[0].children if c.entry == "organisation:ussr/company-mortar-section"
    )
    assert [(c.entry, c.count) for c in section.children] == [("battery:ussr/50mm-mortar", mortars)]
    assert b.validate(r).of("error") == []
    section.children[0].count = 5
    assert "slot_max" in {m.code for m in b.validate(r).of("error")}
