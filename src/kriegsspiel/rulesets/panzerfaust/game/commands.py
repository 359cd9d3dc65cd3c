"""Panzerfaust commands as data (engine hook `command_models`): what each may carry, checked
before the rules see it (engine/command_schema.py). The rules then check what only the state
can tell (whose element, in sight, in range, this phase, pips left)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ....engine.command_schema import MAX_LISTED, Angle, CommandModel, Finite, Ident, Path
from ....engine.command_schema import Group as Idents


class EndPhase(CommandModel):
    """This side has nothing more to do in the phase (A, C, D, E, I)."""

    type: Literal["end_phase"]


class Cover(CommandModel):
    """Phase D: an element gives covering fire on a zone centred on (x, y) (p17); `floor`:
    only that floor of the building at (x, y) (p17, P338)."""

    type: Literal["cover"]
    unit: Ident
    x: Finite
    y: Finite
    floor: int | None = Field(default=None, ge=0, le=20)


class Move(CommandModel):
    """Phase F: one element of the platoon that moves now follows `path` (1 pip, p7)."""

    type: Literal["move"]
    unit: Ident
    path: Path
    facing: Angle | None = None  # the facing at the end (default: along the last leg)


class Group(CommandModel):
    """Phase F: a group order for the whole platoon (p7): `move` every element by (dx, dy),
    `leapfrog` half of them, or `defend` (stay put)."""

    type: Literal["group"]
    platoon: Ident
    order: Literal["move", "leapfrog", "defend"]
    dx: Finite = 0.0
    dy: Finite = 0.0


class Overrun(CommandModel):
    """Phase F: an AFV of the platoon that moves now drives over an enemy infantry element or
    gun it observes (`target`, an alias), along `path` (default: straight onto it) (1 pip;
    p111 Q&A 1, decision P288)."""

    type: Literal["overrun"]
    unit: Ident
    target: Ident
    path: Path | None = None


class EndPlatoon(CommandModel):
    """Phase F: the platoon that moves now has finished (unused pips are forfeit, p7)."""

    type: Literal["end_platoon"]
    platoon: Ident


class Fire(CommandModel):
    """Phase G: the element whose turn it is fires at a target it observes (an alias); `at`
    picks the point of a mover's path, in cm from its start (backtracking, p6); `floor`: HE
    area fire aimed at that floor of the building there (p32, P338); `crew` turns its small
    arms on the crew of an AFV target (p17), `passengers` on the teams riding it (p16-17)."""

    type: Literal["fire"]
    unit: Ident
    target: Ident
    at: float | None = Field(default=None, ge=0, le=1e4)
    floor: int | None = Field(default=None, ge=0, le=20)
    crew: bool = False
    passengers: bool = False


class CloseDown(CommandModel):
    """Phase F: an AFV of the platoon moving now closes its hatches (free; p8-9, p17)."""

    type: Literal["close_down"]
    unit: Ident


class OpenUp(CommandModel):
    """Phase F: an AFV of the platoon moving now opens up, its commander head-up (free; p8-9,
    p17)."""

    type: Literal["open_up"]
    unit: Ident


class Flame(CommandModel):
    """Phase G: the element whose turn it is uses its flamethrower or Molotovs (p16, p21) on a
    target it observes: one AFV, or every enemy soft target in the 30 degree arc (P290)."""

    type: Literal["flame"]
    unit: Ident
    target: Ident


class Smoke(CommandModel):
    """Phase G: the element whose turn it is fires smoke (or WP) at the point (x, y) (p33);
    `floor`: aimed at that floor of the building there (p32-33, P367-P369)."""

    type: Literal["smoke"]
    unit: Ident
    x: Finite
    y: Finite
    wp: bool = False
    floor: int | None = Field(default=None, ge=0, le=20)


class Hold(CommandModel):
    """Phase G: the element whose turn it is does not fire."""

    type: Literal["hold"]
    unit: Ident


class Dismount(CommandModel):
    """Phase F: a rider or passenger gets down beside its vehicle (1 pip; half its move, p12)."""

    type: Literal["dismount"]
    unit: Ident


class Embark(CommandModel):
    """Phase F: an infantry element within 5 cm of a vehicle of its side boards it (p12, p28)."""

    type: Literal["embark"]
    unit: Ident
    vehicle: Ident


class Disengage(CommandModel):
    """Phase F: an infantry base in close combat disengages (1 pip): it fights this turn's
    melee with its enemy at +1, then steps back out of contact (pp. 18-19)."""

    type: Literal["disengage"]
    unit: Ident


class Climb(CommandModel):
    """Phase F: an infantry base in a building goes up or down one floor (1 pip; its move for
    the turn), assaulting an enemy on that floor (p19)."""

    type: Literal["climb"]
    unit: Ident
    floor: int = Field(ge=0, le=20)


class Exit(CommandModel):
    """Phase F: an element within its move of a table edge leaves the table by it (1 pip):
    a breakthrough's way out (p5)."""

    type: Literal["exit"]
    unit: Ident
    edge: Literal["north", "south", "east", "west"]


