"""Close combat beyond two bases touching in the open (pp. 17-19, Q&A 1 and 9 p111,
P305-P309): the +4 from the enemy's rear, contact across a wall or hedge, house-to-house
fighting floor by floor, passengers fighting from their vehicle, open-topped AFVs, and
disengaging. Each is played through the real engine on the scenario cqc.yaml."""

from __future__ import annotations

import json

import pytest

from kriegsspiel.engine import Game, IllegalCommand, load_scenario
from kriegsspiel.rulesets.panzerfaust.game import floors, melee, melee_groups

from .conftest import HERE, Dice
from .test_melee_groups import _end_platoons, _hold_fire

CQC = HERE / "cqc.yaml"


def _game(seed: int = 1) -> Game:
    return Game(load_scenario(CQC), seed=seed)


def _orders(*orders: tuple[str, dict]):
    """A phase F hook giving each order when its element's platoon may be commanded."""
    todo = list(orders)

    def hook(game: Game, side: str) -> bool:
        for o in list(todo):
            s, cmd = o
            if s != side:
                continue
            pid = game.state.elements[cmd["unit"]].platoon
            legal = game.legal_commands(side)
            if any(c.get("platoon") == pid for c in legal if c["type"] == "end_platoon"):
                todo.remove(o)
                game.submit(side, cmd)
                return True
        return False

    return hook


def _play(game: Game, *orders: tuple[str, dict]) -> list:
    """Phase D ends, phase F with `orders`, every firer holds, the melees are fought: the
    `melee` events of the turn."""
    start = len(game.events)
    _end_platoons(game, _orders(*orders))
    _hold_fire(game)
    return [e for e in game.events[start:] if e.type == "melee"]


def _fight(events: list, uid: str):
    return next(e for e in events if uid in json.dumps(e.data["sides"]))


def _lines(game: Game, *ids: str) -> list[str]:
    """The explanation of the combat now due that holds all of `ids`, rolled with 3s."""
    st = game.state
    combat = next(
        c for c in melee_groups.combats(st) if set(ids) <= {i for _, m in c.sides for i in m}
    )
    drafts = melee.resolve(st, combat, Dice(3, 3))
    return [x for d in drafts if d.type == "melee" for x in d.explanation]


# ----------------------------------------------------------------------------- the rear
def test_attacking_from_behind_the_rear_edge_gets_plus_four_p18():
    """p18-19: a German team moves in wholly behind the rear edge of a Soviet team that faces
    away: its roll reads +4; the Soviet roll does not. The log names it."""
    game = _game()
    fights = _play(game, ("germany", {"type": "move", "unit": "g-back", "path": [[200, 124]]}))
    fight = _fight(fights, "g-back")
    german = fight.explanation[fight.explanation.index("attacker's roll (p18)") :]
    soviet = german[german.index("defender's roll (p18)") :]
    german = german[: german.index("defender's roll (p18)")]
    assert fight.data["attacker"] == "germany"
    assert any("attacking from the enemy's rear +4" in x for x in german)
    assert not any("rear" in x for x in soviet)


def test_from_the_side_or_standing_still_is_no_rear_attack():
    """Beside the target (not wholly behind its rear edge) or without moving in: no +4;
    with option cqc_rear=half the side-behind position counts (P305)."""
    game = _game()
    st = game.state
    g, s = st.elements["g-back"], st.elements["s-front"]
    g.x, g.y = 203.5, 122.0  # behind the middle, not wholly behind the rear edge
    g.moved = 2.0
    assert melee_groups.foes(st, g) == [s]
    assert not melee_groups.side_of(st, g).from_rear
    half = Game(load_scenario(CQC), seed=1, options={"cqc_rear": "half"}).state
    h = half.elements["g-back"]
    h.x, h.y, h.moved = 203.5, 122.0, 2.0
    assert melee_groups.side_of(half, h).from_rear
    g.x, g.y, g.moved = 200.0, 124.0, 0.0  # wholly behind, but it was there already
    st.cache.clear()
    assert melee_groups.foes(st, g) == [s]
    assert not melee_groups.side_of(st, g).from_rear


# ----------------------------------------------------------------------------- walls
def test_across_a_wall_both_touching_it_fight_each_behind_hard_cover_p17():
    """p17: with a wall between them, both bases must touch the wall (here their centres are
    5.4 cm apart, beyond base contact); each is behind the wall: -5 on the other's roll
    (p18)."""
    game = _game()
    st = game.state
    g, s = st.elements["g-wall"], st.elements["s-wall"]
    assert melee_groups.foes(st, g) == [s]
    assert melee_groups.side_of(st, g).cover == "hard"
    assert melee_groups.side_of(st, s).cover == "hard"
    lines = _lines(game, "g-wall", "s-wall")
    assert sum("enemy in hard cover -5" in x for x in lines) == 2
    g.y = 56.9  # 3.1 cm from the wall's line: no longer touching it
    st.cache.clear()
    assert melee_groups.foes(st, g) == []


