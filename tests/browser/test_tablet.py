"""The table on a tablet (issue 15 item 12), with touch, in Debian's Chromium: in portrait
(768x1024) the side panel is a bottom sheet whose actions are on screen without scrolling and
the move hint stays off the moving unit; in landscape (1024x768) the table keeps most of the
screen. Screenshots go to artifacts/."""

from __future__ import annotations

import httpx
import pytest

import infra
from kriegsspiel.server import create_app
from server.client import Table


@pytest.fixture
def base(tmp_path):
    with infra.live_server(lambda: create_app(f"sqlite:///{tmp_path / 'tablet.db'}")) as url:
        yield url


def open_tablet(browser, base: str, table: Table, width: int, height: int):
    ctx = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
    page = ctx.new_page()
    page.goto(table.links["germany"].replace("http://testserver", base))
    page.wait_for_selector("#table [data-unit]")
    page.wait_for_function("S.ws && S.ws.readyState === 1")
    return ctx, page


def on_screen(page, selector: str, height: int) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def overlap(a: dict, b: dict) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def to_move_step(table: Table, page) -> None:
    for _ in range(2):  # initiative, then fire: both sides end each
        table.command("germany", {"type": "end_phase"})
        table.command("usa", {"type": "end_phase"})
    page.wait_for_function("S.view.legal.some((c) => c.type === 'move')")


def test_portrait_bottom_sheet_and_hint_off_the_unit(browser, base, artifacts_dir):
    table = Table.create(httpx.Client(base_url=base))
    ctx, page = open_tablet(browser, base, table, 768, 1024)
    to_move_step(table, page)
    page.tap("[data-unit=g-panther]")
    # every action button of the selected unit and the phase's end is reachable as it is
    page.wait_for_selector("#actions button[data-unit-cmd=g-panther]")
    for b in page.locator("#actions button[data-unit-cmd=g-panther]").all():
        box = b.bounding_box()
        assert box["y"] + box["height"] <= 1024, "an action is below the screen"
    assert page.evaluate("scrollY") == 0
    assert on_screen(page, "#actions button[data-cmd=end_phase]", 1024)  # kept in the sheet
    board = page.locator("#board").bounding_box()
    assert board["height"] >= 0.45 * 1024
    page.tap("#actions button[data-unit-cmd=g-panther][data-cmd=move]")
    page.wait_for_selector("#reach")
    hint = page.locator("#hint").bounding_box()
    unit = page.locator("[data-unit=g-panther] .body").bounding_box()
    assert hint and unit and not overlap(hint, unit)
    page.screenshot(path=str(artifacts_dir / "web-tablet-portrait-move.png"))
    ctx.close()


def test_landscape_keeps_most_of_the_screen_for_the_table(browser, base, artifacts_dir):
    table = Table.create(httpx.Client(base_url=base))
    ctx, page = open_tablet(browser, base, table, 1024, 768)
    board = page.locator("#board").bounding_box()
    assert board["width"] >= 0.65 * 1024 and board["height"] >= 0.8 * 768
    assert on_screen(page, "#actions button[data-cmd=end_phase]", 768)
    page.screenshot(path=str(artifacts_dir / "web-tablet-landscape.png"))
    ctx.close()
