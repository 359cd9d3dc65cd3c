"""The phase A order sheet of an aircraft in a real Chromium page (issue 19 item 6): heading and
altitude beside the point; a heading out of range is refused by the page beside its field and
nothing is sent; the scenario's prepared strike makes the server refuse a second one, shown on
the sheet, until the sheet's own button cancels it; the point is picked on the table; the
written strike shows on the writer's sheet with its turn, heading and altitude, and never on
the other side's page (P170-P171).
Game: pf-test-support (the German FAC's Stuka), seed 3."""

from __future__ import annotations

import httpx

from browser.test_panzerfaust_table import base, tap  # noqa: F401  (fixture)
from browser.test_pf_full_battle import served  # noqa: F401  (fixture)
from browser.test_table import open_seat
from server.client import Table

CLEAR = (140.0, 60.0)  # open ground: no element or marker takes the tap


def test_an_aircraft_order_is_written_on_its_sheet(browser, base, artifacts_dir):  # noqa: F811
    table = Table.create(httpx.Client(base_url=base, timeout=60), "pf-test-support", seed=3)
    _, de, de_errors = open_seat(browser, table.links["germany"])
    _, gb, gb_errors = open_seat(browser, table.links["britain"])
    de.wait_for_selector("#pf-sheets .pf-sheet[data-sheet=stuka] button[data-write]")
    sheet = de.locator("#pf-sheets .pf-sheet[data-sheet=stuka]")

    before = de.evaluate("S.view.game.events")
    sheet.locator("input[data-field=heading]").fill("400")
    sheet.locator("button[data-write]").click()
    assert "from 0 to 359" in sheet.locator("[data-error=heading]").inner_text()
    assert de.evaluate("S.view.game.events") == before  # the page sent nothing

    sheet.locator("input[data-field=heading]").fill("90")
    sheet.locator("select[data-field=altitude]").select_option("medium")
    sheet.locator("button[data-pick]").click()
    tap(de, *CLEAR)
    x = float(sheet.locator("input[data-field=x]").input_value())
    y = float(sheet.locator("input[data-field=y]").input_value())
    assert abs(x - CLEAR[0]) <= 0.5 and abs(y - CLEAR[1]) <= 0.5  # a tap lands within a pixel
    # the pick re-drew the sheet: the heading and altitude typed before it are kept
    assert sheet.locator("input[data-field=heading]").input_value() == "90"
    sheet.locator("button[data-write]").click()  # the prepared strike (turn 2) stands
    sheet.locator("[data-error=sheet]").wait_for()
    assert "cancel it first" in sheet.locator("[data-error=sheet]").inner_text()
    assert de.evaluate("S.view.game.events") == before
    assert "(90, 22)" in sheet.locator("[data-order=stuka]").inner_text()
    sheet.locator("button[data-withdraw=stuka]").click()
    de.wait_for_function("n => S.view.game.events > n", arg=before)
    sheet.locator("[data-order=stuka]").wait_for(state="detached")
    before = de.evaluate("S.view.game.events")
    # the cancel re-drew the sheet; the typed fields are still there
    assert sheet.locator("input[data-field=heading]").input_value() == "90"
    sheet.locator("button[data-write]").click()
    try:
        de.wait_for_function("n => S.view.game.events > n", arg=before, timeout=10000)
    except Exception:
        raise AssertionError(sheet.inner_text() + " | " + de.inner_text("#toast")) from None
    order = de.locator("#pf-sheets [data-order=stuka]")
    order.wait_for()
    text = order.inner_text()
    assert f"({x:g}, {y:g})" in text and "heading 90°" in text and "medium" in text
    de.screenshot(path=str(artifacts_dir / "pf-A-air-sheet.png"))

    # the British page has no sheet for the Stuka and no trace of its point (its briefing
    # names the aircraft: that is public)
    gb.reload()
    gb.wait_for_selector("#table [data-unit]")
    assert gb.locator("[data-sheet=stuka]").count() == 0
    view = gb.evaluate("JSON.stringify(S.view)")
    assert f"{x:g}" not in view and f"{x:g}" not in gb.inner_text("body")
    assert not (de_errors or gb_errors), de_errors + gb_errors


def test_the_exit_goal_is_on_the_phase_bar(browser, served):  # noqa: F811
    """p5 breakthrough, P258: the attacker's page shows its exit progress on the phase bar; the
    defender's shows the attacker's goal and nothing of its progress. Game: pf-cobra-breakthrough."""
    url, _ = served
    table = Table.create(httpx.Client(base_url=url, timeout=60), "pf-cobra-breakthrough", seed=1)
    _, us, us_errors = open_seat(browser, table.links["usa"])
    _, de, de_errors = open_seat(browser, table.links["germany"])
    own = us.locator("#phase [data-exit=usa]").inner_text()
    assert own.startswith("your exit by the north edge") and "so far" in own, own
    theirs = de.locator("#phase [data-exit=usa]").inner_text()
    assert (
        theirs.startswith("usa's exit") and "hidden from you" in theirs and "so far" not in theirs
    )
    assert not (us_errors or de_errors), us_errors + de_errors