def test_a_blank_wall_stops_close_combat_and_a_hedge_is_soft_cover_p17_p18():
    """A wall over figure height without doors or windows: no CQC (p17). A hedge: contact
    across it, each behind soft cover (-1, p18)."""
    game = _game()
    st = game.state
    assert melee_groups.foes(st, st.elements["g-blank"]) == []
    g, s = st.elements["g-hedge"], st.elements["s-hedge"]
    assert melee_groups.foes(st, g) == [s]
    lines = _lines(game, "g-hedge", "s-hedge")
    assert sum("enemy in soft cover -1" in x for x in lines) == 2


def test_a_team_that_charged_up_to_a_wall_has_no_hard_cover_from_it():
    """p18: hard cover is not for units that move into CQC: the German team that moved up
    to the wall fights without cover; the Soviet team behind it keeps its -5 (P306)."""
    game = _game()
    st = game.state
    g = st.elements["g-wall"]
    g.y = 55.0
    fights = _play(game, ("germany", {"type": "move", "unit": "g-wall", "path": [[60, 57.3]]}))
    fight = _fight(fights, "g-wall")
    assert fight.data["attacker"] == "germany"
    text = fight.explanation
    cut = text.index("defender's roll (p18)")
    assert any("enemy in hard cover -5" in x for x in text[:cut])  # the German roll
    assert not any("cover" in x for x in text[cut:])  # the Soviet roll: the German is open


# ----------------------------------------------------------------------------- floors
def test_house_to_house_same_floor_fights_whatever_the_distance_other_floors_not_p19():
    """p17, p19: the German at the door and the Soviet team downstairs are in CQC across the
    room (15 cm apart); the Soviet team upstairs is not. Both downstairs claim hard cover."""
    game = _game()
    st = game.state
    door, down, up = (st.elements[i] for i in ("g-door", "s-down", "s-up"))
    assert melee_groups.foes(st, door) == [down]
    assert melee_groups.foes(st, up) == []
    assert melee_groups.side_of(st, door).cover == "hard"
    assert melee_groups.side_of(st, down).cover == "hard"
    view = game.view("ussr")
    mine = {p["id"]: p for p in view["units"] if p["id"] in ("s-up", "s-down")}
    assert mine["s-up"]["floor"] == 1 and mine["s-down"]["floor"] == 0


def test_climbing_to_assault_a_floor_only_the_defender_has_hard_cover_p19():
    """p19: with the room downstairs cleared, the German team goes up the stairs to the Soviet
    team upstairs: they fight on that floor, the defender in hard cover, the assaulting team
    (it moved, the stairs being its whole move) in none."""
    game = _game()
    st = game.state
    st.elements["s-down"].lost = True  # the room downstairs is clear
    start = len(game.events)
    _end_platoons(game, _orders(("germany", {"type": "climb", "unit": "g-door", "floor": 1})))
    door = st.elements["g-door"]
    assert door.floor == 1 and door.moved > 0
    climbed = next(e for e in game.events[start:] if e.type == "climb")
    assert any("placeholder" in x for x in climbed.explanation)
    assert melee_groups.foes(st, door) == [st.elements["s-up"]]
    assert melee_groups.side_of(st, door).cover == "none"
    assert melee_groups.side_of(st, st.elements["s-up"]).cover == "hard"
    _hold_fire(game)
    fight = _fight([e for e in game.events[start:] if e.type == "melee"], "s-up")
    assert fight.data["attacker"] == "germany"
    text = fight.explanation
    cut = text.index("defender's roll (p18)")
    assert any("enemy in hard cover -5" in x for x in text[:cut])
    assert not any("cover" in x for x in text[cut:])


def test_climb_refusals():
    game = _game()
    for s in game.sides:
        game.submit(s, {"type": "end_phase"})
    st = game.state
    while game.rules.active_sides(st)[0] != "germany":
        side = game.rules.active_sides(st)[0]
        game.submit(side, next(c for c in game.legal_commands(side) if c["type"] == "end_platoon"))
    with pytest.raises(IllegalCommand, match="not in a building"):
        game.submit("germany", {"type": "climb", "unit": "g-wall", "floor": 1})
    with pytest.raises(IllegalCommand, match="floors 0 to 1"):
        game.submit("germany", {"type": "climb", "unit": "g-door", "floor": 2})
    offered = [c for c in game.legal_commands("germany") if c["type"] == "climb"]
    assert offered == [{"type": "climb", "unit": "g-door", "floor": 1}]


