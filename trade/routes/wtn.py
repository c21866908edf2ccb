"""World Trade Number (T-3) and Gross World Product (T-8), seed 002 steps 1-3 and the GWP tables.

Every trade number is an ``int`` in half-units (``9`` means 4.5), so no float ever enters the
arithmetic (T-3 "compute in integer half-units").
"""

from __future__ import annotations

from fractions import Fraction

# Seed 002 "Port Modifier Table" in half-units: rows by UWTN band (7+, 6-6.5, 5-5.5, 4-4.5,
# 3-3.5, 2-2.5, 1-1.5, <1), columns by GURPS starport V, IV, III, II, I, 0.
PORT_MODIFIER_TABLE: tuple[tuple[int, int, int, int, int, int], ...] = (
    (0, -2, -3, -4, -5, -10),  # UWTN 7+
    (0, -1, -2, -3, -4, -9),  # 6-6.5
    (0, 0, -1, -2, -3, -8),  # 5-5.5
    (1, 0, 0, -1, -2, -7),  # 4-4.5
    (1, 1, 0, 0, -1, -6),  # 3-3.5
    (2, 1, 1, 0, 0, -5),  # 2-2.5
    (2, 2, 1, 1, 0, 0),  # 1-1.5
    (3, 2, 2, 1, 1, 0),  # below 1
)

# Seed 002 "Base Per-Capita Income" by GURPS TL, in credits.
INCOME_BY_TL = {
    13: 24_400,
    12: 15_000,
    11: 9_375,
    10: 5_860,
    9: 3_660,
    8: 2_290,
    7: 1_430,
    6: 895,
    5: 560,
    4: 350,
    3: 220,
    2: 135,
    1: 85,
    0: 55,
}

# Seed 002 "Modifiers to Base Per-Capita Income" (cumulative), as exact fractions.
INCOME_MODIFIERS = {
    "Ri": Fraction(16, 10),
    "In": Fraction(14, 10),
    "Ag": Fraction(12, 10),
    "Po": Fraction(8, 10),
    "Ex": Fraction(8, 10),
    "Ni": Fraction(8, 10),
}


def tl_modifier(gurps_tl: int) -> int:
    """T-3 TL modifier in half-units: GURPS TL 0-2 -0.5, 3-5 0, 6-8 +0.5, 9-11 +1, 12-13 +1.5."""
    if gurps_tl <= 2:
        return -1
    if gurps_tl <= 5:
        return 0
    if gurps_tl <= 8:
        return 1
    if gurps_tl <= 11:
        return 2
    return 3


def uwtn(gurps_tl: int, pr: int) -> int:
    """T-3: UWTN = TL modifier + PR / 2, in half-units (so the PR term is just PR)."""
    return tl_modifier(gurps_tl) + pr


def port_modifier(uwtn_h: int, gurps_port: int) -> int:
    """T-3: the seed's port modifier table; row by UWTN (half-units), column by GURPS port."""
    if uwtn_h >= 14:
        row = 0
    elif uwtn_h < 2:
        row = 7
    else:
        row = 7 - uwtn_h // 2  # 12-13 -> 1 (6-6.5), ..., 2-3 -> 6 (1-1.5)
    col = 5 - max(0, min(5, gurps_port))
    return PORT_MODIFIER_TABLE[row][col]


def wtn(uwtn_h: int, gurps_port: int) -> int:
    """T-3: WTN = UWTN + port modifier, half-units, no clamping."""
    return uwtn_h + port_modifier(uwtn_h, gurps_port)


def population(pr: int, pbg: str) -> Fraction:
    """T-8: P x 10^PR with the PBG multiplier P in 1-9, else the middle of the range 5.5 x 10^PR;
    PR 0 -> 0."""
    if pr <= 0:
        return Fraction(0)
    p = pbg[:1]
    if p.isdigit() and p != "0":
        return Fraction(int(p) * 10**pr)
    return Fraction(11 * 10**pr, 2)


def gwp(gurps_tl: int, pr: int, pbg: str, codes: frozenset[str]) -> int:
    """T-8: GWP = per-capita income by GURPS TL x the trade-class modifiers x population, in
    whole credits rounded down."""
    num, den = INCOME_BY_TL[max(0, min(13, gurps_tl))], 1
    for code, factor in INCOME_MODIFIERS.items():
        if code in codes:  # exact integer fractions: Fraction itself is slow for 5,000 worlds
            num, den = num * factor.numerator, den * factor.denominator
    people = population(pr, pbg)
    return (num * people.numerator) // (den * people.denominator)
