"""Shared fixtures of the Panzerfaust data tests: the catalogue and the seed's pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from kriegsspiel.data import Provenance
from kriegsspiel.rulesets import load

SEED = Path(__file__).resolve().parents[3].parent / "shared" / "seeds" / "000_74e73e3716f2a7dc.txt"


@pytest.fixture(scope="module")
def cat():
    """The shipped Panzerfaust catalogue, with no user overlays."""
    return load("panzerfaust", overlays=())


def page_text(page: int) -> str:
    """Printed page `page` of the seed (file line 2 x page + 3); skips when the seed is absent."""
    if not SEED.exists():
        pytest.skip("seed text not available")
    return SEED.read_text(encoding="utf-8").splitlines()[2 * page + 2]


def ref_exists(cat, ref: str) -> bool:
    """Whether a `"kind:id"` cross-reference names a loaded record."""
    kind, _, ident = ref.partition(":")
    return ident in cat.entries.get(kind, {})


def row_at(text: str, start: str, length: int = 160) -> str:
    """The printed row that begins with `start` (a short prefix): `length` characters of the
    page from there, so tests compare data with the seed without quoting whole rows."""
    i = text.index(start)
    return text[i : i + length]


def assert_equipment_in_seed(
    cat, nation: str, pages: tuple[int, ...], count: int, per_page=False, tokens=False
) -> None:
    """The nation's `count` equipment rows each appear verbatim in the seed pages (in their
    own page with `per_page`); with `tokens`, a seed PV is the row's first token and the
    printed dates are one of its tokens."""
    rows = [r for r in cat.all("equipment") if r.nation == nation]
    assert len(rows) == count
    text = " ".join(page_text(p) for p in pages)
    for row in rows:
        assert row.raw in (page_text(row.source.page) if per_page else text), row.id
        if not tokens:
            continue
        if row.pv is not None and row.prov("pv") is Provenance.SEED and row.pv_basis != "each":
            assert row.raw.split()[0] == str(row.pv), row.id
        if row.dates is not None and row.dates.raw:  # "" = lost in the seed, sourced (P113)
            assert row.dates.raw in row.raw.split(), row.id


@pytest.fixture(scope="session")
def R():
    """The Panzerfaust rules over the shipped data with no user overlays (rules/ tests)."""
    from kriegsspiel.rulesets.panzerfaust.rules.tables import Rules

    return Rules(load("panzerfaust", overlays=()))
