"""Panzerfaust in two real Chromium browsers (issue 19 items 6-7): from the lobby (create game,
the second seat's join link) each browser plays its part of a turn of every phase the game core
implements (D covering fire, F platoons moving alternately, G direct fire with the odds shown
first), every click on something the page offered and accepted the first time. The plug-in shows
the phase letter, the pips, the company -> platoon panel (a platoon chosen lights its teams) and
the covering-fire template. Screenshots go to artifacts/."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import infra
from kriegsspiel.engine import registry
from kriegsspiel.server import create_app

# the game core's test scenarios until the shipped Panzerfaust scenarios land
SCENARIOS = Path(__file__).parents[1] / "rulesets" / "panzerfaust" / "game" / "scenarios"


@pytest.fixture
def base(tmp_path):
    shipped = registry.entry("panzerfaust")
    registry.register(dataclasses.replace(shipped, scenarios=SCENARIOS))
    for e in registry.entries():  # build each ruleset's rules (catalogue) before any page waits
        registry.playable(e.id)  # on /api/rulesets: on a loaded machine that outlasts a timeout
    try:
        with infra.live_server(lambda: create_app(f"sqlite:///{tmp_path / 'pf.db'}")) as url:
            yield url
    finally:
        registry.register(shipped)


def events(page) -> int:
    return page.evaluate("S.view.game.events")


def act(page, selector: str) -> None:
    """Click what the page offers; the command must be accepted at once (the game grows and the
    toast is never a refusal)."""
    before = events(page)
    page.locator(selector).first.click()
    if page.locator("#confirm-end").is_visible():  # ending a step with actions left: say so
        page.click("#confirm-end")
    page.wait_for_function("n => S.view.game.events > n", arg=before)
    # a refusal shows a plain toast; "done" and step notices an "ok" one
    assert page.get_attribute("#toast", "class") == "ok", page.inner_text("#toast")


def my_move(page) -> bool:
    return page.evaluate("S.view.active.includes(S.seat) && S.view.legal.length > 0")


def phase(page) -> str:
    return page.evaluate("S.view.phase")


def tap(page, x: float, y: float) -> None:
    """A real mouse click on the table at (x, y) cm."""
    at = page.evaluate(
        """([x, y]) => { const svg = document.querySelector('#table');
        const p = svg.createSVGPoint(); p.x = x; p.y = S.view.table.depth - y;
        const q = p.matrixTransform(svg.getScreenCTM()); return [q.x, q.y]; }""",
        [x, y],
    )
    page.mouse.click(*at)


def route(page, artifacts_dir) -> None:
    """Phase F: a team moved along two waypoints planned on the table; the route shows each
    waypoint's cm and its fraction of the whole path before it is sent."""
    unit = page.evaluate("S.view.legal.find(c => c.type === 'move').unit")
    x, y = page.evaluate(f"(u => [u.x, u.y])(S.view.units.find(u => u.id === '{unit}'))")
    page.click(f"#table [data-unit='{unit}']")
    page.click("#pf-route")
    tap(page, x, y - 5)
    tap(page, x + 2, y - 8)
    page.wait_for_selector("#table .pf-route text >> nth=1")
    labels = page.eval_on_selector_all("#table .pf-route text", "ts => ts.map(t => t.textContent)")
    assert labels[0].startswith("5.0 cm") and labels[1].endswith("(100%)"), labels
    page.screenshot(path=str(artifacts_dir / "pf-F-route.png"))
    planned = page.evaluate("PF.route.points")
    assert planned[-1] == pytest.approx([x + 2, y - 8], abs=0.5)  # a tap lands within a pixel
    act(page, "#pf-route-send")
    moved = page.evaluate(f"(u => [u.x, u.y])(S.view.units.find(u => u.id === '{unit}'))")
    assert moved == pytest.approx(planned[-1])


