"""The state of a quickref game: units, the turn and phase, plotted missions, pending results."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from operator import attrgetter
from typing import Any, Literal

Kind = Literal["vehicle", "infantry"]


@dataclass
class Unit:
    id: str
    side: str
    type: str  # Vehicle or Infantry record id
    kind: Kind
    name: str
    x: float
    y: float
    facing: float = 0.0
    # infantry
    stands: int = 1
    attached_mg: str | None = None  # infantry record id of an attached MG team
    at_weapon: str | None = None  # AT teams: the vehicle-chart record of their weapon
    suppressed: bool = False
    # vehicles
    tracked: bool = False
    buttoned: bool = False
    # both
    damaged: bool = False
    removed: bool = False
    radio: bool = False
    hidden: bool = False  # not yet revealed in this game (scenario flag)
    moved: str = "none"  # none / half / over_half in the last Move phase (to-hit modifiers)
    moved_this_turn: float = 0.0  # inches moved in this turn's Move phases
    fired_turn: int = 0  # last turn it fired (firing reveals it)
    fired_phase: str = ""  # the fire step it fired in (one attack per turn)
    transport: str | None = None  # id of the vehicle carrying it
    reinforcement_turn: int = 0  # >0: arrives on that turn

    @property
    def alive(self) -> bool:
        return not self.removed

    def to_dict(self) -> dict[str, Any]:
        """The unit as plain data (its fields are all scalars: much faster than `asdict`;
        `__dict__` is not read, which would make every later attribute access slower)."""
        return dict(zip(UNIT_FIELDS, _ALL_FIELDS(self), strict=True))

    def fire_facts(self) -> tuple:
        """The values of the fields a shot by or at it depends on (`FIRE_FIELDS`)."""
        return _FIRE_FIELDS(self)

    @property
    def pos(self) -> tuple[float, float]:
        return (self.x, self.y)


UNIT_FIELDS = tuple(f.name for f in fields(Unit))
# what no shot reads: sight (hidden, when it last fired), movement left, artillery calls; that
# a unit fired this turn (and may not again) is for the caller to key on
FIRE_FIELDS = tuple(
    k
    for k in UNIT_FIELDS
    if k not in ("hidden", "moved_this_turn", "fired_turn", "fired_phase", "radio")
)
_ALL_FIELDS, _FIRE_FIELDS = attrgetter(*UNIT_FIELDS), attrgetter(*FIRE_FIELDS)


@dataclass
class Mission:
    id: str
    side: str
    observer: str
    battery: str
    strength: int
    x: float
    y: float
    due_turn: int
    trained: bool = True  # observer is an FO or command stand (drift 9+ rather than 6+)
    held: bool = False
    adjusted: bool = False
    drifted: bool = False
    done: bool = False


@dataclass
class State:
    scenario_id: str
    seed: int
    sides: list[str]
    units: dict[str, Unit]
    turn: int = 1
    phase: str = "setup"
    side_a: str | None = None
    initiative_winner: str | None = None
    done: list[str] = field(default_factory=list)  # sides that ended the current phase
    missions: dict[str, Mission] = field(default_factory=dict)
    pending: list[dict[str, Any]] = field(default_factory=list)  # fire results applied at step end
    last_known: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    seen: dict[str, list[str]] = field(default_factory=dict)  # enemy ids each side observes now
    calls: dict[str, int] = field(default_factory=dict)  # observer id -> turn it last called fire
    winner: str | None = None
    result: dict[str, Any] | None = None
    counter: int = 0
    # derived, not state: legal templates per side until the next event (`legal.LegalMemo`;
    # not in the hash)
    legal_memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    # derived: per side, for each enemy it observes, the first own unit seen to see it (what
    # `sight.refresh_after_move` keeps; not in the hash)
    witness: dict[str, dict[str, str]] = field(default_factory=dict, compare=False, repr=False)

    def alive(self, side: str | None = None) -> list[Unit]:
        """The units on the table and not removed (of `side`, if given)."""
        turn = self.turn
        if side is None:
            return [
                u for u in self.units.values() if not u.removed and u.reinforcement_turn <= turn
            ]
        return [
            u
            for u in self.units.values()
            if u.side == side and not u.removed and u.reinforcement_turn <= turn
        ]

    def enemy(self, side: str) -> str:
        first, second = self.sides  # a quickref game has two sides
        return second if side == first else first

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        del out["legal_memo"], out["witness"]
        return out
