"""Bilateral Trade Number (T-5), trade in credits and route classes (T-7), seed 002 BTN steps.

All trade numbers are ``int`` half-units (``21`` means 10.5); credits are exact ``int``.
"""

from __future__ import annotations

from bisect import bisect_right

# Seed 002 "Distance Modifier" table: (lowest parsecs of the band, modifier in half-units).
DISTANCE_BANDS: tuple[tuple[int, int], ...] = (
    (0, 0),
    (2, -1),
    (3, -2),
    (6, -3),
    (10, -4),
    (20, -5),
    (30, -6),
    (60, -7),
    (100, -8),
    (200, -9),
    (300, -10),
    (600, -11),
    (1000, -12),
)
_BAND_STARTS = [start for start, _ in DISTANCE_BANDS]

# T-5 route classes by BTN (half-units): 8 Minor ... 12+ Super.
CLASSES: tuple[tuple[int, str], ...] = (
    (24, "super"),
    (22, "major"),
    (20, "main"),
    (18, "feeder"),
    (16, "minor"),
)
CLASS_NAMES = ("minor", "feeder", "main", "major", "super")
MINOR = 16
FEEDER = 18


def distance_modifier(parsecs: int) -> int:
    """T-5: the seed's distance modifier table (0-1: 0 ... 1,000+: -6), in half-units."""
    if parsecs < 0:
        raise ValueError("distance cannot be negative")
    return DISTANCE_BANDS[bisect_right(_BAND_STARTS, parsecs) - 1][1]


def same_polity(a: str | None, b: str | None) -> bool:
    """T-5: two resolved polities are the same; ``None`` (non-aligned) is never the same."""
    return a is not None and a == b


def wtcm(codes_a: frozenset[str], codes_b: frozenset[str], same: bool) -> int:
    """T-5 WTCM in half-units: +0.5 Ag with Ex or Na (once), +0.5 In with Ni, -0.5 differing
    allegiance."""
    m = 0
    if ("Ag" in codes_a and codes_b & {"Ex", "Na"}) or ("Ag" in codes_b and codes_a & {"Ex", "Na"}):
        m += 1
    if ("In" in codes_a and "Ni" in codes_b) or ("In" in codes_b and "Ni" in codes_a):
        m += 1
    if not same:
        m -= 1
    return m


def btn_cap(wtn_a: int, wtn_b: int, mode: str) -> int | None:
    """T-5 cap in half-units: ``"2wtn+1"`` 2 x min WTN + 1 (default), ``"wtn+5"`` min WTN + 5,
    ``"none"``."""
    low = min(wtn_a, wtn_b)
    if mode == "2wtn+1":
        return 2 * low + 2
    if mode == "wtn+5":
        return low + 10
    if mode == "none":
        return None
    raise ValueError(f"unknown btn_cap {mode!r}")


def btn(wtn_a: int, wtn_b: int, modifier: int, parsecs: int, cap: str = "2wtn+1") -> int:
    """T-5a: BTN = min(WTN1 + WTN2 + WTCM, cap) + distance modifier: the cap applies before the
    (non-positive) modifier, as the seed's worked example needs; no floor (half-units)."""
    value = wtn_a + wtn_b + modifier
    limit = btn_cap(wtn_a, wtn_b, cap)
    capped = value if limit is None else min(value, limit)
    return capped + distance_modifier(parsecs)


def trade_credits(btn_h: int) -> int:
    """T-7: a pair's trade per year, the lower bound of its BTN's range: 10^floor(b), x5 for a
    half step; 0 below 0.5."""
    if btn_h < 1:
        return 0
    whole, half = divmod(btn_h, 2)
    return int(10**whole) * (5 if half else 1)


def btn_for_trade(credits: int) -> int:
    """T-7: the highest BTN (half-units) whose range's lower bound is <= ``credits``."""
    if credits < 5:
        return 0
    whole = len(str(credits)) - 1
    return 2 * whole + (1 if credits >= 5 * 10**whole else 0)


def gwp_limited(btn_h: int, smaller_gwp: int) -> int:
    """T-8 variant ``gwp_cap``: lower the BTN until the pair's trade is <= 10 x the smaller GWP."""
    while btn_h > 0 and trade_credits(btn_h) > 10 * smaller_gwp:
        btn_h -= 1
    return btn_h


def route_class(btn_h: int) -> str | None:
    """T-5: 8 minor, 9 feeder, 10 main, 11 major, 12+ super; a half step stays below; else None."""
    for low, name in CLASSES:
        if btn_h >= low:
            return name
    return None


def half_to_number(value_h: int) -> float:
    """A half-unit count as a JSON number (contracts §2 writes 5.0, 10.5): a multiple of 0.5 is
    exact in binary, so the division loses nothing."""
    return value_h / 2
