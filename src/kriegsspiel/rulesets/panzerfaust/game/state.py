"""The state of a Panzerfaust game (seed 000): companies of platoons of elements (teams, guns,
AFVs, softskins), their counters (p112), the table's markers, pips, spotting and the phase.

Plain data changed only by folding events (rules.py `apply`); `to_json` feeds the state hash.
A counter on an element is a name in `Element.counters` (value: turns left, or 1 for "on");
the names a game may use are `COUNTERS` (add one there, or in a phase module's `COUNTERS`).
Table markers (POA, beaten zone, smoke, mines, CF zones) are `Marker`s with who may see them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ....engine.aliases import Aliases
from ....engine.flow import ActivationQueue
from ....engine.scenario import Scenario

# the counters of p112 carried by an element (value = turns left, or 1)
COUNTERS = (
    "pinned",  # inside an enemy covering-fire zone (p17)
    "shaken",  # morale result, turns left (p24)
    "retreat",  # morale result (p24)
    "stunned",  # AT effect, turns left (p31)
    "hull_damaged",  # immobilised (p31)
    "gun_damaged",  # p31
    "brewed_up",  # destroyed AFV, a wreck that blocks sight (p8)
    "camouflaged",  # p9
    "dug_in",  # p38
    "closed_down",  # an AFV's crew closed down (p8/p9)
    "set_up",  # a support weapon set up to fire (p12); a gun set up for limbered fire (p33)
    "riders_off",  # an AFV whose tank riders must get down next turn (p28, rider_alarm.py)
)
MARKERS = ("cf", "poa", "bz", "smoke", "mines", "dummy", "wreck")

KINDS = {  # record kind -> element kind
    "infantry_team": "infantry",
    "afv": "afv",
    "gun": "gun",
    "motorised_gun": "motorised_gun",
    "softskin": "softskin",
    "infantry_weapon": "infantry",  # a team named by its weapon (Panzerschreck, AT rifle ...)
    "battery": "infantry",  # an on-table light mortar team, bought as a battery row (P129)
}


@dataclass
class Element:
    """One base or model: an infantry team, a gun, an AFV, a softskin (p6 organisation)."""

    id: str
    side: str
    type: str  # the data record's id
    kind: str  # infantry | gun | afv | motorised_gun | softskin
    name: str
    company: str
    platoon: str
    x: float | None  # None: still to deploy (hidden deployment)
    y: float | None
    facing: float = 0.0  # hull (or base front) facing, degrees clockwise from north (+y)
    turret: float | None = None  # turret facing of a turreted AFV
    size: str = "A"  # observation size A-D (p8)
    troop_class: str = "regular"
    morale: str = "reliable"
    hq: str | None = None  # "company" | "platoon": this element is that HQ
    radio: bool = False
    limbered: bool | None = None  # a towed gun: True while limbered (p33)
    tower: str | None = None  # a towed gun: the vehicle it is limbered (or limbering) to
    portee: bool = False  # a gun carried en portee on its tower's back (p34)
    portee_facing: str | None = None  # front | rear | all: how it was loaded (p34, P331)
    crew_in: str | None = None  # a gun whose crew rides apart, in this vehicle (p34)
    towing: str | None = None  # a vehicle: the gun it tows (or is limbering, unlimbering)
    job: dict[str, Any] | None = None  # a gun's (un)limbering in hand (game/towing.py)
    fires_from: int = 0  # a towed gun fires from this turn on (set-up time, p33)
    transport: str | None = None  # the vehicle carrying it (riders, passengers, towed guns)
    carrying: list[str] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=dict)
    lost: bool = False  # destroyed, surrendered or removed
    hidden: bool = False  # shown to the enemy only as a counter until it spots it (p5)
    exited: str | None = None
    # this turn
    moved: float = 0.0  # cm moved this turn
    path: list[list[float]] = field(default_factory=list)  # [x, y, cm-so-far] along its move
    fired: bool = False
    feature: str | None = None  # the terrain feature it is in (spotting, p8)
    floor: int = 0  # the floor of the building it is in (0: the ground; p19, P307)

    @property
    def on_table(self) -> bool:
        return not self.lost and self.exited is None and self.x is not None

    @property
    def active(self) -> bool:
        """On the table and not a passenger (on_table spelt out: asked millions of times)."""
        return (
            self.transport is None and self.x is not None and self.exited is None and not self.lost
        )

    def has(self, counter: str) -> bool:
        return self.counters.get(counter, 0) > 0


@dataclass
class Platoon:
    id: str
    side: str
    company: str
    name: str
    troop_class: str
    morale: str
    members: list[str]
    hq: str | None = None  # the platoon HQ element
    moved: bool = False  # has had its move in phase F this turn
    order: str | None = None  # move | leapfrog | defend (p7 group orders) this turn
    status: str = "ok"  # ok | shaken | retreat (the platoon's last morale result)
    written_off: list[str] = field(default_factory=list)  # losses a regroup cleared (p24)


@dataclass
class Company:
    id: str
    side: str
    name: str
    troop_class: str
    morale: str
    platoons: list[str]
    hq: str | None = None  # the company HQ element
    pips: int = 0  # rolled in phase B (p7)
    spent: int = 0
    finished: bool = False  # spent its last pip on one element (p7)
    status: str = "ok"


@dataclass
class Marker:
    """A counter on the table, not on an element: CF zone, POA, beaten zone, smoke, mines."""

    id: str
    kind: str
    side: str | None
    x: float
    y: float
    radius: float = 0.0
    data: dict[str, Any] = field(default_factory=dict)
    visible_to: list[str] | None = None  # None: everyone


@dataclass
class State:
    scenario: Scenario
    aliases: Aliases
    options: dict[str, Any]
    sides: list[str]
    nations: dict[str, str]
    elements: dict[str, Element]
    platoons: dict[str, Platoon]
    companies: dict[str, Company]
    turn: int = 0
    phase: str = "setup"
    markers: dict[str, Marker] = field(default_factory=dict)
    queue: ActivationQueue | None = None  # phase F: platoons alternately (p6)
    fire_order: list[str] = field(default_factory=list)  # phase G: firers still to act, in order
    fire_step: int = 0
    # spotting (p8): observer element -> {target element: the feature it was seen in}
    spotted: dict[str, dict[str, str | None]] = field(default_factory=dict)
    seen: dict[str, list[str]] = field(default_factory=dict)  # side -> enemy ids observed now
    last_seen: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    # this turn (along_move.py): mover -> observer -> [[from cm, to cm], ...] of its path seen
    glimpses: dict[str, dict[str, list[list[float]]]] = field(default_factory=dict)
    flashes: dict[str, dict[str, Any]] = field(default_factory=dict)  # side -> alias -> flash
    phase_data: dict[str, Any] = field(default_factory=dict)  # a phase module's own data
    pregame: dict[str, Any] | None = None  # the pre-game record (game/pregame.py), if any
    cf_by: dict[str, str] = field(default_factory=dict)  # CF zone -> its firer (umpire's)
    offtable: dict[str, Any] = field(default_factory=dict)  # batteries and aircraft (support.py)
    regroups: dict[str, dict[str, Any]] = field(default_factory=dict)  # regroup.py (p24)
    # positions being dug in or camouflaged (fieldworks.py): the element whose position it is
    # -> {kind, workers, turns, need_turns, moves, need_moves}
    works: dict[str, dict[str, Any]] = field(default_factory=dict)
    # empty dug-in or camouflaged positions (fieldworks.py, P318): id -> {x, y, side, size,
    # counters}; `seats`: element -> the point of the position it took this turn
    positions: dict[str, dict[str, Any]] = field(default_factory=dict)
    seats: dict[str, list[float]] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    # derived from the scenario, never from events (not in the hash): the table, the rules'
    # tables and options, each element's data record
    board: Any = field(default=None, repr=False, compare=False)
    rules: Any = field(default=None, repr=False, compare=False)
    records: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def enemy(self, side: str) -> str:
        return next(s for s in self.sides if s != side)

    def side_elements(self, side: str) -> list[Element]:
        return [e for e in self.elements.values() if e.side == side]

    def to_json(self) -> dict[str, Any]:
        return {
            "elements": {k: asdict(e) for k, e in self.elements.items()},
            "platoons": {k: asdict(p) for k, p in self.platoons.items()},
            "companies": {k: asdict(c) for k, c in self.companies.items()},
            "turn": self.turn,
            "phase": self.phase,
            "markers": {k: asdict(m) for k, m in self.markers.items()},
            "queue": self.queue.to_json() if self.queue else None,
            "fire_order": list(self.fire_order),
            "fire_step": self.fire_step,
            "spotted": self.spotted,
            "seen": self.seen,
            "last_seen": self.last_seen,
            "glimpses": self.glimpses,
            "flashes": self.flashes,
            "phase_data": self.phase_data,
            "pregame": self.pregame,
            "cf_by": self.cf_by,
            "offtable": self.offtable,
            "regroups": self.regroups,
            "works": self.works,
            "positions": self.positions,
            "seats": self.seats,
            "result": self.result,
        }
