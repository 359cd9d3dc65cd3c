"""The odds calculator page in Debian's Chromium, generic over every ruleset's actions: pick
Panzerfaust AT fire with a searched firer, see the exact odds as bars with fractions, roll once
with the explanation, see the placeholders used and a bad input's reason; then a quickref
action on the same page. Also the JSON routes on their own (422 naming the field)."""

from __future__ import annotations

import httpx
import pytest

import infra
from kriegsspiel.server import create_app


@pytest.fixture
def base(tmp_path):
    with infra.live_server(lambda: create_app(f"sqlite:///{tmp_path / 'odds.db'}")) as url:
        yield url


def test_odds_routes(base):
    with httpx.Client(base_url=base, timeout=60) as c:
        listed = {r["ruleset"]: r for r in c.get("/api/odds").json()}
        assert {"quickref", "panzerfaust", "battleground"} <= set(listed)
        # Battleground's actions come through the same generic routes (issue 20 item 5):
        # a Panther's shot at a Sherman's front, 24": the gun chart's 14 or less hits on the d20,
        # 15-19 miss (5/20) and a natural 20 jams (1/20)
        shot = {"params": {"firer": "Panther", "target": "Sherman", "range": 24}}
        bg = c.post("/api/odds/battleground/tank-fire", json=shot).json()
        bg_exact = {o["outcome"]: o["exact"] for o in bg["outcomes"]}
        assert bg["method"] == "exact" and bg_exact["miss"] == "1/4" and bg_exact["jam"] == "1/20"
        assert bg["placeholders"]
        body = {
            "params": {"firer": "germany/75mm-l46-pak-40", "target": "usa_europe/m4", "range": 65},
            "seed": 3,
        }
        r = c.post("/api/odds/panzerfaust/at-fire", json=body).json()
        exact = {o["outcome"]: o["exact"] for o in r["outcomes"]}
        assert exact["miss"] == "7/27" and exact["destroyed"] == "175/4374"
        assert r["roll"]["explanation"] and r["placeholders"]
        bad = c.post("/api/odds/panzerfaust/at-fire", json={"params": {"range": "far"}})
        assert bad.status_code == 422 and bad.json()["detail"]["field"] == "firer"
        bad = c.post(
            "/api/odds/panzerfaust/at-fire",
            json={**body, "params": {**body["params"], "range": "far"}},
        )
        assert bad.status_code == 422 and bad.json()["detail"]["field"] == "range"
        far = c.post(
            "/api/odds/panzerfaust/at-fire",
            json={**body, "params": {**body["params"], "range": 400}},
        )
        assert far.status_code == 422 and "250 cm" in far.json()["detail"]["reason"]
        names = c.get("/api/odds/panzerfaust/names", params={"kind": "gun", "q": "pak 40"})
        assert any(n["id"] == "germany/75mm-l46-pak-40" for n in names.json())
        assert c.post("/api/odds/nope/x", json={}).status_code == 404


def test_odds_page_in_chromium(base, browser):
    ctx = browser.new_context(viewport={"width": 390, "height": 844})  # a phone by the table
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base + "/odds")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#ruleset", "panzerfaust")
    page.select_option("#action", "at-fire")
    page.fill("#p-firer", "PaK 40")
    page.wait_for_function("document.querySelectorAll('#list-firer option').length > 0")
    options = page.eval_on_selector_all("#list-firer option", "os => os.map(o => o.value)")
    assert "germany/75mm-l46-pak-40" in options
    page.fill("#p-firer", "germany/75mm-l46-pak-40")
    page.fill("#p-target", "usa_europe/m4")
    page.fill("#p-range", "65")
    page.click("#go")
    page.wait_for_selector("#bars li[data-outcome=miss]")
    assert "7/27" in page.inner_text("#bars li[data-outcome=miss]")
    assert "175/4374" in page.inner_text("#bars li[data-outcome=destroyed]")
    assert "placeholder" in page.inner_text("#placeholders")
    page.click("#roll")
    page.wait_for_selector("#explanation li")
    assert "result:" in page.inner_text("#explanation")
    assert page.get_attribute("#p-range", "max") == "250"
    page.fill("#p-range", "400")
    page.click("#go")
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error").startswith("range:") and "250 cm" in page.inner_text("#error")
    page.fill("#p-range", "65")
    page.fill("#p-shots_before", "-1")  # refused by the page itself before any request
    page.click("#go")
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error").startswith("shots_before:")
    page.fill("#p-shots_before", "0")
    page.select_option("#ruleset", "quickref")
    page.select_option("#action", "morale")
    page.click("#go")
    page.wait_for_function(
        "!document.querySelector('#error').hidden || "
        "document.querySelector('#title').textContent.includes('morale')"
    )
    assert page.locator("#bars li").count() >= 2
    assert not errors, errors
    ctx.close()
