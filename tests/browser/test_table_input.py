"""The web table's order input in Debian's Chromium (issue 15 items 8 and 10): the reach area
drawn from the server (terrain counted), a two-leg move with an end facing previewed then
committed, undo with the other seat's consent, and a call for fire at a map point with the
battery chosen on the page. Set-up steps go over the API (as in test_table_traps.py); every
order under test is given by clicking the page. Games: qr-crossroads-armour and
qr-village-assault, seed 1."""

from __future__ import annotations

import httpx
import pytest

import infra
from browser.test_table import click_table
from browser.test_table_traps import open_seat
from kriegsspiel.server import create_app
from server.client import Table


@pytest.fixture
def base(tmp_path):
    with infra.live_server(lambda: create_app(f"sqlite:///{tmp_path / 'input.db'}")) as url:
        yield url


def end_until(table: Table, step: str) -> None:
    """End steps over the API until the game's step starts with `step`."""
    while not table.view("umpire")["game"]["step"].startswith(step):
        side = table.view("umpire")["active"][0]
        table.command(side, {"type": "end_phase"})


def events(table: Table) -> int:
    return table.view("umpire")["game"]["events"]


def start_move(page, unit: str) -> None:
    page.click(f"#actions button[data-cmd=move][data-unit-cmd={unit}]")
    page.wait_for_selector("#reach .reach-cell")


def test_a_tap_beyond_the_terrain_cost_is_not_offered(browser, base):
    # trap (main): the circle of the full half-move (5") ignored the ridge's x0.75, so a tap
    # 4.5" away inside it was sent and refused ("may move 3.8"")
    table = Table.create(httpx.Client(base_url=base))
    end_until(table, "1/move_a1")
    ctx, page, errors = open_seat(browser, base, table, "germany")
    start_move(page, "g-panther")
    cells = page.evaluate("S.pending.reach.cells")
    assert cells and max(((x - 15) ** 2 + (y - 23) ** 2) ** 0.5 for x, y in cells) <= 3.75
    before = events(table)
    click_table(page, 19.5, 23.5)
    page.wait_for_function("document.querySelector('#toast').textContent.includes('cannot reach')")
    assert events(table) == before  # nothing was sent
    assert page.locator("#move-path").count() == 0
    assert not errors
    ctx.close()


def test_a_two_leg_move_with_an_end_facing_is_previewed_and_accepted(browser, base, artifacts_dir):
    table = Table.create(httpx.Client(base_url=base))
    end_until(table, "1/move_a1")
    ctx, page, errors = open_seat(browser, base, table, "germany")
    start_move(page, "g-pz4b")  # at (31, 28), open ground
    click_table(page, 31.5, 25.5)
    page.wait_for_selector("#move-legs li")
    click_table(page, 33.5, 25.5)
    page.wait_for_selector("#move-legs li[data-leg='1']")
    page.select_option("#move-facing", "90")
    page.wait_for_function("S.pending.preview && S.pending.preview.facing === 90")
    cost = page.inner_text("#move-cost")
    assert "of 5.0" in cost and "uses 4.5" in cost, cost
    page.screenshot(path=str(artifacts_dir / "web-two-leg-move.png"))
    page.click("#move-commit:not([disabled])")
    page.wait_for_function("S.view.units.find((u) => u.id === 'g-pz4b').x === 33.5")
    pz = next(u for u in table.view("germany")["units"] if u["id"] == "g-pz4b")
    assert (pz["x"], pz["y"], pz["facing"]) == (33.5, 25.5, 90)
    assert not errors
    ctx.close()


def test_undo_with_the_other_seats_consent_in_two_browsers(browser, base):
    table = Table.create(httpx.Client(base_url=base))
    end_until(table, "1/fire_all")
    ctx_g, ger, ger_err = open_seat(browser, base, table, "germany")
    ctx_u, usa, usa_err = open_seat(browser, base, table, "usa")
    ger.click("[data-unit=g-panther]")
    ger.click("[data-unit=u-m4a]")
    ger.click("#odds #confirm")
    ger.wait_for_function("!S.view.legal.some((c) => c.unit === 'g-panther')")
    # the shot rolled dice: under the default policy (consent) the undo is a request
    ger.click("#undo")
    ger.wait_for_selector("#undo-waiting")
    usa.wait_for_selector("#undo-accept")
    assert "asks to undo" in usa.inner_text("#undo-asked")
    usa.click("#undo-accept")
    ger.wait_for_function("S.view.legal.some((c) => c.unit === 'g-panther')")
    for page in (ger, usa):
        page.wait_for_function("S.view.log.some((e) => e.type === 'undo')")
        assert "undo" in page.inner_text("#log")
    assert not [e for e in table.get("germany", "log").json() if e["type"] == "fire"]
    assert not (ger_err or usa_err)
    ctx_g.close()
    ctx_u.close()


