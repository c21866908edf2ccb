"""The pure Far Trader trade-route mapper: no Django imports (seed 002, trade-routes.md).

Public entry points::

    read_sector(path, at=None) -> SectorFile        # T-1 reader (also for campaign imports)
    parse_sector(text, path=..., metadata_xml=None, at=None) -> SectorFile
    map_routes(files, settings=None, at=None, allegiances=None, progress=None) -> RouteMap
    map_worlds(placement_or_placed_worlds, settings=None, allegiances=None, progress=None)
    to_json(route_map) -> str / to_dict(route_map) -> dict   # contracts §2
    to_svg(route_map) -> str                                 # T-9
"""

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
from .sectors import SectorFile, SectorFormatError, SkippedLine, World, parse_sector, read_sector
from .settings import RouteSettings
from .svg import to_svg

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