def test_two_browsers_play_a_panzerfaust_turn_from_the_lobby(browser, base, artifacts_dir):
    pages, errors = [], []
    for _ in range(2):
        ctx = browser.new_context(viewport={"width": 1400, "height": 900})
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        pages.append(page)
    de, gb = pages
    de.goto(base)
    de.select_option("#scenario", "pf-test-skirmish")
    de.fill("#seed", "7")
    de.click("#create")
    de.wait_for_selector("#table [data-unit=g-pz-1]")
    assert "seat=germany" in de.url
    link = de.locator("#links label", has_text="Rifle company").locator("input").input_value()
    assert "seat=britain" in link and "#token=" in link
    gb.goto(link)
    gb.wait_for_selector("#table [data-unit=b-tk-1]")

    # the plug-in: phase letter, pips per company, cm, platoons lighting their teams
    assert de.inner_text("#pf-letter") == "D"
    assert "5. Kompanie: 3 of 3 pips" in de.inner_text("#phase")
    de.click("#pf [data-platoon=g-pz]")
    lit = de.eval_on_selector_all("#table .pf-in-platoon", "gs => gs.map(g => g.dataset.unit)")
    assert sorted(lit) == ["g-pz-1", "g-pz-2"]
    # fog: the British platoon in the wood is nowhere on the German page
    assert de.locator("#table [data-unit^=b-wood]").count() == 0

    # D: covering fire ordered from the offered targets, its template drawn; both end the step
    act(de, "#actions button[data-cmd=cover]")
    de.wait_for_selector("#table .pf-cf")
    de.screenshot(path=str(artifacts_dir / "pf-D-cover.png"))
    act(de, "#actions button[data-cmd=end_phase]")
    act(gb, "#actions button[data-cmd=end_phase]")
    for p in pages:
        p.wait_for_function("S.view.phase === 'F'")
    assert de.inner_text("#pf-letter") == "F"

    # F: platoons move alternately, lowest class first (the British regulars); each side moves
    # its first platoon by a group order and lets the others stand
    moved = set()
    for _ in range(20):
        if phase(de) != "F":
            break
        side = next((p for p in pages if my_move(p)), None)
        if side is None:
            pages[0].wait_for_timeout(100)
            continue
        if side in moved:
            act(side, "#actions button[data-cmd=end_platoon]")
        elif side is de:
            route(de, artifacts_dir)
        else:
            act(side, "#actions button[data-cmd=group]")
        moved.add(side)
    assert moved == {de, gb}
    assert de.locator("#phase .pf-letter").count() == 1  # the bar is redrawn, not stacked
    for p in pages:
        p.wait_for_function("S.view.phase === 'G'")

    # G: the element whose turn it is fires, after the odds are shown; others hold
    fired = False
    for _ in range(30):
        if phase(de) != "G":
            break
        side = next((p for p in pages if my_move(p)), None)
        if side is None:
            pages[0].wait_for_timeout(100)
            continue
        # a tank in sight: its AT odds are exact (HE at infantry has no single preview)
        fire = side.locator("#actions button[data-cmd=fire]", has_text="Cromwell")
        if not fired and fire.count():
            fire.first.click()
            side.wait_for_selector("#odds .bar[data-outcome]")
            side.screenshot(path=str(artifacts_dir / "pf-G-odds.png"))
            act(side, "#confirm")
            fired = True
        else:
            act(side, "#actions button[data-cmd=hold], #actions button[data-cmd=end_phase]")
    assert fired
    for p in pages:
        p.wait_for_function("S.view.turn === 2")
    de.screenshot(path=str(artifacts_dir / "pf-turn-2.png"))
    assert any(
        "fire" in x
        for x in de.eval_on_selector_all("#log li .head", "ls => ls.map(l => l.textContent)")
    )
    # the unit card: an own tank's data from its record (armour face by face, gun by band)
    de.click("#table [data-unit='g-pz-2']")
    de.wait_for_selector("#card .info-card[data-card='g-pz-2']")
    card = de.inner_text("#card .info-card")
    assert "hull front" in card and "main gun" in card and "moved" in card
    assert not errors


def test_a_side_sees_the_stretch_of_an_enemy_move_it_glimpsed_as_a_dotted_track(
    browser, base, artifacts_dir
):
    """Spotting along a move (P283, P286): the Cromwell of pf-test-glimpse drives behind two
    houses and is seen only in the gap between them; the German page draws that stretch as a
    dotted track (and a last-known mark), the British page draws no track of its own move."""
    pages, errors = [], []
    for _ in range(2):
        ctx = browser.new_context(viewport={"width": 1400, "height": 900})
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        pages.append(page)
    de, gb = pages
    de.goto(base)
    de.select_option("#scenario", "pf-test-glimpse")
    de.fill("#seed", "3")
    de.click("#create")
    de.wait_for_selector("#table [data-unit=g-pak]")
    link = de.locator("#links label", has_text="Troop").locator("input").input_value()
    gb.goto(link)
    gb.wait_for_selector("#table [data-unit=b-tk-1]")
    act(de, "#actions button[data-cmd=end_phase]")
    act(gb, "#actions button[data-cmd=end_phase]")
    for _ in range(20):
        if phase(de) != "F":
            break
        side = next((p for p in pages if my_move(p)), None)
        if side is None:
            pages[0].wait_for_timeout(100)
            continue
        if side is gb and gb.evaluate("S.view.units.find(u => u.id === 'b-tk-1').moved") == 0:
            n = events(gb)
            gb.evaluate("send({type: 'move', unit: 'b-tk-1', path: [[98, 40]]})")
            gb.wait_for_function("n => S.view.game.events > n", arg=n)
        else:
            act(side, "#actions button[data-cmd=end_platoon]")
    # attached, not "visible": the seen stretch is level (y 40), so the polyline's box has no
    # height and Playwright would call it hidden although its stroke is drawn
    de.wait_for_selector("#table .pf-track polyline", state="attached")
    de.screenshot(path=str(artifacts_dir / "pf-track.png"))
    drawn = de.eval_on_selector(
        "#table .pf-track polyline",
        """p => ({dash: getComputedStyle(p).strokeDasharray, stroke: getComputedStyle(p).stroke,
                 width: p.getBBox().width, xs: [...p.points].map(q => q.x)})""",
    )
    assert drawn["dash"] not in ("", "none") and drawn["stroke"] != "none"  # dotted, stroked
    assert drawn["width"] > 0 and min(drawn["xs"]) >= 86 and max(drawn["xs"]) <= 94, drawn
    (alias,) = de.eval_on_selector_all("#table .pf-track", "gs => gs.map(g => g.dataset.track)")
    assert de.evaluate(f"S.view.last_known.some(m => m.id === '{alias}')")
    assert de.evaluate(f"!S.view.enemies.some(m => m.id === '{alias}')")  # hidden at the end
    xs = de.evaluate("S.view.panzerfaust.tracks[0].lines[0].map(p => p[0])")
    assert min(xs) >= 86 and max(xs) <= 94  # the gap between the houses
    assert gb.locator("#table .pf-track").count() == 0
    assert not errors


