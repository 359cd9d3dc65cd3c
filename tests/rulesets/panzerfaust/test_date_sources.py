"""In-service windows the seed lost, from a cited chart (issue 16 item 5, decision P113).

`sources/dates.yaml` holds, per AFV or gun chart record, the Command Decision: Test of Battle stand
(SpaceCudet/ChartGenerator) naming the same vehicle or gun and its printed two-digit year. These
tests check that file against stands typed here from the chart files, the windows written into the
equipment rows, the rows left alone, and the whole data against the script.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
from pathlib import Path

import pytest

from kriegsspiel.data import Provenance
from kriegsspiel.rulesets.panzerfaust.sources.dates import load_sources, window
from kriegsspiel.rulesets.panzerfaust.windows import item_window, row_window, rowless_window

ROOT = Path(__file__).resolve().parents[3]
COMMIT = "db7f1c527972c7cb1f2e1e6c567e4b5a40e40ae0"

# (equipment row, chart record, chart file, stand as printed, printed year, window start)
SPOT = [
    ("germany/afv-pz-iv-g-j", "afv:germany/pz-iv-ausf-g-j", "germany/tanks.js",
     "Panzer IV g (late) and Panzer IVh", "43", 1943),
    ("germany/afv-stug-iii-g", "afv:germany/stug-iii-g", "germany/assaultguns.js",
     "StuG III  G", "42", 1942),
    ("germany/gun-75mm-l46-pak-40", "gun:germany/75mm-l46-pak-40", "germany/artillery.js",
     "7.5cm PAK 40", "42", 1942),
    # 1927: before the book's 1930-1946 scale, so the window opens in 1930
    ("germany/gun-75mm-l12-ig-18", "gun:germany/75mm-l12-ig-18", "germany/artillery.js",
     "7.5cm leIG 18", "27", 1930),
    ("ussr/afv-t-34-76-m1943", "afv:ussr/t-34-76-m1943", "ussr/tanks.js", "T-34 M 1943", "42", 1942),
    ("ussr/afv-kv-1s", "afv:ussr/kv-1s", "ussr/tanks.js", "KV-1S Heavy tank", "42", 1942),
    ("ussr/afv-su-76", "afv:ussr/su-76", "ussr/spg.js", "SU-76", "43", 1943),
    ("britain/afv-churchill-i", "afv:britain/churchill-i", "uk/tanks.js", "Churchill Mark I", "42", 1942),
    ("britain/afv-cromwell-iv", "afv:britain/cromwell-iv", "uk/tanks.js", "Cromwell Mark IV", "44", 1944),
    ("britain/afv-archer", "afv:britain/archer", "uk/spgs.js", "Archer SP 17 pdr", "44", 1944),
    ("usa_europe/afv-m4-75", "afv:usa_europe/m4", "us/tanks.js",
     "M4 Sherman (75mm) tank (early)", "42", 1942),
    ("usa_europe/afv-m18-gmc-hellcat", "afv:usa_europe/m18-gmc-hellcat", "us/spgs.js",
     'M18 GMC "Hellcat"', "44", 1944),
    ("italy/afv-m13-40", "afv:italy/m13-40", "italy/tanks.js", "M13/40", "40", 1940),
    ("italy/afv-semovente-m40-75-18", "afv:italy/semovente-m40-75-18", "italy/spgs.js",
     "Semovente M 40 da 75/18", "41", 1941),
    ("italy/gun-47mm-l32-47-32", "gun:italy/47mm-l32-47-32", "italy/artillery.js",
     "47/32 M35 AT", "36", 1936),
    ("italy/afv-lancia-izm", "afv:italy/lancia-izm", "italy/transports.js", "AB Lancia 1Zm", "17", 1930),
    ("poland/afv-7tp-jw", "afv:poland/7tp-jw", "poland/tanks.js", "7TPjw", "37", 1937),
    ("poland/afv-tk-tks", "afv:poland/tk-tks", "poland/tanks.js", "TKS", "34", 1934),
    ("poland/afv-ursus-wz-29", "afv:poland/ursus-wz-29", "poland/transports.js", "Wz.29 Ursus", "29", 1930),
    # second pass: stands that name the record's own model
    ("britain/afv-a13-ii-cruiser", "afv:britain/a13-ii-cruiser", "uk/tanks.js",
     "A-13 Cruiser Mark IV", "37", 1937),
    ("ussr/afv-t-70a", "afv:ussr/t-70a", "ussr/scouttanks.js", "T-80 light tank (T-70A)", "43", 1943),
    ("ussr/rocket-m-13", "battery:ussr/m-13-rocket", "ussr/spg.js", "BM-13 MRL", "41", 1941),
    ("germany/transport-sdkfz-10-4", "motorised_gun:germany/sdkfz-10-4-lt-aa-h-track",
     "germany/spg.js", "SdKfz 10/4", "39", 1939),
    ("italy/trk-autocannone-90-53", "motorised_gun:italy/autocannone-90-53", "italy/spgs.js",
     "AC 90/53", "41", 1941),
    # third pass (P113): stands found by reading every stand name of the chart files
    ("ussr/afv-kv-1e", "afv:ussr/kv-1e", "ussr/tanks.js", "KV-1 M 1940 S heavy tank", "41", 1941),
    ("italy/afv-carro-commando-m41", "afv:italy/carro-commando-m41", "italy/tanks.js",
     "M13 Carro Cmnd", "41", 1941),
    ("germany/gun-20-28mm-spzb-41", "gun:germany/28mm-l61-spzb-41", "germany/personnel.js",
     "SPzBchs 41", "41", 1941),
    # a one-figure year as the file prints it: 1907, before the book's scale
    ("italy/gun-75mm-l30-75-27", "gun:italy/75mm-l30-75-27", "italy/artillery.js",
     "75/27 M06 Gun", "7", 1930),
    ("ussr/afv-ot-130", "afv:ussr/ot-130", "ussr/engineeringtanks.js", "OT-130 tank", "33", 1933),
    # a US Pacific row lists the US Army's record: the same army, the same window
    ("usa_pacific/afv-m4-75", "afv:usa_europe/m4", "us/tanks.js",
     "M4 Sherman (75mm) tank (early)", "42", 1942),
]  # fmt: skip


@pytest.mark.parametrize(("row_id", "item", "path", "stand", "year", "start"), SPOT)
def test_spot_check_against_the_chart_file(cat, row_id, item, path, stand, year, start):
    entry = next(e for e in load_sources()["items"] if e["item"] == item)
    assert (entry["path"], entry["name"], entry["year"]) == (path, stand, year)
    row = cat.get("equipment", row_id)
    assert row.item_ref == item and row.dates.raw == ""  # the printed dates were lost
    # P231: the Polish list prints no year after 1939 (p105-106), so its open ends stop there
    end = 1939 if row_id.startswith("poland/") else 1945
    assert (row.dates.start.year, row.dates.end.year) == (start, end)
    first, last = row.prov_entry("dates.start"), row.prov_entry("dates.end")
    assert first.provenance is Provenance.HISTORICAL
    assert first.ref == f"SpaceCudet/ChartGenerator@{COMMIT}:{path}"
    assert first.note.startswith("P113") and stand in first.note
    if end == 1945:
        assert last.provenance is Provenance.PLACEHOLDER and last.note.startswith("P113")
    else:
        assert last.provenance is Provenance.SEED_INFERRED and last.note.startswith("P231")


def test_window_clamps_early_years_and_keeps_late_ones():
    assert window({"path": "x.js", "name": "old", "year": "17"})["start"]["value"] == {"year": 1930}
    assert window({"path": "x.js", "name": "new", "year": "45"})["start"]["value"] == {"year": 1945}


def test_printed_and_foreign_rows_are_left_alone(cat):
    # Finland's Pz IV H row prints its own window (44?); Germany's and Finland's captured T-34 rows
    # list a Soviet record but are not the Red Army's: no Soviet start year is imposed on them
    assert cat.get("equipment", "finland/afv-pz-iv-h").dates.raw == "44?"
    assert cat.get("equipment", "germany/afv-t-34-76-second-model").dates is None
    assert cat.get("equipment", "finland/afv-t-34-76-b").dates is None
    # a row whose dates the seed prints keeps them (Britain's lend-lease M4 row: 42-45?)
    assert cat.get("equipment", "britain/ll-m4-75").dates.raw == "42-45?"


def test_every_source_item_is_a_chart_record(cat):
    for entry in load_sources()["items"]:
        assert cat.resolve(entry["item"]) is not None, entry["item"]
        assert entry["year"].isdigit() and len(entry["year"]) <= 2, entry


def test_the_script_reproduces_every_window():
    spec = importlib.util.spec_from_file_location("pf_dates", ROOT / "scripts/pf_dates.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.main(check=True) == 0


def test_lee_ends_with_the_books_last_year_for_the_grant(cat):
    """Decision P116: the US list's one M3 Lee row (Early and Late, p89) lost its dates; the book
    dates the same tank 42-43? in British service (p45), so the window ends in 1943, not in P113's
    open 1945 (a 1944 US tank platoon no longer takes a Lee)."""
    for entry in load_sources()["items"]:
        if "last" not in entry:
            continue
        printed = cat.get("equipment", entry["last"]["row"])
        assert printed.dates.end.year == entry["last"]["year"]
        assert printed.dates.raw in entry["last"]["printed"]
    for row_id in ("usa_europe/afv-m3-lee-early", "usa_europe/afv-m3-lee-late"):
        row = cat.get("equipment", row_id)
        assert (row.dates.start.year, row.dates.end.year) == (1942, 1943)
        assert row.prov("dates.end") is Provenance.SEED_INFERRED
        assert row.prov_entry("dates.end").note.startswith("P116")
        assert row.prov("dates.start") is Provenance.HISTORICAL


# Decision P303: (equipment row, source file, phrase typed here from the file, start, end)
WT = "natgo/wt-wiki-scraper"
OUTSIDE = [
    ("ussr/afv-is-3", f"{WT}@084cf8637ff248d4e15a19ba2551194ffec52db6:wikitext-transpiled/ground/IS-3.md",
     "Production for the IS-3 started in 1945", 1945, 1945),
    ("ussr/afv-t-26e", f"{WT}@4d7b6df04cfe89ade9b11ae1fed499906ec7eed8:wikitext-transpiled/ground/T-26E.md",
     "On 30 December 1939, firing tests were carried out on the first up-armoured T-26", 1940, 1943),
]  # fmt: skip


@pytest.mark.parametrize(("row_id", "ref", "phrase", "start", "end"), OUTSIDE)
def test_outside_windows_rest_on_the_files_text(cat, row_id, ref, phrase, start, end):
    row = cat.get("equipment", row_id)
    assert row.dates.raw == "" and (row.dates.start.year, row.dates.end.year) == (start, end)
    first = row.prov_entry("dates.start")
    assert first.provenance is Provenance.HISTORICAL and first.ref == ref
    assert first.note.startswith("P303") and phrase in first.note
    entry = next(e for e in load_sources()["outside"] if e["item"] == row.item_ref)
    assert entry["quote"] == phrase


def test_t26e_ends_where_the_file_last_sees_it_in_service(cat):
    last = cat.get("equipment", "ussr/afv-t-26e").prov_entry("dates.end")
    assert last.provenance is Provenance.HISTORICAL
    assert "remained in service on the Leningrad front until 1943" in last.note


# Decision P301: (row, page, start) the book's own notes date (checked against the seed's page)
NOTES = [
    ("japan/afv-type-89b-chi-ro", 78, "B (1936)", 1936),
    ("ussr/afv-is-2m", 84, "mid-1944", 1944),
    ("britain/afv-humber-otter-lrc", 48, "production in 1940", 1940),
    ("japan/afv-type-97-special", 78, "as of 1942", 1942),
    ("usa_europe/afv-m4a3-late", 92, "entered production from February 1944", 1944),
]


@pytest.mark.parametrize(("row_id", "page", "printed", "start"), NOTES)
def test_notes_windows_are_the_books_own_years(cat, row_id, page, printed, start):
    seed = ROOT.parent / "shared/seeds/000_74e73e3716f2a7dc.txt"
    if seed.exists():  # file line = 2 x page + 3 (seeds README)
        line = seed.read_text(encoding="utf-8").splitlines()[2 * page + 2]
        assert printed in line
    row = cat.get("equipment", row_id)
    assert row.dates.start.year == start
    assert row.prov("dates.start") is Provenance.SEED_INFERRED
    assert row.prov_entry("dates.start").note.startswith(f"P301: p{page} ")


def test_a_gun_held_since_the_first_war_serves_the_whole_list(cat):
    """P301: the Rumanian 75/76mm Krupps came from WWI reparations (p110): the list's 1939-1945."""
    row = cat.get("equipment", "rumania/gun-75-76mm-l30-krupps")
    assert (row.dates.start.year, row.dates.end.year) == (1939, 1945)
    assert row.prov("dates.end") is Provenance.SEED_INFERRED


