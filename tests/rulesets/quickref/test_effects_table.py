"""The decoded Small Arms and HE Effects Table (sheet L2; digest quickref.md §2)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kriegsspiel.rulesets.quickref.tables import SEVERITY

# digest §2.4: highest modified roll giving at least the result, per column (None = never)
THRESHOLDS = {
    1: (None, 2, 4, 7),
    2: (2, 4, 6, 9),
    3: (3, 5, 7, 10),
    4: (4, 6, 8, 11),
    6: (5, 7, 9, 12),
    8: (6, 9, 12, 14),
    10: (7, 10, 13, 15),
    12: (9, 13, 16, 18),
    15: (10, 14, 18, 20),
    18: (11, 15, 20, 20),
    20: (12, 16, 20, 20),
    24: (14, 18, 20, 20),
}


def test_printed_cells_per_row_match_the_seed(qr):
    # seed L2 prints 12 cells in rows 2-7, then 11 11 10 9 8 7 7 6 5 5 5 4 4
    printed = [sum(c != "-" for c in qr.effects.rows[r]) for r in range(2, 21)]
    assert printed == [12] * 6 + [11, 11, 10, 9, 8, 7, 7, 6, 5, 5, 5, 4, 4]


def test_thresholds_by_hand(qr):
    cols = qr.effects.columns
    for col, (kia, h, rt, sp) in THRESHOLDS.items():
        cells = {r: qr.effects.rows[r][cols.index(col)] for r in range(2, 21)}
        for symbol, limit in (("KIA", kia), ("H", h), ("Rt", rt), ("Sp", sp)):
            hits = [r for r, c in cells.items() if SEVERITY[c] >= SEVERITY[symbol]]
            assert (max(hits) if hits else None) == limit, (col, symbol)


def test_monotone_in_roll_and_strength(qr):
    rows, cols = qr.effects.rows, qr.effects.columns
    for r in range(2, 21):
        for i in range(len(cols) - 1):
            assert SEVERITY[rows[r][i]] <= SEVERITY[rows[r][i + 1]], (r, cols[i])
        if r < 20:
            for i in range(len(cols)):
                assert SEVERITY[rows[r][i]] >= SEVERITY[rows[r + 1][i]], (r, cols[i])


@given(st.integers(-5, 30), st.integers(1, 40), st.integers(1, 40))
def test_lookup_monotone_property(qr, roll, s1, s2):
    lo, hi = sorted((s1, s2))
    assert SEVERITY[qr.effects_cell(roll, lo)[0]] <= SEVERITY[qr.effects_cell(roll, hi)[0]]
    assert SEVERITY[qr.effects_cell(roll, lo)[0]] >= SEVERITY[qr.effects_cell(roll + 1, lo)[0]]


def test_columns_round_down_and_options(qr):
    assert qr.column(9) == 8 and qr.column(5) == 4 and qr.column(30) == 24 and qr.column(0) == 0
    assert qr.with_options(strength_rounding="up").column(9) == 10


def test_off_table_rolls(qr):
    assert qr.effects_cell(-3, 2)[0] == "KIA"  # below row 2 uses row 2
    assert qr.effects_cell(23, 24)[0] == "Rt"  # clamp (decision Q5)
    assert qr.with_options(off_table="none").effects_cell(23, 24)[0] == "-"


def test_row16_option(qr):
    assert qr.effects_cell(16, 10)[0] == "-"
    assert qr.with_options(row16_col10_sp=True).effects_cell(16, 10)[0] == "Sp"


def test_he_split(qr):
    assert qr.he_parts(29) == [24, 5] and qr.he_parts(48) == [24, 24] and qr.he_parts(12) == [12]


def test_tank_hit_bands(qr):
    assert [qr.tank_hit(m)[0] for m in (-3, 0, 1, 2, 3, 5, 6, 15)] == [
        "ineffective",
        "ineffective",
        "tracked",
        "tracked",
        "damaged",
        "damaged",
        "ko",
        "ko",
    ]


def test_he_penetration_steps(qr):
    # L4: 4-5 -> 1, 6 -> 2, 8 -> 4, ... 24 -> 20; below 4 none; between keys round down
    assert [qr.he_penetration(s)[0] for s in (3, 4, 5, 6, 7, 12, 14, 24, 30)] == [
        0,
        1,
        1,
        2,
        2,
        8,
        8,
        20,
        20,
    ]