def test_overrun_and_flame_orders_have_their_own_labels_and_an_overrun_follows_a_planned_route(
    browser, base, artifacts_dir
):
    """p111 Q&A 1 and p21 (pf-test-overrun): the Soviet page names each overrun as its tank
    driving over the target, offers a route planned on the table as an overrun of each target
    the rules allow, and in phase G names each flame order's weapon and reach."""
    pages, errors = [], []
    for _ in range(2):
        ctx = browser.new_context(viewport={"width": 1400, "height": 900})
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        pages.append(page)
    ru, de = pages
    ru.goto(base)
    ru.select_option("#scenario", "pf-test-overrun")
    ru.fill("#seed", "3")
    ru.click("#create")
    ru.wait_for_selector("#table [data-unit=r-t34-1]")
    link = ru.locator("#links label", has_text="Grenadiers").locator("input").input_value()
    de.goto(link)
    de.wait_for_selector("#table [data-unit=g-r1]")
    act(ru, "#actions button[data-cmd=end_phase]")
    act(de, "#actions button[data-cmd=end_phase]")
    overran, flames = False, []
    for _ in range(60):
        if phase(ru) not in ("F", "G"):
            break
        side = next((p for p in pages if my_move(p)), None)
        if side is None:
            pages[0].wait_for_timeout(100)
            continue
        if side is ru and phase(ru) == "F" and not overran:
            offered = ru.evaluate("S.view.legal.filter(c => c.type === 'overrun')")
            if offered:
                labels = ru.locator("#actions button[data-cmd=overrun]").all_inner_texts()
                tank = ru.evaluate("S.view.units.find(u => u.id === 'r-t34-1').name")
                assert len(labels) == len(offered)
                assert all(t.startswith("overrun: ") and t.endswith("(Q&A 1)") for t in labels)
                assert any(t.startswith(f"overrun: {tank} drives over ") for t in labels)
                # the route form: r-t34-1 planned north through g-r1 (40, 60), sent as an overrun
                ru.click("#table [data-unit='r-t34-1']")
                ru.click("#pf-route")
                tap(ru, 40, 66)
                mine = [c for c in offered if c["unit"] == "r-t34-1"]
                ru.wait_for_selector(".pf-route-overrun")
                assert ru.locator(".pf-route-overrun").count() == len(mine)
                target = ru.evaluate("S.view.enemies.find(e => e.x === 40 && e.y === 60).id")
                button = ru.locator(f".pf-route-overrun[data-target='{target}']")
                assert button.inner_text() == "Overrun Rifle Team at (40, 60) along the route"
                ru.screenshot(path=str(artifacts_dir / "pf-overrun-route.png"))
                act(ru, f".pf-route-overrun[data-target='{target}']")
                assert ru.evaluate("S.view.log.some(e => e.type === 'overrun')")
                assert not ru.evaluate(f"S.view.enemies.some(e => e.id === '{target}')")  # overrun
                overran = True
                continue
        if side is ru and phase(ru) == "G":
            flames += ru.locator("#actions button[data-cmd=flame]").all_inner_texts()
        cmd = "end_platoon" if phase(side) == "F" else "hold"
        act(side, f"#actions button[data-cmd={cmd}]")
    assert overran
    assert flames and all(t.startswith("flame: ") and t.endswith("cm, p21)") for t in flames)
    assert any("(Molotovs: a throw to hit first, 5 cm, p21)" in t for t in flames) or any(
        "(flame gun, 10 cm, p21)" in t for t in flames
    ), flames
    assert not errors
