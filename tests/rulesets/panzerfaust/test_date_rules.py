"""In-service windows by rule where the seed lost them and no chart names the item (issue 16
item 5; decisions P230-P234). Seed 000_74e73e3716f2a7dc.txt, page p is file line 2p+3."""

from __future__ import annotations

from pathlib import Path

import pytest

from kriegsspiel.armylist.panzerfaust.catalogue import ArmyCatalogue
from kriegsspiel.data import Provenance
from kriegsspiel.rulesets.panzerfaust.sources.dates import designation_year
from kriegsspiel.rulesets.panzerfaust.windows import (
    is_campaign_list,
    item_window,
    list_period,
    org_window,
    row_window,
)

SEED = Path("/work/shared/seeds/000_74e73e3716f2a7dc.txt")


def _page(p: int) -> str:
    return SEED.read_text(encoding="utf-8").split("\n")[2 * p + 2]


def _years(d) -> tuple[int, int]:
    return d.start.year, d.end.year


def test_list_periods_are_the_printed_windows(cat):
    """Poland prints '39?' on every dated row (p106), Belgium '39-40?' (p99), France 39-40."""
    assert list_period(cat, "poland") == (1939, 1939)
    assert list_period(cat, "belgium") == (1939, 1940)
    assert list_period(cat, "france") == (1939, 1940)
    assert list_period(cat, "finland") == (1939, 1944)
    assert list_period(cat, "germany") == (1939, 1945)
    assert [n for n in ("poland", "belgium", "france") if is_campaign_list(list_period(cat, n))]
    assert not is_campaign_list(list_period(cat, "germany"))
    assert not is_campaign_list(list_period(cat, "finland"))
    if SEED.exists():
        assert "Rifle Team 39? 1" in _page(106) and "Rifle Team 39-40? 1" in _page(99)


# (equipment row, window) for rows whose dates cell the seed lost, P230
CAMPAIGN = [
    ("poland/afv-tk-tksz", (1939, 1939)),
    ("poland/afv-vau-33-dw", (1939, 1939)),
    ("poland/gun-75mm-l36-mle-1897", (1939, 1939)),
    ("belgium/afv-t-13-i", (1939, 1940)),
    ("belgium/afv-t-15", (1939, 1940)),
    ("belgium/gun-75mm-l24-m1934", (1939, 1940)),
    ("france/afv-char-b1-bis", (1939, 1940)),
    ("france/afv-r35", (1939, 1940)),
    ("france/afv-s35", (1939, 1940)),
]


@pytest.mark.parametrize(("row_id", "years"), CAMPAIGN)
def test_campaign_list_rows_take_the_lists_period(cat, row_id, years):
    row = cat.get("equipment", row_id)
    assert row.dates.raw == "" and _years(row.dates) == years
    for end in ("start", "end"):
        entry = row.prov_entry(f"dates.{end}")
        assert entry.provenance is Provenance.SEED_INFERRED and entry.note.startswith("P230")


def test_polish_chart_windows_stop_in_1939(cat):
    """P231: the 7TP's chart year stays (1937) but the Polish list ends in 1939."""
    for row_id, start in (("poland/afv-7tp-jw", 1937), ("poland/afv-tk-tks", 1934)):
        row = cat.get("equipment", row_id)
        assert _years(row.dates) == (start, 1939)
        assert row.prov("dates.start") is Provenance.HISTORICAL
        assert row.prov_entry("dates.end").note.startswith("P231")


# (equipment row, start year) from the model's own designation, P233
DESIGNATED = [
    ("japan/afv-type-95-ha-go", 1935),  # Type 95 = Imperial 2595
    ("japan/afv-type-1-ho-ni-i", 1941),  # Type 01 = 2601
    ("japan/afv-type-03-chi-nu", 1943),
    ("japan/gun-37mm-l45-type-94-97", 1934),  # the earlier of a pair
    ("japan/gun-37mm-l22-type-11", 1930),  # Taisho 11 = 1922, before the scale
    ("hungary/afv-38m-toldi-i-ii", 1938),
    ("hungary/afv-40m-nimrod", 1940),
    ("hungary/afv-40-43m-zrinyi-ii", 1943),  # the vehicle's own model is the second figure
]


@pytest.mark.parametrize(("row_id", "start"), DESIGNATED)
def test_designations_date_their_own_models(cat, row_id, start):
    row = cat.get("equipment", row_id)
    assert _years(row.dates) == (start, 1945)
    assert row.prov("dates.start") is Provenance.SEED_INFERRED
    assert row.prov_entry("dates.start").note.startswith("P233")
    assert row.prov("dates.end") is Provenance.PLACEHOLDER  # P113's open end


