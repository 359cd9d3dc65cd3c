"""Issue 15, done when: a whole quickref game played in two real Chromium browsers, from the
lobby to the result, only by clicking what the pages offer (no CLI, no API call from the test,
no guess-and-retry: every order clicked is one the page offered and is accepted at once).
Game: qr-crossroads-armour, seed 1, created in the lobby; it runs to its 8-turn limit."""

from __future__ import annotations

import pytest

import infra
from browser.test_table import click_table
from kriegsspiel.server import create_app

SEATS = {"germany": "Kampfgruppe Brandt", "usa": "Company B, 70th Tank Battalion"}


@pytest.fixture
def base(tmp_path):
    with infra.live_server(lambda: create_app(f"sqlite:///{tmp_path / 'full.db'}")) as url:
        yield url


def open_link(browser, link: str):
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(link)
    page.wait_for_selector("#table [data-unit]")
    page.wait_for_function("S.ws && S.ws.readyState === 1")
    return ctx, page, errors


def clicked(page, action) -> None:
    """Click through `action` and wait until the page holds the game after it: its own log
    grew (every accepted order writes to its author's log); a refusal toasts instead."""
    before = page.evaluate("S.view.game.events")
    action()
    page.wait_for_function("(n) => S.view.game.events > n", arg=before)
    assert "not possible" not in page.inner_text("#toast")


def fire_first_offered(page) -> str:
    shot = page.evaluate("S.view.legal.find((c) => c.type === 'fire')")
    page.click(f"[data-unit={shot['unit']}]")
    page.click(f"[data-unit={shot['target']}]")
    page.wait_for_selector("#odds #confirm")
    clicked(page, lambda: page.click("#odds #confirm"))
    return shot["unit"]


def move_into_reach(page) -> str:
    """Move the first unit offered a move to its reach cell furthest from it (off its marker)."""
    unit = page.evaluate("S.view.legal.find((c) => c.type === 'move').unit")
    page.click(f"#actions button[data-cmd=move][data-unit-cmd={unit}]")
    page.wait_for_selector("#reach .reach-cell")
    x, y = page.evaluate(
        """(id) => { const u = S.view.units.find((v) => v.id === id);
        return S.pending.reach.cells.reduce((a, c) =>
            Math.hypot(c[0] - u.x, c[1] - u.y) > Math.hypot(a[0] - u.x, a[1] - u.y) ? c : a); }""",
        unit,
    )
    click_table(page, x, y)
    page.wait_for_selector("#move-commit:not([disabled])")
    clicked(page, lambda: page.click("#move-commit"))
    got = page.evaluate("(id) => S.view.units.find((v) => v.id === id)", unit)
    assert (got["x"], got["y"]) == (x, y)
    return unit


def end_step(page) -> None:
    def act():
        page.click("#actions button[data-cmd=end_phase]")
        if page.locator("#end-warning").is_visible():
            page.click("#confirm-end")

    clicked(page, act)


def test_a_whole_game_in_two_browsers_by_clicks_only(browser, base, artifacts_dir):
    ctx0 = browser.new_context(viewport={"width": 1280, "height": 800})
    lobby = ctx0.new_page()
    lobby.goto(base)
    lobby.select_option("#scenario", "qr-crossroads-armour")
    lobby.fill("#seed", "1")
    lobby.click("#create")
    lobby.wait_for_selector("#links input")
    links = {
        lab.inner_text().strip(): lab.locator("input").input_value()
        for lab in lobby.locator("#links label").all()
    }
    ctx0.close()
    pages, errors, ctxs = {}, [], []
    for side, name in SEATS.items():
        ctx, page, errs = open_link(browser, links[name])
        pages[side], ctxs = page, [*ctxs, ctx]
        errors.append(errs)
    done: dict[str, set[str]] = {"fire": set(), "move": set()}
    orders = 0
    while True:
        page0 = pages["germany"]
        if page0.evaluate("Boolean(S.view.outcome || S.view.result)"):
            break
        step = page0.evaluate("S.view.game.step")
        for p in pages.values():  # both pages hold the same step before anyone acts
            p.wait_for_function("(s) => S.view.game.step === s", arg=step)
        side = next(s for s, p in pages.items() if p.evaluate("S.view.active.includes(S.seat)"))
        page = pages[side]
        kinds = set(page.evaluate("S.view.legal.map((c) => c.type)"))
        turn = page.evaluate("S.view.turn")
        if "fire" in kinds and side not in done["fire"]:
            fire_first_offered(page)
            done["fire"].add(side)
        elif "move" in kinds and side not in done["move"] and turn == 1:
            move_into_reach(page)
            done["move"].add(side)
        else:
            end_step(page)
        orders += 1
        assert orders < 200, "the game should end by its turn limit"
    for side, page in pages.items():
        page.wait_for_function("Boolean(S.view.outcome || S.view.result)")
        assert "Game over" in page.inner_text("#phase"), side
        page.screenshot(path=str(artifacts_dir / f"web-full-game-{side}.png"))
    assert done["move"] == {"germany", "usa"} and "germany" in done["fire"]
    print(f"{orders} orders clicked; fired: {sorted(done['fire'])}")
    assert not any(errors)
    for ctx in ctxs:
        ctx.close()
