"""Behaviour as data: YAML profiles of weights for the quickref bot (ai/profiles/*.yaml)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import yaml

PROFILE_DIR = Path(__file__).parent / "profiles"


@dataclass(frozen=True)
class Profile:
    """Weights of the quickref bot. Every field has a default; a profile file overrides some."""

    name: str = "balanced"
    # value of a fire result, by outcome name, times the target's value
    outcome_value: dict[str, float] = field(default_factory=dict)
    target_value: dict[str, float] = field(default_factory=dict)
    min_fire: float = 0.02  # expected value below which a shot is not worth revealing oneself
    suppressive: float = 1.0  # weight of suppressive fire
    artillery: float = 1.0  # weight of calling fire
    arty_danger_close: float = 6.0  # inches: no call this close to own units
    assault: float = 1.0  # weight of close assault
    assault_min_ratio: float = 1.0  # own SA over defender's SA needed to assault
    # in the last `desperate_turns` turns, the ratio needed against infantry holding an
    # objective (which would otherwise decide the game)
    desperate_ratio: float = 1.0
    desperate_turns: int = 0
    objective: float = 1.0  # per inch closer to an objective (by path), times the urgency
    urgency: float = 0.5  # objective pull: objective x (urgency + scale x (turn/limit)^power)
    urgency_scale: float = 1.0
    urgency_power: float = 1.0
    objective_target: float = 2.0  # value factor of enemies standing on an objective
    close_in: float = 4.0  # infantry: reaching contact with an enemy on an objective
    hold_bonus: float = 6.0  # being inside an objective's radius
    cover: float = 0.6  # per point of the destination's chart modifier
    exposure: float = 0.6  # per enemy that would see the destination
    shooting: float = 0.4  # per enemy the destination gives a shot at
    spread: float = 0.3  # per own unit closer than 2" (don't bunch)
    # vehicles: exact worth of the best gun shot a destination gives (outcome x target value)
    # and of the shots the enemies seeing it would have at the unit there (x its own value)
    kill: float = 0.0
    loss: float = 0.0
    face_threat: bool = False  # vehicles turn their front armour to the worst threat
    # vehicles: chance that concealing terrain not yet looked into hides an enemy gun
    suspect: float = 0.0
    # vehicles: inches from an objective to wait at until the last turn (0: go straight in)
    stage: float = 0.0
    withdraw: float = 1.0  # suppressed units: per inch away from the nearest enemy
    move_threshold: float = 0.25  # minimum gain for a move
    side_a: bool = True  # choose to be side A when winning the initiative

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Profile:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown profile keys {sorted(unknown)}; known: {sorted(known)}")
        base = load_profile("balanced") if data.get("name") != "balanced" else None
        merged = {**(vars(base) if base else {}), **data}
        for key in ("outcome_value", "target_value"):
            if base:
                merged[key] = {**getattr(base, key), **data.get(key, {})}
        return cls(**merged)


def profile_names() -> list[str]:
    return sorted(p.stem for p in PROFILE_DIR.glob("*.yaml"))


_CACHE: dict[str, Profile] = {}


def load_profile(name_or_path: str | Path) -> Profile:
    """A shipped profile by name, or a YAML file by path (unset keys come from balanced)."""
    key = str(name_or_path)
    if key in _CACHE:
        return _CACHE[key]
    path = PROFILE_DIR / f"{key}.yaml"
    if not path.exists():
        path = Path(key)
        if not path.exists():
            raise ValueError(f"unknown AI profile {key!r}; shipped: {profile_names()}")
    data = yaml.safe_load(path.read_text()) or {}
    data.setdefault("name", path.stem)
    _CACHE[key] = prof = Profile.from_dict(data)
    return prof
