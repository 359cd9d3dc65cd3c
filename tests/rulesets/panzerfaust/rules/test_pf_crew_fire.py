"""Small arms at AFV crews (p17; decisions P342, P344): the crew's cover by how the AFV is open
and where the fire comes from, the buttoned-up refusal, and what a kill does, with exact odds
worked by hand on the data's Infantry Casualty Table (its body the P53 placeholder)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kriegsspiel.chance import exact, sample
from kriegsspiel.data.errors import RuleError
from kriegsspiel.rulesets.panzerfaust.rules import crew_fire, infantry_fire
from kriegsspiel.rulesets.panzerfaust.rules.teams import parse_teams

THIRD = Fraction(1, 3)
ENCLOSED: tuple[str, ...] = ()
TOP = ("top",)
TOP_REAR = ("top", "rear")
TOP_SIDES_REAR = ("top", "sides", "rear")


@pytest.mark.parametrize(
    ("parts", "arc", "above", "cover"),
    [
        # p17 fully enclosed, commander head-up: hard cover
        (ENCLOSED, "front", False, "hard"),
        (ENCLOSED, "rear", True, "hard"),
        # p17 open topped: hard, none from within 45 degrees above
        (TOP, "front", False, "hard"),
        (TOP, "side", False, "hard"),
        (TOP, "rear", False, "hard"),
        (TOP, "front", True, "none"),
        # p17 open topped and rear: front hard, sides partial, rear none
        (TOP_REAR, "front", False, "hard"),
        (TOP_REAR, "side", False, "soft"),
        (TOP_REAR, "rear", False, "none"),
        (TOP_REAR, "front", True, "none"),
        # p17 open topped, sides and rear: front hard, sides and rear none
        (TOP_SIDES_REAR, "front", False, "hard"),
        (TOP_SIDES_REAR, "side", False, "none"),
        (TOP_SIDES_REAR, "rear", False, "none"),
        # P342: records open at the rear only, or at sides and rear, with a roof
        (("rear",), "side", False, "soft"),
        (("rear",), "rear", False, "none"),
        (("rear",), "front", True, "hard"),
        (("sides", "rear"), "side", True, "none"),
        (("sides", "rear"), "front", True, "hard"),
    ],
)
def test_p17_crew_cover(parts, arc, above, cover):
    assert crew_fire.crew_cover(parts, arc, above) == cover


def test_p17_buttoned_up_cannot_be_hurt_open_tops_always_can():
    assert "closed down cannot be hurt by small arms (p17)" in crew_fire.why_safe(ENCLOSED, True)
    assert crew_fire.why_safe(ENCLOSED, False) is None  # commander head-up
    assert crew_fire.why_safe(TOP, True) is None  # heads down is for sight only (P341)


def _shot(R, lmgs: int, cover: str, parts=ENCLOSED, omt=False) -> crew_fire.CrewShot:
    teams = parse_teams(R.cat, f"common/lmg-team-belt:{lmgs}")
    fire = infantry_fire.Fire(teams, 20.0, cover=cover, afv_crew=True)
    return crew_fire.CrewShot(fire, parts, omt)


def test_p17_head_up_commander_killed_two_in_three_by_three_belt_lmgs(R):
    """3 belt LMG teams at 20 cm: 9 factors (P53: 3 each), read in the table's 10 column; hard
    cover -6; chance -1/0/+1 -> variation -7/-6/-5 -> 0/1/1 teams (P53 placeholder body):
    the commander dies two times in three (p17)."""
    d = exact(crew_fire.crew_fire, R, _shot(R, 3, "hard"))
    assert dict(d.probs) == {"commander_killed": 2 * THIRD, "lost_0": THIRD}


def test_p17_one_man_turret_bails_out_on_the_same_odds(R):
    d = exact(crew_fire.crew_fire, R, _shot(R, 3, "hard", omt=True))
    assert dict(d.probs) == {"bailed_out": 2 * THIRD, "lost_0": THIRD}


def test_p17_open_afv_crew_lost_with_no_cover(R):
    """No cover: variation -1/0/+1 -> 2/3/3 teams on the 10 column: the crew (one team) is
    lost whatever the die; a crew is never more than one team lost."""
    d = exact(crew_fire.crew_fire, R, _shot(R, 3, "none", TOP_REAR))
    assert dict(d.probs) == {"crew_lost": Fraction(1)}


def test_p17_explanation_names_the_crew_cover_and_the_outcome(R):
    out = sample(crew_fire.crew_fire, R, _shot(R, 3, "hard"), dice_script=[6])
    assert out.result.name == "commander_killed"
    lines = out.lines()
    assert any("AFV crew (p17) in hard cover -6" in line for line in lines)
    assert any("closed down for the rest of the game" in line for line in lines)


def _action(cat, **p):
    from kriegsspiel.rulesets.panzerfaust.actions import ACTIONS
    from kriegsspiel.rulesets.panzerfaust.options import Options

    base = dict(teams="lmg-team-belt", range=20.0, arc="front", from_above=False,
                closed_down=False, target_moving="none", firer_moved=False,
                troop_class="regular", weather="clear")  # fmt: skip
    q = ACTIONS["crew-fire"].build(cat, Options(), **(base | p))
    return dict(exact(q.fn, *q.args).probs)


def test_p17_the_odds_action_reads_the_afv_record(cat):
    """`odds panzerfaust crew-fire`: one belt LMG (3 factors, P53) at the SU-76 (open top and
    rear, data): from the side partial cover, -2 -> variation -3/-2/-1 -> 0/0/1 teams on the 3
    column; from the rear none -> -1/0/+1 -> 1/1/1; the T-60's head-up commander (one-man
    turret) in hard cover never falls to one LMG; a closed-down T-34 is refused."""
    assert _action(cat, target="ussr/su-76", arc="side") == {
        "crew_lost": THIRD,
        "lost_0": 2 * THIRD,
    }
    assert _action(cat, target="ussr/su-76", arc="rear") == {"crew_lost": Fraction(1)}
    assert _action(cat, target="ussr/t-60", arc="rear") == {"lost_0": Fraction(1)}
    with pytest.raises(RuleError, match=r"closed down cannot be hurt by small arms \(p17\)"):
        _action(cat, target="ussr/t-34-76-m1943", closed_down=True)