def test_versions_take_their_models_window(cat):
    """P302: the armoured Sdkfz 7/1 is the 7/1 with an armoured cab (p60); the 'Modified' T-34
    m1942 the m1942 with a welded plate (p84); each takes its model's window, an open end stays
    the model's placeholder."""
    for version, model in (
        ("germany/transport-sdkfz-7-1-armored", "germany/transport-sdkfz-7-1"),
        ("ussr/afv-t-34-76-m1942-modified", "ussr/afv-t-34-76-m1942"),
        ("ussr/afv-kv-2-early", "ussr/afv-kv-2"),
    ):
        v, m = cat.get("equipment", version), cat.get("equipment", model)
        assert (v.dates.start.year, v.dates.end.year) == (m.dates.start.year, m.dates.end.year)
        assert v.prov_entry("dates.start").note.startswith("P302")
        assert v.prov("dates.end") is m.prov("dates.end")


CHART_MIRROR = ROOT.parent / ".mirror/SpaceCudet+ChartGenerator/repo"


@pytest.mark.skipif(not CHART_MIRROR.exists(), reason="no local copy of the chart repository")
def test_every_stand_reads_so_in_the_chart_file():
    """Each P113 entry against the cited file itself, at the cited commit: a stand of that name
    (blanks around it as printed, quotes escaped as in the file) carries that year."""
    texts: dict[str, str] = {}
    for entry in load_sources()["items"]:
        path = entry["path"]
        if path not in texts:
            texts[path] = subprocess.run(
                ["git", f"--git-dir={CHART_MIRROR}", "show", f"{COMMIT}:{path}"],
                capture_output=True, check=True,
            ).stdout.decode("latin-1")  # fmt: skip
        stand = re.compile(
            r'"name": "\s*'
            + re.escape(entry["name"].replace('"', '\\"'))
            + r'\s*",\s*"class": "[^"]*",\s*'
            r'"move": "[^"]*",\s*"def": "[^"]*",\s*"year": "' + entry["year"] + '"'
        )
        assert stand.search(texts[path]), entry