def test_designation_years_and_modified_models():
    assert designation_year("japan", "75mm L31 Type 38/95") == (1905, "Type 38/95")
    assert designation_year("japan", "Medium Type 97 'CHI-HA'") == (1937, "Type 97")
    assert designation_year("hungary", "Botond 38M") == (1938, "38M")
    # a later modification of the named model: the designation's year is not its own
    assert designation_year("japan", "Medium Type 97 Special") is None
    assert designation_year("japan", "Medium Type 89B 'CHI-RO'") is None
    assert designation_year("hungary", "38M Toldi IIa") is None
    assert designation_year("germany", "Type 97") is None
    # Soviet model years (P233): four figures, or two from 36 to 45; a pair takes the earlier
    assert designation_year("ussr", "T-26S m1939") == (1939, "m1939")
    assert designation_year("ussr", "57mm L73 M41 & M43") == (1941, "M41")
    assert designation_year("ussr", "Rack M30") is None  # the M-30 rocket, not a year
    assert designation_year("ussr", "T-34/76 m1942 Modified") is None


def test_foreign_items_and_calibre_batteries_and_basic_teams(cat):
    """P293: a German PaK 35/36 in the Finnish list whose row lost its dates serves where the
    German list dates it; P294: a battery named by calibre, and a basic team, for the list's
    period (Japan's rifle team, p77, lost its dates)."""
    pak = "gun:germany/37mm-l45-pak-35-36"
    assert row_window(cat, "finland", pak) is None
    assert item_window(cat, "finland", pak) == item_window(cat, "germany", pak) is not None
    assert _years(item_window(cat, "germany", "battery:germany/75mm-battery")) == (1939, 1945)
    assert _years(item_window(cat, "japan", "infantry_team:japan/rifle-team")) == (1939, 1945)
    # an AT rifle team is not a basic team: it keeps P232's own rule, the span of its list's AT
    # rifle rows, which the Finnish list prints as "ATR" (S18 39-44?, Boys 39-42?, p102; P303)
    team = item_window(cat, "finland", "infantry_team:finland/at-rifle-team")
    assert _years(team) == (1939, 1944)


def test_an_item_its_own_lists_lost_takes_an_allied_lists_printed_window(cat):
    """P300: the US lists lost the M5A1's dates; the British lend-lease rows print 43-45 (p45)."""
    m5 = "afv:usa_europe/m5a1"
    assert row_window(cat, "usa_europe", m5) is None
    assert _years(item_window(cat, "usa_europe", m5)) == (1943, 1945)
    assert item_window(cat, "usa_pacific", m5) == row_window(cat, "britain", m5)


def test_role_teams_and_softskins_take_their_lists_windows(cat):
    """P232: an HQ team serves its list's period, an AT rifle team its list's AT rifles; P107."""
    hq = "infantry_team:germany/company-hq-team"
    assert _years(item_window(cat, "germany", hq)) == (1939, 1945)
    assert _years(item_window(cat, "poland", "infantry_team:poland/platoon-hq-team")) == (
        1939,
        1939,
    )
    rifle = cat.get("equipment", "poland/inf-wz-36-at-rifle")
    team = item_window(cat, "poland", "infantry_team:poland/at-rifle-team")
    assert _years(team) == _years(rifle.dates) == (1939, 1939)
    truck = "softskin:germany/opel-blitz-ford-g917t-medium-truck-4x2"
    assert (
        item_window(cat, "germany", truck)
        == cat.get("equipment", "germany/transport-medium-truck").dates
    )
    # the army builder sees the same window
    assert _years(ArmyCatalogue.load(()).dates(hq)) == (1939, 1945)


def test_an_item_only_dated_nodes_hold_takes_their_span(cat):
    """P234: the Crusader I CS row lost its dates and no chart stand names it; the only British
    slots naming it are dated 1941."""
    ref = "afv:britain/crusader-i-cs"
    assert row_window(cat, "britain", ref) is None
    holders = [
        o
        for o in cat.all("organisation")
        if o.nation == "britain" and ref in {s.ref for s in o.slots}
    ]
    assert holders and all(o.valid and o.valid.start for o in holders)
    assert _years(org_window(cat, "britain", ref)) == (1941, 1941)
    assert item_window(cat, "britain", ref) == org_window(cat, "britain", ref)
    # an undated holder leaves the item undated
    assert org_window(cat, "britain", "afv:britain/carrier-lmg") is None