def british_advance(table: Table, until, walkers=("b-fo", "b-coy", "b-sq6", "b-sq5")) -> None:
    """qr-village-assault, seed 1, over the API: British units walk (each to its reach cell
    nearest (31, 30)) and every other step is ended, until `until(umpire view)` holds."""
    while True:
        view = table.view("umpire")
        side = view["active"][0]
        if until(view):
            return
        if view["phase"].startswith("move") and side == "britain":
            for uid in walkers:
                cells = table.get("britain", f"reach/{uid}").json()["cells"]
                best = min(cells, key=lambda c: (c[0] - 31) ** 2 + (c[1] - 30) ** 2)
                table.command("britain", {"type": "move", "unit": uid, "path": [best]})
        table.command(side, {"type": "end_phase"})


def test_a_call_for_fire_names_observer_and_battery_and_takes_a_map_point(browser, base):
    # traps (main): the plot step ended by itself unless an observer saw an enemy, and then
    # offered unlabelled "call fire" buttons with the first battery only, aimed at that enemy;
    # here, in turn 1 with no German seen, the FO chooses the second battery and a map point
    table = Table.create(httpx.Client(base_url=base), "qr-village-assault")
    end_until(table, "1/arty_plot")
    assert table.view("britain")["enemies"] == []
    ctx, page, errors = open_seat(browser, base, table, "britain")
    page.click("#actions button[data-cmd=call_fire][data-observer=b-fo]")
    options = page.locator("#arty-battery option").all_inner_texts()
    assert options == ["Light Gun (4 missions left)", "Medium Mortar (3 missions left)"]
    page.select_option("#arty-battery", "medium-mortar")
    click_table(page, 25, 20)  # behind the hedge: the FO cannot see it, so no Commit
    page.wait_for_selector("#arty-refused")
    assert "cannot see the aim point" in page.inner_text("#arty-refused")
    assert page.locator("#arty-commit[disabled]").count() == 1
    click_table(page, 28, 12)  # open field the FO sees
    page.click("#arty-commit:not([disabled])")
    page.wait_for_function("S.view.log.some((e) => e.type === 'call_fire')")
    # the call is made (whether it gets through is the call's own roll, sheet L4)
    m = next(e["data"] for e in table.get("britain", "log").json() if e["type"] == "call_fire")
    assert (m["observer"], m["battery"]) == ("b-fo", "medium-mortar")
    assert abs(m["x"] - 28) <= 0.2 and abs(m["y"] - 12) <= 0.2  # the tap, to a tenth
    assert not errors
    ctx.close()


def test_a_fire_group_is_formed_on_the_page_and_priced_before_commit(browser, base):
    # trap (main): one unit per shot; the rules' fire groups (sheet L2) were out of reach
    table = Table.create(httpx.Client(base_url=base), "qr-village-assault")
    walkers = ("b-fo", "b-coy", "b-sq6", "b-sq5", "b-churchill")
    british_advance(table, lambda v: v["game"]["step"].startswith("3/fire_suppressive"), walkers)
    ctx, page, errors = open_seat(browser, base, table, "germany")
    page.click("[data-unit=g-hmg] .body", force=True)
    page.click("[data-unit=b-sq5] .body", force=True)  # 5 and 6 Section share a spot
    page.wait_for_selector("#fire-group input[data-partner=g-sq1]")
    assert "(suppressive)" in page.inner_text("#orders")
    alone = page.inner_text("#odds .bars")
    page.check("#fire-group input[data-partner=g-sq1]")
    page.wait_for_function("S.pending && S.pending.cmd.units && S.pending.odds")
    assert page.inner_text("#odds .bars") != alone  # the group's odds, not the MG's alone
    page.click("#odds #confirm")
    page.wait_for_function("!S.view.legal.some((c) => c.unit === 'g-sq1')")
    fire = [e for e in table.get("germany", "log").json() if e["type"] == "fire"][-1]
    assert fire["data"]["firers"] == ["g-hmg", "g-sq1"]
    assert fire["data"]["target"] in ("b-sq5", "b-sq6")
    assert not errors
    ctx.close()
