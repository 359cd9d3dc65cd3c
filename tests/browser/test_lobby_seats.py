"""Seats and lobby (issue 15 item 11) in Debian's Chromium: a game against an AI seat run by
the server, join links kept in this browser and shown again in the lobby, and a seat link
without its token explained instead of an empty table."""

from __future__ import annotations

import httpx
import pytest

import infra
from kriegsspiel.server import create_app


@pytest.fixture
def base(tmp_path):
    with infra.live_server(lambda: create_app(f"sqlite:///{tmp_path / 'lobby.db'}")) as url:
        yield url


def test_play_the_ai_from_the_lobby_and_find_the_game_again(browser, base, artifacts_dir):
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base)
    page.select_option("#scenario", "qr-crossroads-armour")
    page.select_option("#ai", "usa")
    page.fill("#seed", "1")
    page.screenshot(path=str(artifacts_dir / "web-lobby.png"))
    page.click("#create")
    page.wait_for_selector("#table [data-unit=g-panther]")
    assert "seat=germany" in page.url
    # no token for the AI's side: this browser cannot act for it
    assert page.locator("#seats button[data-seat=usa]").count() == 0
    game = page.url.split("game=")[1].split("&")[0]
    page.click("#actions button[data-cmd=end_phase]")
    page.click("#confirm-end")
    # the server played USA's part of the initiative step: the game reached the fire step
    page.wait_for_function("S.view.phase.startsWith('fire')")
    usa = httpx.get(f"{base}/api/games/{game}/seats/spectator/view").json()
    assert usa["phase"].startswith("fire")
    # back in the lobby, the game and this browser's seats are listed with their links
    page.goto(base)
    page.wait_for_selector(f"#saved li[data-game='{game}']")
    seats = page.locator(f"#saved li[data-game='{game}'] a").all()
    assert {a.get_attribute("data-seat") for a in seats} == {"germany", "umpire", "spectator"}
    germany = page.locator(f"#saved li[data-game='{game}'] a[data-seat=germany]")
    assert "#token=" in germany.get_attribute("href")
    page.screenshot(path=str(artifacts_dir / "web-lobby-saved.png"))
    germany.click()
    page.wait_for_selector("#table [data-unit=g-panther]")
    assert not errors
    ctx.close()


def test_an_ai_side_that_does_not_exist_is_refused_by_name(base):
    r = httpx.post(f"{base}/api/games", json={"scenario": "qr-crossroads-armour", "ai": ["x"]})
    assert r.status_code == 422 and r.json()["detail"]["field"] == "ai"
    both = {"scenario": "qr-crossroads-armour", "ai": ["usa", "germany"]}
    r = httpx.post(f"{base}/api/games", json=both)
    assert r.status_code == 422 and "player" in r.json()["detail"]["reason"]


def test_a_seat_link_without_its_token_explains_how_to_get_in(browser, base):
    r = httpx.post(f"{base}/api/games", json={"scenario": "qr-crossroads-armour"})
    game = r.json()["id"]
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    page.goto(f"{base}/?game={game}&seat=germany")
    page.wait_for_selector("#no-token")
    text = page.inner_text("#no-token")
    assert "germany" in text and "join link" in text and "#token=" in text
    assert page.locator("#play").is_hidden()
    page.click("#watch")
    page.wait_for_selector("#spectator-mode")  # the table, and no live piece (item 11)
    assert "seat=spectator" in page.url
    ctx.close()
