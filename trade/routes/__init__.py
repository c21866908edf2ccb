"""The pure Far Trader trade-route mapper: no Django imports (seed 002, trade-routes.md).

Public entry points::

    read_sector(path, at=None) -> SectorFile        # T-1 reader (also for campaign imports)
    parse_sector(text, path=..., metadata_xml=None, at=None) -> SectorFile
    map_routes(files, settings=None, at=None, allegiances=None, progress=None) -> RouteMap
    map_worlds(placement_or_placed_worlds, settings=None, allegiances=None, progress=None)
    to_json(route_map) -> str / to_dict(route_map) -> dict   # contracts §2
    to_svg(route_map) -> str                                 # T-9

The names are loaded on first use: reading a sector file needs neither numpy nor scipy, and
``python -m trade.routes`` sets up the process (__main__.py) before either is imported.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .allegiance import AllegianceTable
    from .mapper import (
        Pair,
        PlacedWorld,
        Placement,
        RouteLeg,
        RouteMap,
        WorldTrade,
        load_sectors,
        map_routes,
        map_worlds,
        place,
        world_trade,
    )
    from .output import to_dict, to_json
    from .sectors import (
        SectorFile,
        SectorFormatError,
        SkippedLine,
        World,
        parse_sector,
        read_sector,
    )
    from .settings import RouteSettings
    from .svg import to_svg

_HOME = {
    "AllegianceTable": "allegiance",
    "Pair": "mapper",
    "PlacedWorld": "mapper",
    "Placement": "mapper",
    "RouteLeg": "mapper",
    "RouteMap": "mapper",
    "RouteSettings": "settings",
    "SectorFile": "sectors",
    "SectorFormatError": "sectors",
    "SkippedLine": "sectors",
    "World": "sectors",
    "WorldTrade": "mapper",
    "load_sectors": "mapper",
    "map_routes": "mapper",
    "map_worlds": "mapper",
    "parse_sector": "sectors",
    "place": "mapper",
    "read_sector": "sectors",
    "to_dict": "output",
    "to_json": "output",
    "to_svg": "svg",
    "world_trade": "mapper",
}
__all__ = [
    "AllegianceTable",
    "Pair",
    "PlacedWorld",
    "Placement",
    "RouteLeg",
    "RouteMap",
    "RouteSettings",
    "SectorFile",
    "SectorFormatError",
    "SkippedLine",
    "World",
    "WorldTrade",
    "load_sectors",
    "map_routes",
    "map_worlds",
    "parse_sector",
    "place",
    "read_sector",
    "to_dict",
    "to_json",
    "to_svg",
    "world_trade",
]


def __getattr__(name: str) -> Any:
    """PEP 562: import a public name's module when the name is first asked for."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