class Rally(CommandModel):
    """Phase F: an HQ of the company within 5 cm of a Shaken or Retreating platoon tries to
    rally it (p24)."""

    type: Literal["rally"]
    unit: Ident  # the HQ element
    platoon: Ident


class Regroup(CommandModel):
    """Phase F: platoons of one company, each down by half or more and steady, gathered within
    a 10 cm radius, start to regroup (p24): the first named is the platoon moving now; after two
    moves stationary, not firing and not under fire they are reorganised at full strength."""

    type: Literal["regroup"]
    platoons: Idents


class Dig(CommandModel):
    """Phase F: the platoon's infantry teams start digging themselves in, all at once (p39)."""

    type: Literal["dig"]
    platoon: Ident


class Camouflage(CommandModel):
    """Phase F: camouflage the position of `unit` (p9), its own team or crew working with the
    `helpers` (infantry teams of its platoon beside it)."""

    type: Literal["camouflage"]
    unit: Ident
    helpers: list[Ident] = Field(default_factory=list, max_length=MAX_LISTED)


class Limber(CommandModel):
    """Phase F: limber the towed gun `unit` to the softskin `tower` within 5 cm, or pack up a
    gun set up to fire limbered (1 pip; the p33 size table's time, tower stationary); with
    `portee` load it onto the truck `tower` to be carried en portee (p34: one move more),
    pointing `facing` as its notes allow (default their first; P331)."""

    type: Literal["limber"]
    unit: Ident
    tower: Ident | None = None
    portee: bool = False
    facing: Literal["front", "rear", "all"] | None = None


class Unlimber(CommandModel):
    """Phase F: unlimber the towed gun `unit` from its tower (p33), unload it from its portee
    truck (p34), or with `limbered_fire` set it up to fire while still limbered (1 move, guns
    whose notes allow it, p33-34)."""

    type: Literal["unlimber"]
    unit: Ident
    limbered_fire: bool = False


class DebarkMortar(CommandModel):
    """Phase F: the crew of mortar carrier `unit` gets its mortar down beside the vehicle and
    sets it up there as a ground mortar team (notes p49, p63, p92; p12 times; P346)."""

    type: Literal["debark_mortar"]
    unit: Ident


class SetUpMortar(CommandModel):
    """Phase F: mortar team `unit`, put down with its mortar when its carrier was lost, sets the
    mortar up where it stands (p12 times; P351)."""

    type: Literal["set_up_mortar"]
    unit: Ident


class EmbarkMortar(CommandModel):
    """Phase F: the mortar team of carrier `unit`, within 5 cm of it, packs its mortar up and
    loads it back on the vehicle (p12 times; P348)."""

    type: Literal["embark_mortar"]
    unit: Ident