def test_items_no_row_names_take_the_sources_window_at_load(cat):
    """P303 (c): the Rolls Royce (no equipment row, p46-49) takes its chart stand's window (1924:
    from 1930); the French FCM36 its one-campaign list's period (P230); the Botond 38M its
    designation's year (P233); the Morris CS8 the British light truck class row, its class printed
    "Light 15cwt Truck" (P107)."""
    assert row_window(cat, "britain", "afv:britain/rolls-royce") is None
    windows = {
        ("britain", "afv:britain/rolls-royce"): (1930, 1945),
        ("france", "afv:france/fcm36"): (1939, 1940),
        ("hungary", "softskin:hungary/botond-38m"): (1938, 1945),
        ("britain", "softskin:britain/morris-cs8-bedford-mw-15cwt"): (1939, 1945),
    }
    for (nation, ref), years in windows.items():
        w = item_window(cat, nation, ref)
        assert (w.start.year, w.end.year) == years, ref
    # a foreign army's record is never dated by the sources of its maker at load
    assert (
        rowless_window(
            cat, "germany", "afv:britain/rolls-royce", cat.resolve("afv:britain/rolls-royce")
        )
        is None
    )


# Decision P323: (row, page address, phrase of the page, start, end or None for the open end)
WEB = [
    ("britain/afv-lynx-scout-car", "http://www.canadian-register.co.uk/lynx.html",
     "Production began in 1942", 1942, None),
    ("germany/afv-marder-i", "http://piglix.com/piglix/Marder_I", "In service | 1942–1944", 1942, 1944),
    ("italy/afv-ab40", "https://fanyv88.com:443/https/wn.com/Ab_41", "The first AB 40s were delivered in March 1941",
     1941, None),
    ("usa_europe/afv-m4a1-m21-mortar-car", "https://www.flamesofwar.com/Default.aspx?tabid=53&art_id=1395",
     "in North Africa in 1942", 1942, None),
    ("germany/gun-42mm-pak-41", "https://pedia.3rd-in.co.jp/wiki/4.2cm%20lePak41", "1941年", 1941, None),
]  # fmt: skip


