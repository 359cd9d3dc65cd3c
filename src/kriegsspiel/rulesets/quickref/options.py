"""Switchable readings of the sheet where it is silent, damaged or self-contradictory.

Each field is one decision of docs/decisions/quickref.md (Qn); the default is the project's reading.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    # Q1 to-hit: d10 + modifiers <= to-hit number (roll-under); no alternative reading survives.
    morale_dice: Literal["1d10", "2d10"] = "1d10"  # Q2
    strength_rounding: Literal["down", "up"] = "down"  # Q4: strength between columns
    off_table: Literal["clamp", "none"] = "clamp"  # Q5: modified 2d10 above 20
    row16_col10_sp: bool = False  # Q3: a lost "Sp" in row 16, column 10
    firer_moved_over_half: Literal["no_fire", "plus_one"] = "no_fire"  # Q6
    german_buttoned: Literal["attacker", "merged"] = "attacker"  # Q7
    front_arc_half_angle: float = 45.0  # Q8 (rear shots use side armour)
    repeat_damaged: Literal["ko", "no_effect"] = "ko"  # Q9
    rt_morale_option: bool = True  # Q11: a unit that takes Rt may test to stay and take an H
    suppressive_needs: Literal["unit", "group"] = "unit"  # Q12: SA 3+ per unit or group total
    he_armour_gate: bool = True  # Q17: HE needs H/KIA on the effects table before penetrating
    assault_ties: Literal["defender", "reroll"] = "defender"  # Q14
    assault_goes_on: Literal["default", "strict"] = "default"  # Q16
    soft_vehicle_mg: Literal["replace", "add"] = "replace"  # Q18: +2 instead of -1, or -1+2
    mortar_min_range: Literal["chart", "basic"] = "chart"  # Q21
    burst_radius: float = 3.0  # Q22 (inches)

    @classmethod
    def parse(cls, pairs: list[str]) -> Options:
        """Options from `name=value` strings (CLI `--option`)."""
        values: dict[str, object] = {}
        for pair in pairs:
            if "=" not in pair:
                raise ValueError(f"option {pair!r}: expected name=value")
            name, value = (p.strip() for p in pair.split("=", 1))
            name = name.replace("-", "_")
            if name not in cls.model_fields:
                raise ValueError(
                    f"unknown option {name!r}; expected one of {sorted(cls.model_fields)}"
                )
            if value.lower() in ("true", "false"):
                values[name] = value.lower() == "true"
            else:
                values[name] = value
        return cls.model_validate(values)
