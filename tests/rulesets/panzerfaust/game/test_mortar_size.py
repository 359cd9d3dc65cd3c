"""The observation size of an on-table mortar team (p8 target sizes; decisions P129, P352,
P353), on the test scenario `mortar_carrier.yaml` with two German mortar teams added in the
open, within sight of the US platoon HQ team.

Golden values, by hand: p8 puts mortars under 95 mm in size A and those of 95 mm and over in
size B, so an 81 mm team is A and a 120 mm team B. The p8 Observation Table's open-terrain
cells were lost in the seed; the shipped placeholder row (P83) reads A 100 cm, B 150 cm. A
stationary observer, a target that has neither moved nor fired, no camouflage, clear weather:
no p8 multiplier applies, so the range is the table cell itself."""

from __future__ import annotations

import pytest

from kriegsspiel.engine import Game, load_scenario
from kriegsspiel.engine.scenario import Scenario
from kriegsspiel.rulesets.panzerfaust.game import build, sight
from kriegsspiel.rulesets.panzerfaust.rules.tables import rules

from .conftest import HERE

SCENARIO = HERE / "mortar_carrier.yaml"
OBSERVER = "u-inf-hq"  # at (75, 30), facing north (0 degrees: towards the Germans)


def _raw(*teams: dict) -> dict:
    """The scenario with `teams` added to the German infantry platoon."""
    raw = load_scenario(SCENARIO).model_dump(exclude_none=True)
    raw["forces"]["germany"]["companies"][0]["platoons"][1]["teams"] += list(teams)
    return raw


def _game(*teams: dict) -> Game:
    return Game(Scenario.model_validate(_raw(*teams)), seed=3)


def _team(uid: str, row: str, x: float) -> dict:
    return {"id": uid, "type": f"battery:{row}", "x": x, "y": 90.0, "facing": 180}


@pytest.fixture(scope="module")
def game() -> Game:
    return _game(
        _team("g-81", "germany/81mm-mortar", 45.0), _team("g-120", "germany/120mm-mortar", 105.0)
    )


def test_81mm_team_is_size_a_and_120mm_size_b(game):
    """p8: under 95 mm size A, 95 mm and over size B (no longer the C of a record with no size)."""
    assert game.state.elements["g-81"].size == "A"
    assert game.state.elements["g-120"].size == "B"


@pytest.mark.parametrize(("uid", "cm"), [("g-81", 100.0), ("g-120", 150.0)])
def test_observation_range_follows_the_p8_table(game, uid, cm):
    """Open terrain, no multiplier: size A 100 cm, size B 150 cm (p8 table, placeholder P83)."""
    st = game.state
    tgt, obs = st.elements[uid], st.elements[OBSERVER]
    assert st.board.sight_row(tgt.x, tgt.y) == "open_desert"
    assert sight.reach(st, obs, tgt) == cm


@pytest.mark.parametrize(
    ("weapon", "size"),
    [("94mm mortar", "A"), ("95mm mortar", "B"), ("45-60mm mortar", "A"), ("medium mortar", "B")],
)
def test_the_95mm_line(weapon, size):
    """p8's line at 95 mm: 94 A, 95 B; a range of calibres reads its top (60); a p35 class
    whose calibre was lost ("medium", above 82 mm) is B (P352)."""
    rec = rules().cat.get("battery", "germany/81mm-mortar").model_copy(update={"weapon": weapon})
    assert build.mortar_size(rec) == size


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("japan/mortar-3", "the calibre of this mortar row was lost ('mm mortar')"),
        ("germany/105mm-battery", "is a gun battery row, fired from off the table"),
        ("common/rocket-m-8", "is a rocket battery row, fired from off the table"),
    ],
)
def test_a_piece_without_a_p8_size_is_refused(row, message):
    """A mortar row whose calibre was lost (P352), and a gun or rocket row (P353), cannot be a
    piece: the game refuses the scenario naming the team and the reason."""
    with pytest.raises(ValueError, match="team g-x: ") as err:
        _game({"id": "g-x", "type": f"battery:{row}", "x": 40.0, "y": 90.0})
    assert message in str(err.value)


def test_the_belgian_sidecar_is_size_a_like_every_motorcycle_chart_row():
    """Its size was lost (so it fell to C); its row ends in 'A', as every other motorcycle and
    sidecar row of the charts reads (P353)."""
    cat = rules().cat
    assert build.observation_size(cat.get("softskin", "belgium/fnh-m12-sidecar")) == "A"
    assert build.observation_size(cat.get("softskin", "italy/moto-gilera-marte")) == "A"
