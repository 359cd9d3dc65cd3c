"""Names as players say them: an id, a chart name, `common/<slug>`, or an unambiguous part of
a name ("Panther", "PaK 40"); otherwise the closest matches (the catalogue's message)."""

from __future__ import annotations

import re

from ....data.catalogue import Catalogue
from ....data.errors import RuleError
from ....data.provenance import Record


def _fold(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", s.casefold()).strip()


def find(cat: Catalogue, kinds: tuple[str, ...], name: str) -> tuple[str, Record]:
    """(kind, record) for a name among `kinds`, tried in order."""
    errors: list[LookupError] = []
    for kind in kinds:
        for key in (name, f"common/{name}"):
            try:
                return kind, cat.get(kind, key)
            except LookupError as e:
                if key == name:
                    errors.append(e)
    want = _fold(name)
    every: list[tuple[str, Record]] = []
    for kind in kinds:
        hits = [
            (kind, r)
            for r in cat.all(kind)
            if want and (want in _fold(r.name) or want in _fold(r.id))
        ]
        exact = [h for h in hits if _fold(h[1].name) == want] or hits
        common = [h for h in exact if h[1].id.startswith("common/")]
        for pick in (hits, exact, common):
            if len(pick) == 1:
                return pick[0]
        every += hits
    if every:
        shown = ", ".join(r.id for _, r in every[:8]) + (" ..." if len(every) > 8 else "")
        raise RuleError(f"{name!r} matches {len(every)} records; use an id: {shown}")
    msg = str(errors[0]) if errors else f"unknown {name!r}"
    raise RuleError(msg)
