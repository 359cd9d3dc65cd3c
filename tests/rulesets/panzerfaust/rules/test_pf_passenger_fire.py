"""Small arms at the teams riding an AFV (p16-17, p28, p85; decision P349): their cover by where
they ride and how the vehicle is open, the casualties capped at the teams aboard, and the odds
action, with exact odds worked by hand on the data's Infantry Casualty Table (its body the P53
placeholder).

Hand work: 3 belt LMG teams at 20 cm give 9 factors (P53: 3 each), read in the table's 10
column, which gives 2/3/3 teams at variations -1/0/+1 (no cover), 1/2/2 at -3/-2/-1 (soft,
-2), 0/1/1 at -7/-6/-5 (hard, -6); the chance die moves the variation -1, 0, +1 with 1/3
each (p16)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kriegsspiel.chance import exact, sample
from kriegsspiel.data.errors import RuleError
from kriegsspiel.rulesets.panzerfaust.rules import infantry_fire, passenger_fire
from kriegsspiel.rulesets.panzerfaust.rules.teams import parse_teams

THIRD = Fraction(1, 3)


@pytest.mark.parametrize(
    ("parts", "arc", "above", "inside", "noted", "cover"),
    [
        # p16: tank riders soft, from every side, even from above
        ((), "front", False, False, None, "soft"),
        ((), "rear", True, False, None, "soft"),
        # p16 armoured APCs hard; p17 table for open parts (as the crew)
        ((), "rear", False, True, None, "hard"),
        (("top",), "side", False, True, None, "hard"),
        (("top",), "front", True, True, None, "none"),
        (("top", "rear"), "side", False, True, None, "soft"),
        (("top", "rear"), "rear", False, True, None, "none"),
        (("sides", "rear"), "side", False, True, None, "none"),
        # the notes win (the Komsomolet's open seats, p85)
        (("top",), "front", False, True, "none", "none"),
    ],
)
def test_p16_p17_passenger_cover(parts, arc, above, inside, noted, cover):
    assert passenger_fire.passenger_cover(parts, arc, above, inside, noted) == cover


def test_p349_an_enclosed_carrier_shields_only_under_open_only():
    assert passenger_fire.why_safe((), True, open_only=False) is None  # p16 hard cover
    assert "fully enclosed carrier" in passenger_fire.why_safe((), True, open_only=True)
    assert passenger_fire.why_safe(("top",), True, open_only=True) is None
    assert passenger_fire.why_safe((), False, open_only=True) is None  # tank riders


def _shot(R, cover: str, riding: int) -> passenger_fire.PassengerShot:
    teams = parse_teams(R.cat, "common/lmg-team-belt:3")
    fire = infantry_fire.Fire(teams, 20.0, cover=cover, aboard=True)
    return passenger_fire.PassengerShot(fire, riding)


@pytest.mark.parametrize(
    ("cover", "riding", "odds"),
    [
        # no cover: 2/3/3 teams; four aboard lose 2 (1/3) or 3 (2/3)
        ("none", 4, {"passengers_lost_2": THIRD, "passengers_lost_3": 2 * THIRD}),
        # two aboard: the third team's worth is wasted, both are lost for certain
        ("none", 2, {"passengers_lost_2": Fraction(1)}),
        # soft (tank riders): 1/2/2 teams
        ("soft", 4, {"passengers_lost_1": THIRD, "passengers_lost_2": 2 * THIRD}),
        ("soft", 1, {"passengers_lost_1": Fraction(1)}),
        # hard (an APC): 0/1/1
        ("hard", 3, {"passengers_lost_0": THIRD, "passengers_lost_1": 2 * THIRD}),
    ],
)
def test_p16_teams_lost_are_capped_at_the_teams_aboard(R, cover, riding, odds):
    assert dict(exact(passenger_fire.passenger_fire, R, _shot(R, cover, riding)).probs) == odds


def test_the_explanation_names_the_cover_and_the_waste(R):
    """Soft cover, chance die 6 (+1): variation -1, 2 teams on the 10 column; one rides."""
    out = sample(passenger_fire.passenger_fire, R, _shot(R, "soft", 1), dice_script=[6])
    assert out.result.name == "passengers_lost_1"
    lines = out.lines()
    assert any("passengers aboard in soft cover -2" in line for line in lines)
    assert any("2 teams' worth of casualties; only 1 ride: all are lost" in line for line in lines)


def _action(cat, **p):
    from kriegsspiel.rulesets.panzerfaust.actions import ACTIONS
    from kriegsspiel.rulesets.panzerfaust.options import Options

    opts = Options(**p.pop("opts", {}))
    base = dict(teams="lmg-team-belt", range=20.0, arc="front", from_above=False, riding=1,
                target_moving="none", firer_moved=False, troop_class="regular",
                weather="clear")  # fmt: skip
    q = ACTIONS["passenger-fire"].build(cat, opts, **(base | p))
    return dict(exact(q.fn, *q.args).probs)


def test_the_odds_action_reads_the_afv_record(cat):
    """`odds panzerfaust passenger-fire`: one belt LMG (3 factors, P53, the 3 column: 1 team at
    -1/0/+1, 0 from -2 down): tank riders on a T-34, soft -> -3/-2/-1 -> 0/0/1; the
    Komsomolet's seats (p85, none) -> 1 for certain; the M3's passengers (open top) hard from
    the ground, none from above; a BA-10's (no open part in the data) refused under
    `apc_passengers=open_only`."""
    assert _action(cat, target="ussr/t-34-76-m1943", riding=2) == {
        "passengers_lost_0": 2 * THIRD,
        "passengers_lost_1": THIRD,
    }
    assert _action(cat, target="ussr/komsomolet") == {"passengers_lost_1": Fraction(1)}
    assert _action(cat, target="usa_europe/m3-half-trk") == {"passengers_lost_0": Fraction(1)}
    assert _action(cat, target="usa_europe/m3-half-trk", from_above=True) == {
        "passengers_lost_1": Fraction(1)
    }
    assert _action(cat, target="ussr/ba-10") == {"passengers_lost_0": Fraction(1)}
    with pytest.raises(RuleError, match=r"BA-10: .*fully enclosed carrier"):
        _action(cat, target="ussr/ba-10", opts={"apc_passengers": "open_only"})