def test_a_floor_outside_a_building_is_refused_at_load():
    """A scenario's `floor` is checked when the game is built (floors.check_placed)."""
    st = _game().state
    e = st.elements["g-wall"]
    e.floor = 1
    with pytest.raises(ValueError, match="floor 1"):
        floors.check_placed(st, e)
    e.floor = 0
    floors.check_placed(st, st.elements["s-up"])  # upstairs in the two-storey house


# ----------------------------------------------------------------------------- passengers
def test_passengers_fight_from_their_half_track_p19():
    """p19: the half-track drives into contact with a Soviet team: the team aboard fights,
    -2 for riding, in hard cover (an armoured carrier); the half-track itself does not."""
    game = _game()
    fights = _play(game, ("germany", {"type": "move", "unit": "g-251", "path": [[100, 102]]}))
    fight = _fight(fights, "g-riders")
    sides = dict(fight.data["sides"])
    assert sides == {"germany": ["g-riders"], "ussr": ["s-road"]}
    text = fight.explanation
    cut = text.index("defender's roll (p18)")
    assert any("riding a vehicle -2" in x for x in text[:cut])
    assert any("enemy in hard cover -5" in x for x in text[cut:])


def test_passengers_who_fall_leave_their_vehicle():
    """The melee's record landing a team lost by the riders: they leave the half-track's
    load (the dice are set aside: behind the carrier's armour they rarely fall)."""
    game = _game()
    st = game.state
    ht = st.elements["g-251"]
    ht.y = 102.0
    combat = next(c for c in melee_groups.combats(st) if "g-riders" in dict(c.sides)["germany"])
    fight = next(d for d in melee.resolve(st, combat, Dice(3, 3)) if d.type == "melee")
    data = {**fight.data, "results": [{"target": "g-riders", "result": "lost_1"},
                                      {"target": "s-road", "result": "lost_0"}]}  # fmt: skip
    game.rules.folds["melee"](st, data, None)
    assert st.elements["g-riders"].lost and "g-riders" not in ht.carrying
    assert not ht.lost


# ----------------------------------------------------------------------------- open AFVs
def test_infantry_assault_an_open_topped_afv_its_crew_fights_as_one_team_qa9():
    """Q&A 9 (p111), p19: Soviet SMG teams move into contact with two open-topped tank
    hunters from behind. The crews fight as the Open Topped AFV Crew row (CQC 1, p18): the
    Marder II, open only on top, in hard cover; the Marder III, open at the rear, in none.
    Both Soviet rolls read the +4 from the rear."""
    game = _game()
    st = game.state
    hook = _orders(
        ("ussr", {"type": "move", "unit": "s-near", "path": [[160, 105]]}),
        ("ussr", {"type": "move", "unit": "s-behind", "path": [[200, 105]]}),
    )
    seen = {}

    def spy(g: Game, side: str) -> bool:
        acted = hook(g, side)
        for uid in ("g-marder", "g-marder3"):
            e = st.elements[uid]
            if melee_groups.foes(st, e):
                seen[uid] = melee_groups.side_of(st, e)
        return acted

    start = len(game.events)
    _end_platoons(game, spy)
    assert seen["g-marder"].cover == "hard" and seen["g-marder3"].cover == "none"
    assert seen["g-marder"].teams[0][0].cqc == 1
    _hold_fire(game)
    fights = [e for e in game.events[start:] if e.type == "melee"]
    for uid in ("g-marder", "g-marder3"):
        fight = _fight(fights, uid)
        assert fight.data["attacker"] == "ussr"
        assert "attacker CQC factors 6, defender 1 (p18)" in fight.explanation
        assert any("attacking from the enemy's rear +4" in x for x in fight.explanation)


def test_an_open_afv_whose_crew_falls_is_abandoned_not_brewed_up():
    game = _game()
    st = game.state
    m = st.elements["g-marder3"]
    st.elements["s-behind"].y = 105.0
    st.elements["s-behind"].moved = 5.0
    combat = next(c for c in melee_groups.combats(st) if "g-marder3" in dict(c.sides)["germany"])
    drafts = melee.resolve(st, combat, Dice(6, 1))  # 6 factors at +5: the crew falls
    fight = next(d for d in drafts if d.type == "melee")
    assert {"target": "g-marder3", "result": "crew_lost"} in fight.data["results"]
    assert any("abandoned" in x for x in fight.explanation)
    game.rules.folds["melee"](st, fight.data, None)
    assert m.lost and m.has("crew_lost") and not m.has("brewed_up")
    assert any(mk.kind == "wreck" for mk in st.markers.values())


