"""Small rule functions shared by the phase steps; each docstring cites its source."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from .hexgrid import Hex, bounding_size, distance

STANDARD_PL = 15  # Resource §1.1: Standard needs a PL rate of at least 15


def ceil_div(a: int, b: int) -> int:
    """R-0.1: costs round up."""
    return -(-a // b)


def derived_type(declared: str, pl_rate: int) -> str:
    """R-3.2: standard vs basic follows the PL rate; homeworld and primary are kept as declared."""
    if declared in ("homeworld", "primary"):
        return declared
    return "standard" if pl_rate >= STANDARD_PL else "basic"


def max_loyalty(system_type: str) -> int:
    """Resource §1.1, R-3.2: Homeworld 30, Primary 20, Standard 15, Basic 10."""
    return {"homeworld": 30, "primary": 20, "standard": 15}.get(system_type, 10)


def bonus_pct(lr: int) -> int:
    """Resource §1.1, R-3.3: +10/20/30/40 % on Ore/Gal/Bio at LR 11-15/16-20/21-25/26-30."""
    if lr >= 26:
        return 40
    if lr >= 21:
        return 30
    if lr >= 16:
        return 20
    if lr >= 11:
        return 10
    return 0


def max_shift_pct(lr: int) -> int:
    """Resource §1.1, R-3.3: planetary shift 25 % at LR 11-15, 50 % at 16-20, 75 % at 21+."""
    if lr >= 21:
        return 75
    if lr >= 16:
        return 50
    if lr >= 11:
        return 25
    return 0


def with_bonus(base: int, lr: int) -> int:
    """R-4.1: floor(base x (1 + bonus))."""
    return base * (100 + bonus_pct(lr)) // 100


def troop_loyalty(troops: int) -> int:
    """Resource §1.2: troops change LR by floor(troops / 25)."""
    return troops // 25


@lru_cache(maxsize=65536)
def hex_of(code: str) -> Hex:
    return Hex.parse(code)


def map_bounds(size: tuple[int, int] | None, listed: Iterable[str]) -> tuple[int, int] | None:
    """Contracts §1 ``map.size``: the size given, else the bounding box of the listed hexes
    (``None``: a map listing no hexes and no size has no bounds)."""
    return size if size is not None else bounding_size(hex_of(h) for h in listed)


def hex_distance(a: str, b: str) -> int:
    """R-0.5: hex steps between two ``XXYY`` hexes."""
    return distance(hex_of(a), hex_of(b))


def trade_cost_pct(d: int) -> int:
    """Resource §5.2, R-5.4: 1 % per 5 hexes (round up), at least 1 %."""
    return max(1, ceil_div(d, 5))


def trade_cost(amount: int, d: int) -> int:
    """Resource §5.2, R-5.4: ceil(amount x rate / 100)."""
    return ceil_div(amount * trade_cost_pct(d), 100)


def travel_rounds(d: int) -> int:
    """Resource §5.2, R-5.4: distance / 20 rounded up, at least one round."""
    return max(1, ceil_div(d, 20))


def hub_maintenance(radius: int, nodes: int, links: int) -> int:
    """Support §4.1.2, R-5.2: 2^r + nodes + links (a bare centre costs 1)."""
    return int(2**radius) + nodes + links


def hub_extension_cost(link_lengths: list[int]) -> int:
    """Support §4.1.1, R-5.1a: an extension pays the new links' lengths in Ore (no base 20)."""
    return sum(link_lengths)


def hub_setup_cost(link_lengths: list[int]) -> int:
    """Support §4.1.1, R-5.1: 20 + the sum of the links' lengths, in Ore."""
    return 20 + hub_extension_cost(link_lengths)


GUILD_FEE = 5  # Support §4.2, R-5.3
HOMEWORLD_TP = 50  # Resource §2.2, R-4.2
PRIMARY_TP = 10


def primary_upkeep(pl_rate: int) -> int:
    """Resource §1.1, R-3.2: 2 Gal per PL of the system, every round."""
    return 2 * pl_rate
