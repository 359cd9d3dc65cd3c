"""Infantry teams read from the data: `rifle-team:3,lmg-team-belt` -> records and counts."""

from __future__ import annotations

from ....data.catalogue import Catalogue
from ....data.errors import RuleError
from ..models import InfantryTeam
from .lookup import find


def team(cat: Catalogue, name: str) -> InfantryTeam:
    """A team type by name or id; a nation's row without its own factors falls back to the
    common row of the same slug (the p15/p18 tables are nation-independent)."""
    _, rec = find(cat, ("infantry_team",), name)
    assert isinstance(rec, InfantryTeam)
    if (not rec.fire_factors or rec.cqc is None) and rec.nation != "common":
        slug = rec.id.split("/", 1)[1]
        try:
            common = cat.get("infantry_team", f"common/{slug}")
        except LookupError:
            return rec
        assert isinstance(common, InfantryTeam)
        return common
    return rec


def parse_teams(cat: Catalogue, spec: str) -> tuple[tuple[InfantryTeam, int], ...]:
    """`name[:count],name[:count]` -> ((team, count), ...)."""
    out = []
    for part in (p.strip() for p in spec.split(",")):
        if not part:
            continue
        name, _, n = part.partition(":")
        try:
            count = int(n) if n else 1
        except ValueError:
            raise RuleError(f"team count {n!r} in {part!r} is not a number") from None
        if count < 1:
            raise RuleError(f"team count in {part!r} must be at least 1")
        out.append((team(cat, name.strip()), count))
    if not out:
        raise RuleError("no teams given; e.g. rifle-team:3,lmg-team-belt")
    return tuple(out)