def test_a_buttoned_up_afv_cannot_be_assaulted_qa1():
    """Q&A 1 (p111): no CQC with an AFV that is not open at the top, sides or rear: the
    half-track's (closed) hull touched by a Soviet team makes no melee of its own."""
    game = _game()
    st = game.state
    ht = st.elements["g-251"]
    ht.carrying.clear()
    st.elements["g-riders"].transport = None
    st.elements["g-riders"].x = 10.0
    st.elements["s-road"].y = 104.0
    st.cache.clear()
    assert melee_groups.foes(st, st.elements["s-road"]) == []


# ----------------------------------------------------------------------------- disengaging
def test_disengaging_fights_once_more_at_plus_one_then_steps_back_p18():
    """pp. 18-19: the German team in contact may not simply walk away; it disengages (1 pip):
    in this turn's melee the Soviet roll reads +1 for the enemy disengaging, and afterwards
    the German team stands out of contact. The melee is over next turn."""
    game = _game(seed=3)
    st = game.state
    refused = []

    def walk(g: Game, side: str) -> bool:
        if side == "germany" and not refused:
            with pytest.raises(IllegalCommand) as err:
                g.submit(side, {"type": "move", "unit": "g-out", "path": [[200, 15]]})
            refused.append(str(err.value))
        return False

    hook = _orders(("germany", {"type": "disengage", "unit": "g-out"}))
    start = len(game.events)
    _end_platoons(game, lambda g, side: walk(g, side) or hook(g, side))
    assert "may only disengage" in refused[0]
    assert st.elements["g-out"].has("disengaging")
    _hold_fire(game)
    fight = _fight([e for e in game.events[start:] if e.type == "melee"], "g-out")
    text = fight.explanation
    ussr_roll = text[text.index("attacker's roll (p18)") : text.index("defender's roll (p18)")]
    if fight.data["attacker"] != "ussr":
        ussr_roll = text[text.index("defender's roll (p18)") :]
    assert any("enemy disengaging +1" in x for x in ussr_roll)
    g = st.elements["g-out"]
    assert not g.has("disengaging")
    if not g.lost:
        assert melee_groups.foes(st, g) == []
        assert any("steps back" in x for x in text)


def test_a_shaken_platoon_in_a_melee_disengages_instead_of_withdrawing_p19_p334():
    """p19: the +1 applies also when bad morale makes the enemy disengage. The German team in
    contact belongs to a Shaken platoon with enemy infantry within 20 cm (p24: it must
    withdraw): at the start of phase F it does not walk off but disengages, free of pips; the
    melee is fought with the Soviet roll at +1 and the team then steps back."""
    game = _game(seed=3)
    st = game.state
    g = st.elements["g-out"]
    g.counters["shaken"] = 1  # the morale result is given, not what is tested (no replay)
    start = len(game.events)
    _end_platoons(game)
    forced = [e for e in game.events[start:] if e.type == "retreat_move" and e.data["moves"]]
    assert any(m["kind"] == "disengage" and m["unit"] == "g-out" for e in forced
               for m in e.data["moves"])  # fmt: skip
    assert any("P334" in x for e in forced for x in e.explanation)
    assert g.has("disengaging") and (g.x, g.y) == (200.0, 20.0)
    _hold_fire(game)
    fight = _fight([e for e in game.events[start:] if e.type == "melee"], "g-out")
    assert "enemy disengaging +1" in "\n".join(fight.explanation)
    assert not g.has("disengaging")
    if not g.lost:
        assert melee_groups.foes(st, g) == []


def test_disengage_refused_out_of_combat():
    game = _game()
    for s in game.sides:
        game.submit(s, {"type": "end_phase"})
    st = game.state
    while game.rules.active_sides(st)[0] != "germany":
        side = game.rules.active_sides(st)[0]
        game.submit(side, next(c for c in game.legal_commands(side) if c["type"] == "end_platoon"))
    offered = {c["unit"] for c in game.legal_commands("germany") if c["type"] == "disengage"}
    assert {"g-out", "g-wall", "g-hedge"} <= offered and "g-back" not in offered
    with pytest.raises(IllegalCommand, match="no close combat"):
        game.submit("germany", {"type": "disengage", "unit": "g-back"})
