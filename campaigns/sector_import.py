"""Create or update a campaign's map from Traveller sector files (product capability 1, issue 7).

Files are read by the trade-route mapper's reader (``trade.routes.read_sector``): one reader for
the whole project. Each world becomes a ``system`` hex and a neutral ``StarSystem`` with its UWP
statistics and Ore/Gal/Bio/PL rates derived by :func:`derive_rates` (docs/maps.md). Rows are
keyed by sector and hex (``spin-1910``), so importing again updates them in place. Bad lines are
reported with their line numbers and skipped; they never stop an import.

Placement (contracts §1): a one-sector import keeps the sector's own numbering; a multi-sector
import is numbered from the top-left sector's ``0101``, 32 columns and 40 rows per sector, using
each file's sector position (``<X>``/``<Y>`` of its ``.xml``); the map is at most 99 × 99.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction
from django.utils.text import slugify

from campaigns import services
from economy.engine.rules import max_loyalty
from powers.db import bulk_update
from powers.models import (
    WORLD_STATISTICS,
    Campaign,
    HexType,
    MapHex,
    StarSystem,
    SystemType,
)
from trade.routes import SectorFile, SkippedLine, World, read_sector

SECTOR_COLS, SECTOR_ROWS, MAP_MAX = 32, 40, 99
STANDARD_PL = 15  # Standard if the PL rate is at least 15
PORT_GAL = {"A": 6, "B": 4, "C": 2, "D": 1}


class SectorImportError(ValueError):
    """The import as a whole cannot be placed (missing sector positions, map over 99 × 99)."""


@dataclass(frozen=True, slots=True)
class Rates:
    ore: int
    gal: int
    bio: int
    pl: int


def derive_rates(world: World) -> Rates:
    """Ore/Gal/Bio/PL rates from a world's statistics (docs/maps.md "Rates"):

    - Ore = Size + 3 × belts + ⌊TL/2⌋ + 10 In + 10 As + 5 Na + 5 Va
    - Gal = Pop + ⌊TL/2⌋ + starport (A 6, B 4, C 2, D 1) + 10 Ri + 5 In + 5 Hi − 5 Po, at least 0
    - Bio = Hydro + (Atmo when 4–9, breathable) + 10 Ag + 5 Ga + 3 Wa
    - PL = 2 × Pop, so Pop 8+ makes a Standard system (R-3.2)
    """
    codes = set(world.remarks)

    def has(code: str, points: int) -> int:
        return points if code in codes else 0

    tl = world.tech_level // 2
    ore = world.size + 3 * (world.belts or 0) + tl + has("In", 10) + has("As", 10)
    ore += has("Na", 5) + has("Va", 5)
    gal = world.population + tl + PORT_GAL.get(world.starport, 0) + has("Ri", 10)
    gal += has("In", 5) + has("Hi", 5) - has("Po", 5)
    breathable = world.atmosphere if 4 <= world.atmosphere <= 9 else 0
    bio = world.hydrographics + breathable + has("Ag", 10) + has("Ga", 5) + has("Wa", 3)
    return Rates(ore=ore, gal=max(0, gal), bio=bio, pl=2 * world.population)


def system_type_for(pl_rate: int) -> SystemType:
    """R-3.2: an imported (neutral) system is Standard if its PL rate is 15 or more, else Basic."""
    return SystemType.STANDARD if pl_rate >= STANDARD_PL else SystemType.BASIC


@dataclass
class ImportReport:
    campaign: Campaign
    created: int = 0
    updated: int = 0
    hexes_created: int = 0
    skipped: list[SkippedLine] = field(default_factory=list)

    @property
    def imported(self) -> int:
        return self.created + self.updated


def sector_key(sector: SectorFile) -> str:
    """The stable key prefix of a sector's systems: its abbreviation, else its name (slugged)."""
    return (slugify(sector.abbreviation or sector.name) or "sector")[:40]


def placement(sectors: Sequence[SectorFile]) -> list[tuple[int, int]]:
    """Column and row offsets of each sector on the campaign map (contracts §1)."""
    if len(sectors) == 1:
        return [(0, 0)]
    missing = [s.path for s in sectors if s.position is None]
    if missing:
        raise SectorImportError(
            f"{', '.join(missing)}: no sector position; a multi-sector import needs each "
            "file's <X>/<Y> (the .xml beside it)"
        )
    positions = [s.position for s in sectors if s.position is not None]
    if len(set(positions)) != len(positions):
        raise SectorImportError("two files have the same sector position")
    x0 = min(x for x, _ in positions)
    y0 = min(y for _, y in positions)
    offsets = [(SECTOR_COLS * (x - x0), SECTOR_ROWS * (y - y0)) for x, y in positions]
    if max(dc for dc, _ in offsets) + SECTOR_COLS > MAP_MAX or (
        max(dr for _, dr in offsets) + SECTOR_ROWS > MAP_MAX
    ):
        raise SectorImportError(
            f"these sectors span more than {MAP_MAX} × {MAP_MAX} hexes (at most 3 × 2 sectors)"
        )
    return offsets


def _load(files: Iterable[str | Path | SectorFile]) -> list[SectorFile]:
    return [f if isinstance(f, SectorFile) else read_sector(f) for f in files]


