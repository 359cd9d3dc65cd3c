"""The information a player needs at the web table (issue 15 item 9) and the spectator's view
(item 11), in Debian's Chromium. Each test fails on the table before this work: no card data,
no scale bar, legend, briefing, ruler or sight check, overlapping labels, no spectator modes."""

from __future__ import annotations

import httpx

from server.client import Table, hidden_enemies, leaks

from . import test_table
from .test_table import click_table, log_count, open_seat

base = test_table.base  # the live server fixture, shared


def open_page(browser, link: str, ready: str = "#table [data-unit]"):
    ctx, page, errors = open_seat(browser, link, ready)
    page.wait_for_function("S.ws && S.ws.readyState === 1")
    return ctx, page, errors


def test_card_scale_legend_briefing_ruler_and_sight(browser, base, artifacts_dir):
    table = Table.create(httpx.Client(base_url=base))
    ctx, page, errors = open_page(
        browser, table.links["germany"].replace("http://testserver", base)
    )
    # the log in plain words: the phase's title, the roll-off says who wins it
    log = page.inner_text("#log")
    assert "turn 1: Initiative" in log and "higher wins" in log
    words = "outcomeWords({winner: null, reason: 'turn limit reached'})"  # a draw, in words
    assert page.evaluate(words) == "a draw (turn limit reached)"
    # the unit card: the chart row (sheet L1) beside the state
    page.click("[data-unit=g-panther]")
    card = page.wait_for_selector(".info-card[data-card=g-panther]")
    text = card.inner_text()
    assert "front 15, side and rear 6" in text and "short ≤21″: hit 8, pen 16" in text
    assert "HE 6" in text and "moves up to 10.0″" in text
    # a seen enemy's card: its chart row, never its hidden state
    seen = table.view("germany")["enemies"][0]["id"]
    page.evaluate(f"S.selected = '{seen}'; renderAll()")
    assert (
        "state is not known" in page.wait_for_selector(f".info-card[data-card={seen}]").inner_text()
    )
    # the scale bar in the table's unit, and the legend of what is on the table
    assert page.text_content("#scale-bar text") == "6″"
    page.click("#legend summary")
    legend = page.inner_text("#legend")
    assert "woods" in legend and "wreck of a vehicle" in legend and "inches" in legend
    # the briefing: victory, turn limit, special rules, what side A means; own forces only
    page.click("#briefing summary")
    page.wait_for_selector("#briefing .side")
    brief = page.inner_text("#briefing")
    assert "turn limit 8" in brief and "side A:" in brief and "Panther 311" in brief
    assert "Sherman" not in brief
    # the ruler measures and gives no order: the log does not grow, nothing moves
    n = log_count(page)
    page.click("#tool-ruler")
    click_table(page, 10, 10)
    click_table(page, 13, 14)
    length = page.text_content("#ruler-length")  # a 3-4-5 triangle, to the pixel's tenth
    assert length.endswith("″") and abs(float(length[:-1]) - 5.0) <= 0.15, length
    assert f"Distance: {length}" in page.inner_text("#tool-answer")
    page.click("#tool-ruler")  # off again
    # can the Panther see there? The server answers from terrain and the Panther alone
    page.click("[data-unit=g-panther]")
    page.click("#tool-sight")
    click_table(page, 15, 20)
    page.wait_for_selector("#sight-line.yes")
    assert "Panther 311 can see" in page.inner_text("#tool-answer")
    click_table(page, 10, 10)
    page.wait_for_selector("#sight-line.no")
    assert "cannot see" in page.inner_text("#tool-answer")
    assert "woods there is seen only within 10" in page.inner_text("#tool-answer")
    assert log_count(page) == n
    assert page.evaluate("S.view.units.find((u) => u.id === 'g-panther').x") == 15
    page.screenshot(path=str(artifacts_dir / "web-table-info.png"))
    # none of it named a unit Germany does not see
    assert not leaks(page.content(), hidden_enemies(table, "germany"))
    assert not errors
    ctx.close()


def test_unit_labels_do_not_overlap(browser, base, artifacts_dir):
    """The British HQ, FO and Churchill start 2" apart (qr-village-assault): their names
    would print over each other."""
    table = Table.create(httpx.Client(base_url=base), "qr-village-assault")
    ctx, page, errors = open_page(
        browser, table.links["britain"].replace("http://testserver", base)
    )
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('#table g.unit > text.name')].map((t) => {
            const b = infoLabelBox(t); return [t.textContent, b, t.dataset.moved || null]; })"""
    )
    assert len(boxes) >= 8 and any(moved for _, _, moved in boxes)  # some had to move
    for i, (name_a, a, _) in enumerate(boxes):
        for name_b, b, _ in boxes[i + 1 :]:
            apart = (
                a["right"] <= b["left"]
                or b["right"] <= a["left"]
                or a["bottom"] <= b["top"]
                or b["bottom"] <= a["top"]
            )
            assert apart, (name_a, name_b)
    page.screenshot(path=str(artifacts_dir / "web-table-labels.png"))
    assert not errors
    ctx.close()


def test_spectator_public_then_delayed_full_view(browser, base, artifacts_dir):
    http = httpx.Client(base_url=base)
    r = http.post(
        "/api/games",
        json={"scenario": "qr-crossroads-armour", "seed": 3, "options": {"spectator_delay": 1}},
    )
    body = r.json()
    table = Table(http, body["id"], {s["seat"]: s["token"] for s in body["seats"]}, {})
    hidden = [u for side in table.sides for u in hidden_enemies(table, side)]
    assert hidden  # the StuG starts hidden from the Americans
    ctx, page, errors = open_page(browser, body["spectator"], "#spectator-mode")
    banner = page.inner_text("#spectator-mode")
    assert "public information only" in banner and "from turn 2" in banner
    # no live piece at all: not what a side hides, nor what it sees of the other
    assert page.locator("#table [data-unit]").count() == 0
    assert not leaks(page.content(), hidden)
    assert page.locator("#scale-bar").count() == 1  # the table itself is shown
    while (umpire := table.view("umpire"))["turn"] < 2:  # every step passed: nobody moves
        side = umpire["active"][0]
        pick = [c for c in table.view(side)["legal"] if c["type"] == "initiative"]
        table.command(side, pick[0] if pick else {"type": "end_phase"})
    page.wait_for_function(
        "document.querySelector('#spectator-mode').textContent.includes('showing turn 1')"
    )
    for u in hidden:  # turn 1 as it stood, in full: the hidden pieces too
        assert page.locator(f"#table [data-unit='{u['id']}']").count() == 1
    assert page.locator("#actions button[data-cmd]").count() == 0  # a spectator gives no orders
    page.screenshot(path=str(artifacts_dir / "web-spectator-delayed.png"))
    assert not errors
    ctx.close()