@pytest.mark.parametrize(("row_id", "url", "phrase", "start", "end"), WEB)
def test_web_page_windows_keep_their_address_and_phrase(cat, row_id, url, phrase, start, end):
    row = cat.get("equipment", row_id)
    first = row.prov_entry("dates.start")
    assert row.dates.start.year == start and first.provenance is Provenance.HISTORICAL
    assert (
        first.ref == url and first.note.startswith("P323: the page says") and phrase in first.note
    )
    last = row.prov_entry("dates.end")
    if end is None:  # the page gives no last year: open, and says so
        assert row.dates.end.year == 1945 and last.provenance is Provenance.PLACEHOLDER
    else:
        assert row.dates.end.year == end and last.provenance is Provenance.HISTORICAL


# Decision P323: the book names the item as the same vehicle or weapon as a dated row of its list
SAME = [
    (
        "ussr/afv-su-122-kv",
        "ussr/afv-su-152",
        85,
        "identical to the SU-152 except mounting a 122mm",
    ),
    ("italy/gun-20mm-l105-s18", "italy/inf-s18-atr-team", 74, "20mm L105 Solothurn s18"),
]


@pytest.mark.parametrize(("row_id", "model", "page", "printed"), SAME)
def test_the_same_weapon_takes_the_dated_rows_window(cat, row_id, model, page, printed):
    seed = ROOT.parent / "shared/seeds/000_74e73e3716f2a7dc.txt"
    if seed.exists():
        assert printed in seed.read_text(encoding="utf-8").splitlines()[2 * page + 2]
    row, twin = cat.get("equipment", row_id), cat.get("equipment", model)
    assert (row.dates.start.year, row.dates.end.year) == (
        twin.dates.start.year,
        twin.dates.end.year,
    )
    assert row.prov("dates.start") is Provenance.SEED_INFERRED
    assert row.prov_entry("dates.start").note.startswith(f"P323: p{page} notes")


def test_undated_marks_take_a_placeholder_that_says_so(cat):
    """P323: no source at hand dates the Valentine IX-X and XI, a towed 105/25 or the IG 37: each
    takes a documented stand-in window, `placeholder` at the start, the method in the note."""
    expected = {
        "britain/afv-valentine-ix-x": (1941, "the window of afv:britain/valentine-i-vii"),
        "britain/afv-valentine-xi": (1941, "the window of afv:britain/valentine-i-vii"),
        "italy/gun-105mm-l25-105-25": (1943, "the window of afv:italy/semovente-m43-105-25"),
        "germany/gun-75mm-l22-ig-37": (1944, "Volksgrenadier infantry gun platoon"),
    }
    for row_id, (start, method) in expected.items():
        row = cat.get("equipment", row_id)
        first = row.prov_entry("dates.start")
        assert row.dates.start.year == start and first.provenance is Provenance.PLACEHOLDER
        assert first.note.startswith("P323: placeholder") and method in first.note
        assert row.prov("dates.end") is Provenance.PLACEHOLDER