def import_sectors(*, campaign_name: str, files: Sequence[str | Path | SectorFile]) -> ImportReport:
    """Create the campaign ``campaign_name`` if needed and import ``files`` into it.

    Raises ``SectorFormatError`` for an unreadable file and :class:`SectorImportError` when the
    sectors cannot be placed; nothing is written then.
    """
    sectors = _load(files)
    placement(sectors)  # refuse before creating anything
    with transaction.atomic():
        campaign, _ = Campaign.objects.get_or_create(name=campaign_name)
        services.setup_campaign(campaign=campaign)
        return import_into(campaign=campaign, files=sectors)


@transaction.atomic
def import_into(*, campaign: Campaign, files: Sequence[str | Path | SectorFile]) -> ImportReport:
    """Import sector files into ``campaign``: new hexes and neutral systems are created, systems
    imported before (same key) get their statistics and rates updated in place; holder, LR,
    stockpiles and projects are left alone. A fixed number of queries per import."""
    sectors = _load(files)
    offsets = placement(sectors)
    report = ImportReport(campaign=campaign)
    for sector in sectors:
        report.skipped += [*sector.anomalies, *sector.malformed]

    hexes = {(h.col, h.row): h for h in MapHex.objects.filter(campaign=campaign)}
    systems = {s.key: s for s in StarSystem.objects.filter(campaign=campaign)}
    by_hex = {s.hex_id: s for s in systems.values()}

    wanted: list[tuple[str, World, int, int]] = []
    seen: set[str] = set()
    for sector, (dc, dr) in zip(sectors, offsets, strict=True):
        prefix = sector_key(sector)
        for world in sector.worlds:
            key = f"{prefix}-{world.hex}"
            col, row = world.col + dc, world.row + dr
            if key in seen:
                report.skipped.append(
                    SkippedLine(sector.path, world.line_no, f"hex {world.hex} appears twice")
                )
                continue
            holder = by_hex.get(hexes[(col, row)].pk) if (col, row) in hexes else None
            if holder is not None and holder.key != key:
                reason = f"hex {col:02d}{row:02d} already holds system {holder.key!r}"
                report.skipped.append(SkippedLine(sector.path, world.line_no, reason))
                continue
            seen.add(key)
            wanted.append((key, world, col, row))

    new_hexes = [
        MapHex(campaign=campaign, col=col, row=row, hex_type=HexType.SYSTEM)
        for _, _, col, row in wanted
        if (col, row) not in hexes
    ]
    for h in MapHex.objects.bulk_create(new_hexes):
        hexes[(h.col, h.row)] = h
    report.hexes_created = len(new_hexes)
    retyped = [h for _, _, c, r in wanted if (h := hexes[(c, r)]).hex_type != HexType.SYSTEM]
    for h in retyped:
        h.hex_type = HexType.SYSTEM
    MapHex.objects.bulk_update(retyped, ["hex_type"])

    create: list[StarSystem] = []
    update: list[StarSystem] = []
    for key, world, col, row in wanted:
        system = systems.get(key)
        if system is None:
            system = StarSystem(campaign=campaign, key=key, holder=None, loyalty=0)
            create.append(system)
        else:
            update.append(system)
        _apply(system, world, hexes[(col, row)])
    StarSystem.objects.bulk_create(create)
    bulk_update(StarSystem, update, UPDATED_FIELDS)
    report.created, report.updated = len(create), len(update)
    # The map bounds cover every sector imported so far (contracts §1 map.size).
    campaign.map_cols = max(campaign.map_cols or 0, max(dc for dc, _ in offsets) + SECTOR_COLS)
    campaign.map_rows = max(campaign.map_rows or 0, max(dr for _, dr in offsets) + SECTOR_ROWS)
    campaign.save(update_fields=["map_cols", "map_rows"])
    report.skipped.sort(key=lambda s: (s.path, s.line_no))
    return report


UPDATED_FIELDS = [
    "name",
    "hex",
    "system_type",
    "rate_ore",
    "rate_gal",
    "rate_bio",
    "rate_pl",
    *WORLD_STATISTICS,
]


def _apply(system: StarSystem, world: World, hexagon: MapHex) -> None:
    rates = derive_rates(world)
    system.name = (world.name or f"Unnamed {world.hex}")[:120]
    system.hex = hexagon
    system.rate_ore, system.rate_gal, system.rate_bio, system.rate_pl = (
        rates.ore,
        rates.gal,
        rates.bio,
        rates.pl,
    )
    # Standard/Basic follow the PL rate; Homeworld and Primary are the campaign's own
    # choices, and a type whose maximum is below the system's LR is kept rather than break it.
    if system.system_type in (SystemType.STANDARD, SystemType.BASIC, ""):
        new_type = system_type_for(rates.pl)
        if system.loyalty <= max_loyalty(new_type):
            system.system_type = new_type
    system.starport = world.starport[:1]
    system.size = world.size
    system.atmosphere = world.atmosphere
    system.hydrographics = world.hydrographics
    system.population = world.population
    system.government = world.government
    system.law = world.law
    system.tech_level = world.tech_level
    system.bases = world.bases[:12]
    system.trade_codes = " ".join(world.remarks)[:200]
    system.zone = world.zone
    system.pbg = world.pbg[:3]
    system.allegiance = world.allegiance[:4]
