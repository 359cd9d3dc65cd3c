"""Shared fixtures of the Panzerfaust data tests: the catalogue and the seed's pages."""

from __future__ import annotations

from pathlib import Path

import pytest

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


def filled_guns(cat, nation: str) -> list[str]:
    """Ids of the nation's guns with a filled penetration list (main gun or any ammo row)."""
    return sorted(
        g.id
        for g in cat.all("gun")
        if g.nation == nation and (g.penetration or any(a.penetration for a in g.ammo))
    )


def assert_unfilled_explained(cat, nation: str, filled: int) -> None:
    """`filled` guns of the nation carry a main penetration list; every other one says in its
    notes why it stays empty (P49)."""
    assert len([g for g in cat.all("gun") if g.nation == nation and g.penetration]) == filled
    for g in cat.all("gun"):
        if g.nation == nation and not g.penetration:
            assert "(P49)" in g.notes, g.id
