"""Infantry direct fire (pp. 13-17) and close quarter combat (pp. 17-19): the procedure with
hand-summed fire factors and variations, read on the Infantry Casualty Table of the data (its
body is the P53 placeholder, reported), and the worked examples nos. 6, 7, 9, 10."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kriegsspiel.chance import exact, sample
from kriegsspiel.data.errors import RuleError
from kriegsspiel.rulesets.panzerfaust.rules import cqc, infantry_fire
from kriegsspiel.rulesets.panzerfaust.rules.casualty import allocate, teams_lost
from kriegsspiel.rulesets.panzerfaust.rules.teams import parse_teams

THIRD = Fraction(1, 3)


def fire(R, teams="common/rifle-team:3,common/lmg-team-belt", rng=20.0, **kw):
    return infantry_fire.Fire(parse_teams(R.cat, teams), rng, **kw)


def lost_by_variation(R, factors: int, base: int) -> dict[int, Fraction]:
    """The chance die moves the variation by -1 / 0 / +1 with 1/3 each (p16), clamped."""
    out: dict[int, Fraction] = {}
    for shift in (-1, 0, 1):
        v = max(-9, min(7, base + shift))
        n, _ = teams_lost(R, factors, v)
        out[n] = out.get(n, Fraction(0)) + THIRD
    return out


def dist(R, f) -> dict[int, Fraction]:
    d = exact(infantry_fire.infantry_fire, R, f, key=lambda r: int(r.name.split("_")[1]))
    return dict(d.probs)


def test_three_rifles_and_a_belt_lmg_at_20cm(R):
    """p15: rifle teams 1 each and the belt LMG 3 in the first band -> 6 factors, no variation."""
    f = fire(R)
    assert dist(R, f) == lost_by_variation(R, 6, 0)
    out = sample(infantry_fire.infantry_fire, R, f, dice_script=[3])
    assert out.result.name == f"lost_{teams_lost(R, 6, 0)[0]}"
    assert any("infantry-casualty-table" in p for p in out.placeholders)


def test_hard_cover_veteran(R):
    """Hard cover -6, veteran firers +2 (p16): variation -4 before the chance die."""
    f = fire(R, cover="hard", troop_class="veteran")
    assert dist(R, f) == lost_by_variation(R, 6, -4)


def test_variation_clamps_at_minus_nine(R):
    """Fortification -8 and speculative -5: -13 reads as -9 whatever the chance die (p16)."""
    f = fire(R, cover="fortification", speculative=True)
    n, _ = teams_lost(R, 6, -9)
    assert dist(R, f) == {n: 1}
    out = sample(infantry_fire.infantry_fire, R, f, dice_script=[6])
    assert any("clamped to -9" in line for line in out.lines())


def test_moving_prone_second_band(R):
    """40 cm: rifles 1, belt LMG 3 (band 2); target moving over 10 cm -2 and prone -2."""
    f = fire(R, rng=40, target_moving="over10", prone=True)
    assert dist(R, f) == lost_by_variation(R, 6, -4)


def test_over_100_factors_split_p16(R):
    """Totals over 100 are read as a 100 group plus the remainder (p16)."""
    assert teams_lost(R, 130, 0)[0] == teams_lost(R, 100, 0)[0] + teams_lost(R, 30, 0)[0]
    assert teams_lost(R, 0, 7) == (0, ())


def test_losses_spread_over_squads_p14():
    """Example p14: three squads fired on together lose three teams -> one each."""
    assert allocate(3, 3) == (1, 1, 1)
    assert allocate(4, 3) == (2, 1, 1)
    assert sum(allocate(7, 2)) == 7


def test_extra_barrels_p16(R):
    """Example p16: a quad 20 mm gets +6, a twin HMG +2 (+2 per extra barrel)."""
    quad = infantry_fire.variations(R, fire(R, extra_barrels=3))
    twin = infantry_fire.variations(R, fire(R, extra_barrels=1))
    assert sum(m.value for m in quad) == 6 and sum(m.value for m in twin) == 2


def test_covering_fire_width_p17():
    """Example p17: three LMGs and one MMG cover six base-widths."""
    assert infantry_fire.covering_fire_width({"lmg": 3, "mmg": 1}) == 6
    assert infantry_fire.covering_fire_width({"smg": 2, "hmg": 1}) == 3
    with pytest.raises(RuleError, match="cannot give covering fire"):
        infantry_fire.covering_fire_width({"rifle": 1})


def test_beyond_the_teams_bands(R):
    with pytest.raises(RuleError, match="beyond its longest band"):
        exact(infantry_fire.infantry_fire, R, fire(R, rng=101))


def test_bad_team_spec(R):
    with pytest.raises(RuleError, match="not a number"):
        parse_teams(R.cat, "common/rifle-team:x")
    with pytest.raises(RuleError, match="no teams"):
        parse_teams(R.cat, " , ")


# ----------------------------------------------------------------------------- CQC


def side(R, teams, **kw) -> cqc.Side:
    return cqc.Side(parse_teams(R.cat, teams), **kw)


def cqc_dist(R, a, d) -> dict[tuple[int, int], Fraction]:
    out = exact(cqc.cqc, R, a, d, key=lambda r: (r.get("defender_lost"), r.get("attacker_lost")))
    return dict(out.probs)


def product(da: dict[int, Fraction], dd: dict[int, Fraction]) -> dict:
    out: dict[tuple[int, int], Fraction] = {}
    for x, p in da.items():
        for y, q in dd.items():
            out[(x, y)] = out.get((x, y), Fraction(0)) + p * q
    return out


def test_cqc_rifles_against_smgs(R):
    """p18: rifle teams CQC 2 each (6), SMG teams 6 each (12); both read simultaneously."""
    a, d = side(R, "common/rifle-team:3"), side(R, "common/smg-team:2")
    assert cqc.factors(R, a) == 6 and cqc.factors(R, d) == 12
    assert cqc_dist(R, a, d) == product(lost_by_variation(R, 6, 0), lost_by_variation(R, 12, 0))


def test_cqc_defender_in_hard_cover_attacker_from_rear(R):
    """Attacker: enemy in hard cover -5, attacking from the rear +4; defender: no variation."""
    a = side(R, "common/rifle-team:3", from_rear=True)
    d = side(R, "common/smg-team:2", cover="hard")
    assert cqc_dist(R, a, d) == product(lost_by_variation(R, 6, -1), lost_by_variation(R, 12, 0))


def test_cqc_pinned_option_changes_the_result(R):
    """Decision P73: the p18 table's -3 for pinned (default) or the p19 text's -2."""
    a = side(R, "common/rifle-team:3", pinned=True, troop_class="veteran")
    d = side(R, "common/smg-team:2")
    table = cqc_dist(R, a, d)
    text = cqc_dist(R.with_options(cqc_pinned="text"), a, d)
    assert table == product(lost_by_variation(R, 6, -1), lost_by_variation(R, 12, 0))
    assert text == product(lost_by_variation(R, 6, 0), lost_by_variation(R, 12, 0))
    assert table != text


def test_worst_variables_p18_step_2(R):
    """p18 step 2: a melee that cannot be split fights with each variable at its worst for the
    side, its teams summed. With the table's "enemy charged -1" (P73) charging helps the
    charger, so the worst is not to have charged; with the other sign it is to have charged."""
    moved = side(R, "common/rifle-team", charged=True, troop_class="veteran")
    still = side(R, "common/smg-team", cover="hard", pinned=True)
    w = cqc.worst(R, [moved, still])
    assert cqc.factors(R, w) == 2 + 6
    assert (w.charged, w.cover, w.pinned, w.troop_class) == (False, "none", True, "regular")
    assert cqc.worst(R.with_options(cqc_enemy_charged="plus_one"), [moved, still]).charged
    assert cqc.worst(R, [moved]) == moved


def test_lost_cqc_factor_is_refused(R):
    """The belt LMG's CQC factor was lost (p18): a clear error, not a guess."""
    with pytest.raises(RuleError, match="CQC factor was lost"):
        cqc.factors(R, side(R, "common/lmg-team-belt"))
