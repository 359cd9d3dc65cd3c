"""The web army builder in Debian's Chromium (issue 18 item 5): on a tablet, build a German force
from nothing (nation, date, a company, a duplicated platoon), watch the totals and a validation
message change, undo and redo, open the printed sheet, reload the share link in a second browser
(portrait) and a locally saved roster. Screenshots go to artifacts/."""

from __future__ import annotations

import httpx
import pytest

import infra
from kriegsspiel.server import create_app

COMPANY = "organisation:germany/infantry-company"


@pytest.fixture
def base(tmp_path):
    with infra.live_server(lambda: create_app(f"sqlite:///{tmp_path / 'army.db'}")) as url:
        yield url


def _pv(page) -> str:
    return page.inner_text("#t-pv")


def _wait_pv(page, text: str) -> None:
    """Wait until the live total reads `text` (after the server's answer was rendered)."""
    page.wait_for_function("t => document.querySelector('#t-pv')?.textContent === t", arg=text)


def test_build_a_force_print_and_share(base, browser, artifacts_dir):
    assert 'href="/army"' in httpx.get(base + "/").text, "the lobby links the builder"
    ctx = browser.new_context(viewport={"width": 1024, "height": 768})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base + "/army")
    page.wait_for_selector("body[data-ready='1']")

    page.select_option("#nation", "germany")
    page.fill("#date", "1943-06")
    page.fill("#points", "600")
    page.fill("#name", "Kampfgruppe Test")
    page.click("#new")
    _wait_pv(page, "0 / 600 PV")

    page.fill("#search", "infantry company")
    shown = page.eval_on_selector_all("#available > li .row", "rs => rs.map(r => r.dataset.entry)")
    assert COMPANY in shown and "organisation:germany/panzer-grenadier-company" not in shown
    page.click(f'#available .row[data-entry="{COMPANY}"] button.add')
    _wait_pv(page, "490 / 600 PV")
    assert page.inner_text("#t-teams") == "35 teams"
    assert "0 errors" in page.inner_text("#t-errors")

    page.fill("#search", "")
    company = page.get_attribute("#roster > li > .row", "data-path")
    rating = f'#roster .row[data-path="{company}"] select.rating'
    page.select_option(rating, "ss")  # p22 multiplier; p59 allows SS for some units only
    page.wait_for_selector("#messages li.error[data-code=rating_profile]")
    assert _pv(page) != "490 / 600 PV"
    page.select_option(rating, "")
    _wait_pv(page, "490 / 600 PV")
    page.click(f'#roster .row[data-path="{company}"] .label')  # add inside the company
    assert "inside" in page.inner_text("#target-label")
    inside = page.eval_on_selector_all("#available > li .row", "rs => rs.map(r => r.dataset.entry)")
    assert "organisation:germany/infantry-platoon" in inside
    page.select_option("#kind", "support")
    kinds = page.eval_on_selector_all(
        "#available > li > .row .tag, #available > li > details > summary .tag",
        "ts => ts.map(t => t.textContent)",
    )
    assert kinds and set(kinds) == {"support"}
    page.select_option("#kind", "")

    platoon = page.locator("#roster .row", has_text="Infantry Platoon").first
    platoon.locator("button.dup").click()
    page.wait_for_selector("#messages li.error[data-code=points_limit]")
    assert page.locator("#messages li.error[data-code=slot_max]").count() == 1
    assert _pv(page) == "636 / 600 PV" and page.get_attribute("#t-pv", "class") == "over"
    page.screenshot(path=str(artifacts_dir / "web-army-errors.png"))

    page.click("#undo")
    _wait_pv(page, "490 / 600 PV")
    assert page.locator("#messages li.error").count() == 0
    page.click("#redo")
    page.wait_for_selector("#messages li.error[data-code=points_limit]")
    page.click("#undo")
    _wait_pv(page, "490 / 600 PV")
    rows = page.locator("#roster .row").count()

    with page.expect_popup() as popup:
        page.click("#print")
    sheet = popup.value
    sheet.wait_for_url("blob:**")  # the window opens blank within the click, then the sheet
    sheet.wait_for_load_state()
    assert "Kampfgruppe Test" in sheet.content() and "Infantry Company" in sheet.inner_text("body")
    sheet.screenshot(path=str(artifacts_dir / "web-army-sheet.png"), full_page=True)

    page.click("#save")
    page.click("#share")
    link = page.input_value("#share-url")
    assert link.startswith(base + "/army#r=")
    page.screenshot(path=str(artifacts_dir / "web-army-tablet.png"))

    other = browser.new_context(viewport={"width": 768, "height": 1024})  # no shared storage
    shared = other.new_page()
    shared.on("pageerror", lambda e: errors.append(str(e)))
    shared.goto(link)
    _wait_pv(shared, "490 / 600 PV")
    assert shared.locator("#roster .row").count() == rows
    assert shared.input_value("#name") == "Kampfgruppe Test"
    assert shared.locator("#saved option").count() == 1, "the other browser has no saved roster"
    shared.screenshot(path=str(artifacts_dir / "web-army-portrait.png"), full_page=True)
    other.close()

    page.goto(base + "/army")
    page.wait_for_selector("body[data-ready='1']")
    assert _pv(page) == "0 PV"
    page.select_option("#saved", "Kampfgruppe Test")
    _wait_pv(page, "490 / 600 PV")
    assert page.locator("#roster .row").count() == rows

    page.goto(base + "/army#r=notaroster")
    page.wait_for_selector("#error:not([hidden])")
    assert "share link" in page.inner_text("#error")
    assert not errors, errors
    ctx.close()
