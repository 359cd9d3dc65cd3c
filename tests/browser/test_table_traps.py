"""The web table's traps that cost moves or shots (issue 15 item 7), each reproduced in
Debian's Chromium: hatches that unbutton, a selection that hides the other units' orders or
outlives its step, an end of step with orders left, a stale click and a silent step change.
Game: qr-crossroads-armour, seed 1 (the fire step offers shots to the Panther and to Pz IV A)."""

from __future__ import annotations

import httpx
import pytest

import infra
from kriegsspiel.server import create_app
from server.client import Table


@pytest.fixture
def base(tmp_path):
    with infra.live_server(lambda: create_app(f"sqlite:///{tmp_path / 'traps.db'}")) as url:
        yield url


@pytest.fixture
def game(base):
    return Table.create(httpx.Client(base_url=base))


def open_seat(browser, base: str, table: Table, seat: str):
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(table.links[seat].replace("http://testserver", base))
    page.wait_for_selector("#table [data-unit]")
    page.wait_for_function("S.ws && S.ws.readyState === 1")
    return ctx, page, errors


def step(table: Table) -> str:
    return table.view("germany")["game"]["step"]


def to_fire_step(table: Table, page) -> None:
    """Both sides end the initiative step over the API; the page learns it by its socket."""
    table.command("germany", {"type": "end_phase"})
    table.command("usa", {"type": "end_phase"})
    page.wait_for_function("S.view.game.step === '1/fire_all/germany,usa'")


def buttoned(table: Table, seat: str) -> set[bool]:
    return {u["buttoned"] for u in table.view(seat)["units"] if u["kind"] == "vehicle"}


def test_button_up_all_hatches_never_unbuttons(browser, base, game):
    ctx, page, errors = open_seat(browser, base, game, "germany")
    assert buttoned(game, "germany") == {False}
    page.click("#actions button:text-is('button up all hatches')")
    page.wait_for_selector("#actions button:text-is('open all hatches')")
    assert buttoned(game, "germany") == {True}
    # all buttoned: "button up" would change nothing, so it is not offered; nothing unbuttons
    assert page.locator("#actions button:text-is('button up all hatches')").count() == 0
    assert buttoned(game, "germany") == {True}
    page.click("#actions button:text-is('open all hatches')")
    page.wait_for_selector("#actions button:text-is('button up all hatches')")
    assert buttoned(game, "germany") == {False}
    assert not errors
    ctx.close()


def test_selection_filters_never_hides_and_ends_with_its_step(browser, base, game):
    ctx, page, errors = open_seat(browser, base, game, "germany")
    to_fire_step(game, page)
    shooters = {c["unit"] for c in game.view("germany")["legal"] if c["type"] == "fire"}
    assert shooters == {"g-panther", "g-pz4a"}
    page.click("[data-unit=g-pz4a]")
    # the selected unit's orders come first; the Panther's shots are still there
    groups = page.locator("#actions .group").all_inner_texts()
    assert groups[0] == "Pz IV A" or "IV" in groups[0]
    for unit in shooters:
        assert page.locator(f"#actions button[data-unit-cmd={unit}]").count() >= 1
    # the step ends (both sides, over the API): the selection does not survive it
    game.command("germany", {"type": "end_phase"})
    game.command("usa", {"type": "end_phase"})
    page.wait_for_function("!S.view.game.step.includes('fire_all')")
    assert page.locator("#table .unit.selected").count() == 0
    assert "Tap a unit" in page.inner_text("#card")
    assert not errors
    ctx.close()


def test_ending_a_step_with_shots_left_asks_first(browser, base, game):
    ctx, page, errors = open_seat(browser, base, game, "germany")
    to_fire_step(game, page)
    before = step(game)
    page.click("#actions button[data-cmd=end_phase]")
    page.wait_for_selector("#end-warning")
    warning = page.inner_text("#end-warning")
    assert "3 actions left" in warning and "Panther" in warning
    assert step(game) == before  # nothing sent yet
    page.click("#cancel-end")
    page.wait_for_selector("#end-warning", state="hidden")
    assert step(game) == before
    page.click("#actions button[data-cmd=end_phase]")
    page.click("#confirm-end")
    page.wait_for_function("!S.view.game.step.includes('germany')")
    assert step(game) == "1/fire_all/usa"
    assert not errors
    ctx.close()


def test_a_stale_click_is_refused_with_a_message(browser, base, game):
    ctx, page, errors = open_seat(browser, base, game, "germany")
    to_fire_step(game, page)
    # the page stops hearing the game (a lost socket) while Germany ends the step elsewhere
    page.evaluate("() => { S.ws.onclose = null; S.ws.close(); }")
    game.command("germany", {"type": "end_phase"})
    moved_on = step(game)
    assert moved_on == "1/fire_all/usa"
    page.click("#actions button[data-cmd=end_phase]")
    page.click("#confirm-end")
    page.wait_for_function("document.querySelector('#toast').textContent.includes('moved on')")
    assert step(game) == moved_on  # the click did not end USA's or any later step
    assert page.evaluate("S.view.game.step") == moved_on  # and the page shows the game as it is
    assert not errors
    ctx.close()


def test_a_step_that_ends_by_itself_says_why(browser, base, game, artifacts_dir):
    ctx, page, errors = open_seat(browser, base, game, "germany")
    to_fire_step(game, page)
    for firer, target in [("g-panther", "u-m4a"), ("g-pz4a", "u-m4c")]:
        page.click(f"[data-unit={firer}]")
        page.click(f"[data-unit={target}]")
        page.wait_for_selector("#odds #confirm")
        page.click("#confirm")
        page.wait_for_function("([f]) => !S.view.legal.some((c) => c.unit === f)", arg=[firer])
    # Germany's last shot left it nothing to do: its part of the step ended by itself, and
    # the page says so on the action panel and in the log, not silently
    page.wait_for_selector("#step-notice")
    notice = page.inner_text("#step-notice")
    assert "nothing left to do" in notice and "Kampfgruppe Brandt" in notice
    assert "ended by itself" in page.inner_text("#log")
    assert "(no unit can fire)" in page.inner_text("#log")  # the cause, from the server
    assert page.locator("#actions button[data-cmd=end_phase]").count() == 0
    page.screenshot(path=str(artifacts_dir / "web-step-ended-by-itself.png"))
    # item 9 (in part): distances in the log are rounded; colours follow the nation (field
    # grey, olive), not the side order; the Sherman the Panther knocked out stays on its own
    # side's table as a wreck once the step's results are applied (Germany's view, fogged,
    # lists no knocked-out enemy)
    log = page.inner_text("#log")
    assert '21.9"' in log and "21.9317" not in log
    fills = page.evaluate(
        "() => ['g-panther', 'u-m4c'].map((u) => "
        "document.querySelector(`[data-unit=${u}] .body`).getAttribute('fill'))"
    )
    assert fills == ["#7d8a96", "#7f8a4a"]
    game.command("usa", {"type": "end_phase"})
    page.goto(game.links["usa"].replace("http://testserver", base))
    page.wait_for_selector("[data-wreck=u-m4a]")
    assert not errors
    ctx.close()
