"""Gun penetration filled under P49 for the USSR, US Europe, US Pacific and Japan (issue 6).

Every filled value is `historical` (a read public figure converted by P49) or a `placeholder`,
with a `ref` naming the source and a `note` naming the method; lists the seed left empty and no reliable figure was
found for stay empty.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml

from kriegsspiel.data import Provenance

NATIONS = ("ussr", "usa_europe", "usa_pacific", "japan")
DATA = Path(__file__).resolve().parents[3] / "src/kriegsspiel/rulesets/panzerfaust/data"
# the commit before this fill: the seed's own penetration lists (all empty for these nations)
BASE = "aee7d6c"


def _guns(cat):
    return [e.record for e in cat.entries.get("gun", {}).values() if e.record.nation in NATIONS]


def _filled(cat):
    """(gun, path, penetration list, to-hit list) for every non-empty penetration list."""
    out = []
    for g in _guns(cat):
        if g.penetration:
            out.append((g, "penetration", g.penetration, g.to_hit))
        for i, a in enumerate(g.ammo):
            if a.penetration:
                out.append((g, f"ammo.{i}.penetration", a.penetration, a.to_hit or []))
    return out


def test_hand_checked_values(cat):
    # the M30 is a licence PaK 35/36 (its gun notes), so it takes the PaK 36 table (DarkestHour,
    # 0deg): 200 m: 34 - 3 x 100/150 = 32.0 mm / 1.27 (APC at 30deg) = 25.2 -> 2.5 cm, the same
    # figures as the German row. Other source-derived values are worked in test_penetration_sources.
    m30 = cat.get("gun", "ussr/37mm-l45-m30")
    assert m30.penetration == [2.5, 2.3, 2.2, 2.0, 1.8, 1.6]
    pak36 = cat.get("gun", "germany/37mm-l45-pak-35-36").penetration
    assert m30.penetration == pak36[: len(m30.penetration)]


def test_every_filled_value_has_provenance_ref_and_note(cat):
    filled = _filled(cat)
    assert filled
    for g, path, pen, _th in filled:
        for i in range(len(pen)):
            entry = g.prov_entry(f"{path}.{i}")
            assert entry.provenance in (Provenance.PLACEHOLDER, Provenance.HISTORICAL), (g.id, path)
            assert entry.ref and entry.note and entry.note.startswith(("P49", "P55")), (g.id, path)


def test_penetration_never_increases_with_range(cat):
    for g, path, pen, _th in _filled(cat):
        assert all(a >= b for a, b in zip(pen, pen[1:], strict=False)), (g.id, path, pen)


def test_no_band_beyond_the_to_hit_list(cat):
    for g, path, pen, to_hit in _filled(cat):
        assert len(pen) == len(to_hit), (g.id, path)


def _at(ref: str, nation: str):
    try:
        text = subprocess.run(
            ["git", "show", f"{ref}:src/kriegsspiel/rulesets/panzerfaust/data/{nation}/gun.yaml"],
            cwd=DATA,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("git history not available")
    return yaml.safe_load(text)


@pytest.mark.parametrize("nation", ["ussr", "usa_europe", "japan"])
def test_seed_values_untouched(nation):
    """Only lists the seed left empty were filled; a list it had stays exactly as it was."""
    old = {r["id"]: r for r in _at(BASE, nation)["records"]}
    new = {r["id"]: r for r in yaml.safe_load((DATA / nation / "gun.yaml").read_text())["records"]}
    assert old.keys() <= new.keys()
    for rid, o in old.items():
        n = new[rid]
        pairs = [(o.get("penetration"), n.get("penetration"))]
        pairs += [
            (oa.get("penetration"), na.get("penetration"))
            for oa, na in zip(o.get("ammo", []), n.get("ammo", []), strict=True)
        ]
        for before, after in pairs:
            if before:
                assert after == before, rid
            elif after:
                items = after if isinstance(after, list) else [after]
                assert all(i["provenance"] in ("placeholder", "historical") for i in items), rid
