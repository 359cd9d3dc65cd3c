"""Switchable readings where Battleground contradicts itself, lost a value or leaves a choice
(digest §5 and §7). Each field is one decision of docs/decisions/battleground.md (BG-...); the
default is the project's reading. `--option name=value` on the CLI.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from ..actions import parse_options


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    halving: Literal["half_up", "down"] = "half_up"  # BG-ROUND: half/quarter checks, ½ targets
    pen_rounding: Literal["half_up", "down"] = "half_up"  # BG-FALLOFF: AP % fall-off
    break_point: Literal["up", "down"] = "up"  # BG-BREAK: % of the original size, rounded
    jam_voids_burst: bool = False  # BG-JAM: a jam voids the other dice of the burst
    afv_proximity: Literal[5, 4] = 5  # BG-PROX: Man vs Tank 5" (retreat 5-10) vs 4" (4-8)
    grenade_motion_per: Literal[3, 4] = 3  # BG-GMOTION: +1 per 3" (chart) or 4" (text)
    hth_obstacle: Literal["attacker", "defender"] = "attacker"  # BG-HTH: who takes +2
    no_quarter_bonus: Literal["morale", "drm"] = "morale"  # BG-NQ: "+4" as morale or as -4 DRM
    calibre_mods_on: Literal["effect", "to_hit"] = "effect"  # BG-CAL: HE calibre modifiers
    integrity_mods_on: Literal["results", "check"] = "results"  # BG-TPI: which roll they modify
    correcting_die: Literal["d8", "d10"] = "d8"  # BG-CORR: off-board correction direction die
    pattern_spacing: Literal["text", "diagram"] = "text"  # BG-PATTERN: 4/2/4/2 vs 6/3/6/2
    mounted_mg_test: Literal["at_most", "below"] = "at_most"  # BG-HTMG: d20 <= vs < number
    leader_shift: Literal["best", "off"] = "best"  # BG-SHIFT: tank leader moves the location
    elite_tank_leader: Literal[17, 18] = 17  # BG-CREW
    placeholder_tables: bool = True  # BG-PH: play lost tables with placeholders (else refuse)

    @classmethod
    def parse(cls, pairs: list[str]) -> Options:
        """Options from `name=value` strings (CLI `--option`)."""
        return parse_options(cls, pairs)
