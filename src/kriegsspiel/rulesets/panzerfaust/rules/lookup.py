"""Names as players say them: an id, a chart name, `common/<slug>`, or an unambiguous part of
a name ("Panther", "PaK 40"; whole words win over parts: "Panther" is the Pz V, not the
Jagdpanther); otherwise the closest matches (the catalogue's message)."""

from __future__ import annotations

import difflib
import re

from ....data.catalogue import Catalogue
from ....data.errors import RuleError
from ....data.provenance import Record


def _fold(s: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", s.casefold()).strip()


def find(cat: Catalogue, kinds: tuple[str, ...], name: str) -> tuple[str, Record]:
    """(kind, record) for a name among `kinds`, tried in order."""
    for kind in kinds:
        for key in (name, f"common/{name}"):
            rec = cat.find(kind, key)
            if rec is not None:
                return kind, rec
    want = _fold(name)
    hits: dict[str, list[tuple[str, Record]]] = {
        kind: [
            (kind, r)
            for r in cat.all(kind)
            if want and (want in _fold(r.name) or want in _fold(r.id))
        ]
        for kind in kinds
    }

    def whole(h: tuple[str, Record]) -> bool:
        return f" {want} " in f" {_fold(h[1].name)} "

    def is_exact(h: tuple[str, Record]) -> bool:
        return _fold(h[1].name) == want

    # an exact name, then whole words, then a common/ row, kind by kind in order
    for test in (is_exact, whole):
        for kind in kinds:
            pick = [h for h in hits[kind] if test(h)]
            common = [h for h in pick if h[1].id.startswith("common/")]
            for p in (pick, common):
                if len(p) == 1:
                    return p[0]
    every = [h for kind in kinds for h in hits[kind]]
    if len(every) == 1:
        return every[0]
    # the nations' rows of one item (same slug) and its common row: the common row
    slugs = {h[1].id.split("/", 1)[-1] for h in every}
    common = [h for h in every if h[1].id.startswith("common/")]
    if len(slugs) == 1 and len(common) == 1:
        return common[0]
    if every:
        shown = ", ".join(r.id for _, r in every[:8]) + (" ..." if len(every) > 8 else "")
        raise RuleError(f"{name!r} matches {len(every)} records; use an id: {shown}")
    every_name = {r.id: r.name for kind in kinds for r in cat.all(kind)}
    scored = sorted(((_closeness(want, n), i) for i, n in every_name.items()), reverse=True)
    close = [f"{every_name[i]} ({i})" for score, i in scored[:5] if score >= 0.6]
    what = " or ".join(k.replace("_", " ") for k in kinds)
    hint = f"; closest: {', '.join(close)}" if close else ""
    raise RuleError(f"unknown {what} {name!r}{hint}")


def _closeness(want: str, name: str) -> float:
    """How well `want` matches the best run of as many words in `name` (typos allowed)."""
    words, n = _fold(name).split(), max(1, len(want.split()))
    windows = [" ".join(words[i : i + n]) for i in range(max(1, len(words) - n + 1))]
    return max(difflib.SequenceMatcher(None, want, w).ratio() for w in windows)
