"""Values the seed lost and the data layer left null, used so the rule can be played.

None of these is the rulebook's number. Each is calibrated on what survived (the digest's §4.1
and the decisions P83-P98 of docs/decisions/panzerfaust.md) and is reported in every result that
uses it (label `rules-placeholder:<table>.<row>.<column>`). A data overlay that fills the cell
replaces it with no code change: the data value, when not null, always wins.
"""

from __future__ import annotations

# P83 Observation Table p8 (cm, by terrain row and target size A-D). Calibrated on the p113
# blurb (engagements out to 2,500 m = 250 cm for the largest targets in the open) and on the
# p8 woods rules (5/10/15 cm depth limits for thick/thin woods and orchards).
OBSERVATION = {
    "open_desert": (100, 150, 200, 250),
    "low_brush_long_grass": (40, 80, 150, 200),
    "hedge_wall_ruins": (30, 60, 120, 160),
    "thick_woods": (5, 5, 5, 5),
    "thin_woods": (10, 10, 15, 20),
    "orchard": (15, 20, 30, 40),
    "thick_treeline_bocage": (10, 20, 40, 60),
    "thin_treeline": (20, 40, 80, 120),
    "inside_building": (10, 20, 30, 40),
}

# P84 muzzle-flash ranges p9 (exact cm, general cm). Calibrated so that a gun's exact flash
# range grows with calibre and the general range is twice the exact one.
MUZZLE_FLASH = {
    "infantry_weapons": (20, 40),
    "bazooka_panzerfaust_panzerschreck": (30, 60),
    "guns_to_47mm": (40, 80),
    "guns_to_82mm": (60, 120),
    "guns_to_122mm": (80, 160),
    "guns_over_122mm": (100, 200),
}

# P85 call-down table p36 (3D6 needed): the text's average wait of 2/3/4 turns for an FAO
# (US / veteran-regular / conscript) gives p = 1/2, 1/3, 1/4 -> 3D6 <= 10 (1/2), 9 (0.375),
# 8 (0.259). A company commander with a radio one point worse.
CALL_DOWN = {
    ("fao", "us"): 10,
    ("fao", "vet_reg"): 9,
    ("fao", "conscript"): 8,
    ("company_commander", "us"): 9,
    ("company_commander", "vet_reg"): 8,
    ("company_commander", "conscript"): 7,
}

# P86 bogging number p25 (1D6 >= number -> bogged), by drive. Calibrated on the p25 speed
# factors of mud (fully tracked 2/3 ... 4x2 1/5): the slower the drive, the likelier to bog.
BOGGING = {
    "fully_tracked": 6,
    "semi_tracked": 6,
    "wheeled_6_8": 5,
    "wheeled_4x4": 5,
    "wheeled_4x2": 4,
    "motorcycle": 4,
}

# P87 Penetration Effects calibre variations p31 (AP and HE), lost: 0 for every calibre.
EFFECTS_CALIBRE_AP = 0
EFFECTS_CALIBRE_HE = 0

# P88 AA table p43, 20 mm and 37-40 mm rows (2D6 hit numbers low/medium, range cm): between the
# HMG's 4 and the heavy rows; medium altitude one less.
AA = {"20mm_aa": (5, 4, 60), "37_40mm_aa": (6, 5, 90)}

# P89 direct area fire calibre variations p32 (lost except 57 mm -2): 0 elsewhere.
AREA_CALIBRE = 0

# P90 AP mine burst kill on 1D6 >= (p38, lost): 5.
AP_MINE_BURST = 5

# P91 light-wind airborne injury roll p41 (lost): moderate wind injures on 6 and heavy on 5-6, so
# a light wind is read as no injury roll at all.
AIRBORNE_LIGHT_INJURY: int | None = None

# P98 AFV/Gun Crew/Passenger Casualties Table p30: the 122 mm+ row and four smaller gun rows
# lost their numbers (and the four their calibres). Rising by one a row from the surviving 5
# of the smallest guns and grenades: 122 mm+ 10, then 9, 8, 7, 6; the calibre bounds of the
# rows read as 100, 85, 70 and 50 mm (the p9/p32 calibre classes).
CREW_ROWS = (
    (122, "gun_122mm_plus"),
    (100, "gun_band_2"),
    (85, "gun_band_3"),
    (70, "gun_band_4"),
    (50, "gun_band_5"),
)
CREW = {"gun_122mm_plus": 10, "gun_band_2": 9, "gun_band_3": 8, "gun_band_4": 7, "gun_band_5": 6}
