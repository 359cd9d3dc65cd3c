"""Shared fixtures: the shipped quickref rules and the seed folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests draw the same examples on every run (derandomize), so that a clean CI run
# reproduces exactly what passed here; `HYPOTHESIS_PROFILE=explore` draws fresh ones.
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

REPO = Path(__file__).resolve().parents[1]
SEEDS = REPO.parent / "shared" / "seeds"


@pytest.fixture(scope="session")
def qr():
    from kriegsspiel.rulesets.quickref.tables import rules

    return rules()


@pytest.fixture(scope="session")
def seeds() -> Path:
    if not SEEDS.is_dir():
        pytest.skip(f"seed folder {SEEDS} not present")
    return SEEDS


# --- Real infrastructure (tests/infra.py): PostgreSQL server, Chromium, artifacts --------
# Each fixture skips with the reason when its part of the machine is missing
# (`bash scripts/ensure-system-deps.sh` installs them).


def _machine_part(name: str):
    """Enter one of `infra`'s context managers for the session, or skip with its reason."""
    import infra

    try:
        cm = getattr(infra, name)()
        part = cm.__enter__()
    except infra.Missing as e:
        pytest.skip(str(e))
    try:
        yield part
    finally:
        cm.__exit__(None, None, None)


@pytest.fixture(scope="session")
def postgres_url():
    """SQLAlchemy URL (postgresql+psycopg://...) of a fresh PostgreSQL server for the session."""
    for server in _machine_part("postgres_server"):
        yield server.url


@pytest.fixture(scope="session")
def browser():
    """A headless Playwright Chromium (Debian's /usr/bin/chromium) for the session."""
    yield from _machine_part("chromium_browser")


@pytest.fixture
def page(browser):
    """A fresh browser context and page for one test."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    pg = context.new_page()
    try:
        yield pg
    finally:
        context.close()


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    """REPO/artifacts/ (gitignored): screenshots and other things to look at."""
    d = REPO / "artifacts"
    d.mkdir(exist_ok=True)
    return d
