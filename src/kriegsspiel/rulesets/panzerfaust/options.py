"""Switchable readings where the Panzerfaust rules contradict themselves (digest §4.2) or are
silent. Each field is one decision of docs/decisions/panzerfaust.md (P70-P82); the default is the
project's reading. `--option name=value` on the CLI.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from ..actions import parse_options


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    mortar_flash: Literal["third", "quarter"] = "third"  # P70: p9 1/3 vs p36 1/4
    gun_shield_area: Literal["none", "partial"] = "none"  # P71: shields vs area fire p35 / p32
    retreat_pip: Literal["free", "plus_one"] = "free"  # P72: p7 +1 vs pp7/24 no pips
    cqc_pinned: Literal["table", "text"] = "table"  # P73: -3/+2 (table) vs -2/+1 (text p19)
    cqc_enemy_charged: Literal["minus_one", "plus_one"] = "minus_one"  # P73: doubtful sign
    cqc_moved_mods: bool = False  # P73: errata 6 deleted them; p18 ex. 3 still uses them
    ap_rifle_grenade_bzr: Literal["3cm", "57mm"] = "3cm"  # P74
    atmm_targets: Literal["any", "slow"] = "any"  # P75: ATMM vs any target or movers <=5 cm
    cqc_factor_basis: Literal["team", "man"] = "team"  # P76
    cqc_rear: Literal["edge", "half"] = "edge"  # P305: +4 wholly behind the rear edge / rear half
    cqc_double_retreat: Literal["shaken", "steady"] = "shaken"  # P335: p19 both sides' Retreat
    aircraft_gun_dice: Literal["3d6", "2d6"] = "3d6"  # P77
    qa8_woods: Literal["thick", "thin"] = "thick"  # P78: Q&A 8 asks thin, answers thick
    air_to_air: Literal["none"] = "none"  # P79: phase C names it, no rules supplied
    to_hit_source: Literal["army_list", "example"] = "army_list"  # P80: errata 2
    casualty_sign: Literal["rows_down", "rows_up"] = "rows_down"  # P81: weather/night shifts
    placeholder_tables: bool = True  # P82: play lost tables with placeholders (else refuse)
    platoon_ratio: Literal["ratio", "alternate"] = "ratio"  # P145: lost ratio thresholds, p6
    hidden_deployment: bool = False  # P150: counters A-D and dummies until spotted (p5)
    wind_named: Literal["from", "toward"] = "from"  # P191: p10's wind direction, smoke drift
    worth: Literal["pv", "pieces"] = "pv"  # P256: an element's worth for exit/losses victory
    overrun_guns: bool = True  # P289: AFVs overrun guns as well as infantry (Q&A 1, p111)
    indirect_wp: Literal["with_smoke", "declared"] = "with_smoke"  # P266: who fires WP (p37)
    vehicle_screen: Literal["size", "all", "wrecks"] = "size"  # P285: vehicles block DLOS (p8)
    shaken_away: Literal["threats", "edge"] = "threats"  # P271: where a Shaken unit withdraws
    fire_phase_retreat: Literal["instead", "next_turn"] = "instead"  # P312: p24 notes
    camouflage_on_fire: Literal["keep", "lose"] = "keep"  # P264: p9 loses it only on moving
    unlimbered_fire: Literal["half", "next_turn", "same_turn"] = "half"  # P276: p33 set-up
    limbered_fire: Literal["notes", "aa", "none"] = "notes"  # P277: p33-34 guns firing limbered
    horse_towing: Literal["rates", "p25"] = "rates"  # P317: p13 horse-team rates include the gun
    high_observer: Literal["floors_hills", "floors"] = "floors_hills"  # P329: p8 note 4's x1.5
    floor_zone_outside: Literal["hit", "spared"] = "hit"  # P339: fire aimed at a floor, p17/p32
    wp_floor: Literal["floor", "every"] = "floor"  # P369: WP aimed at a floor rolls there only
    crew_from_above: Literal["floors", "floors_hills"] = "floors"  # P343: p17 fire from above
    vehicle_mortar_setup_laid: bool = True  # P326: a carrier placed at set-up is laid on turn 1
    us_mortar_carrier_arc: Literal["front", "rear"] = "front"  # P326: M21 front / M4A1 rear
    # P346: the p12 set-up class of a carrier's mortar set up on the ground: by its p35 crew
    # (81 mm: one team, a light mortar) or by calibre (81 mm a medium mortar)
    debarked_mortar_class: Literal["crew", "calibre"] = "crew"
    # P349: passengers inside an APC the data calls fully enclosed: p16's hard cover, or safe
    apc_passengers: Literal["hard", "open_only"] = "hard"
    # P351: a carrier's mortar team put down by its carrier's loss sets the mortar up in the p12
    # set-up time alone, or also spends the half move of getting off as a debark does
    dropped_mortar_time: Literal["setup", "debark"] = "setup"
    # P361: the riders that count among a retreating platoon's losses to near enemies (p24): all
    # killed aboard by a firer's result, their vehicle destroyed too, or only those killed by
    # fire that falls on the riders (small arms at an AFV's passengers or at a softskin)
    rider_losses_near: Literal["all", "fired_at"] = "all"
    # P355: small arms at an AFV's crew make its tank riders get down next turn (p28) or only
    # fire at the riders themselves does
    rider_alarm_crew: Literal["riders_only", "crew_too"] = "riders_only"
    # P358: the AFV whose riders get down (p28) keeps the other half of its move, or stands
    rider_alarm_stop: Literal["half", "turn"] = "half"

    @classmethod
    def parse(cls, pairs: list[str]) -> Options:
        """Options from `name=value` strings (CLI `--option`)."""
        return parse_options(cls, pairs)
