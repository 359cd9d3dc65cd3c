"""The browser table plays the demo ruleset from the same page as quickref (issue 14 item 9):
alternating activations, the reaction prompt shown to both seats, enemy pieces only by alias,
and no page holding an enemy piece's true id or name. Real Chromium via Playwright."""

from __future__ import annotations

import httpx

from server.client import Table, hidden_enemies, leaks

from .test_table import base, log_count, open_seat, wait_log_grows  # noqa: F401  (fixture)


def your_move(page) -> None:
    page.wait_for_function("document.querySelector('#to-move')?.textContent === 'Your move'")


def test_the_demo_ruleset_in_two_browsers(browser, base, artifacts_dir):  # noqa: F811
    table = Table.create(httpx.Client(base_url=base), "demo-patrol", seed=3)
    _, blue, blue_errors = open_seat(browser, table.links["blue"])
    _, red, red_errors = open_seat(browser, table.links["red"])
    for page, side in ((blue, "blue"), (red, "red")):
        assert not leaks(page.content(), hidden_enemies(table, side)), side

    # a piece's card shows what its ruleset tells of it: the picket starts hidden
    red.click("[data-unit=r-rifles-1]")
    card = red.inner_text("#card")
    assert "Picket west" in card and "hidden" in card and "rifles" in card

    # blue holds its first piece; red's turn comes over the socket
    your_move(blue)
    blue.click("#actions button[data-cmd=hold]")
    your_move(red)
    red.click("#actions button[data-cmd=hold]")
    your_move(blue)

    # a blue move asks red whether to react: blue waits, red answers from its page
    n = log_count(blue)
    blue.click("#actions button[data-cmd=move]")
    wait_log_grows(blue, n)
    blue.wait_for_function("document.querySelector('#prompt')?.textContent.startsWith('Waiting')")
    red.wait_for_selector("#prompt")
    assert red.inner_text("#prompt").startswith("React?")
    red.screenshot(path=str(artifacts_dir / "web-demo-prompt.png"))
    red.click("#actions button[data-cmd=decline]")
    blue.wait_for_function("!document.querySelector('#prompt')")
    for page, side in ((blue, "blue"), (red, "red")):
        assert not leaks(page.content(), hidden_enemies(table, side)), side
    blue.screenshot(path=str(artifacts_dir / "web-demo-blue.png"))
    assert not (blue_errors or red_errors)
