"""Benchmark the public campaign map: ``.venv/bin/python bench/maps.py``.

Builds a campaign by importing four sectors (a 2 × 2 block, ~1,300 systems) into a fresh
database, adds powers, holders, hubs, groups and statics, and prints the time and the number of
queries to build the public map (selector + SVG) and to serve the whole page, best of five.
The same is measured with one sector imported, to show that the query count does not grow.
Target (issue 7): under 1 s at ~1,300 systems.

``--sectors DIR`` imports the real files from DIR (Spinward Marches, Deneb, Trojan Reach and Reft;
``"$FTCAMP_SECTORS"`` or ``../shared/data/sectors``) instead of generated ones. The database is a
temporary SQLite file, or ``--database-url postgres://postgres@127.0.0.1:5432/ftcamp_bench``
(created and dropped here).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import ParseResult, urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

REAL = ["Spinward Marches.tab", "Deneb.tab", "Trojan Reach.tab", "Reft.tab"]
HEADER = "Sector\tSS\tHex\tName\tUWP\tBases\tRemarks\tZone\tPBG\tAllegiance\tStars"
EHEX = "0123456789ABCDEF"
CODES = ["Ag", "In", "Ri", "Po", "Na", "Hi", "Lo", "Ni", "As", "Wa", "Ga", "Va", "De"]


def generate(folder: Path, worlds_per_sector: int = 325) -> list[Path]:
    """Four generated sectors at X, Y = (0, 0), (1, 0), (0, 1), (1, 1)."""
    rng = random.Random(7)
    paths = []
    for n, (x, y) in enumerate(((0, 0), (1, 0), (0, 1), (1, 1))):
        hexes = rng.sample([(c, r) for c in range(1, 33) for r in range(1, 41)], worlds_per_sector)
        rows = [HEADER]
        for i, (c, r) in enumerate(sorted(hexes)):
            uwp = (
                rng.choice("ABCDEX")
                + "".join(EHEX[rng.randint(0, 10)] for _ in range(6))
                + "-"
                + EHEX[rng.randint(0, 15)]
            )
            remarks = " ".join(rng.sample(CODES, rng.randint(0, 3)))
            pbg = f"{rng.randint(1, 9)}{rng.randint(0, 3)}{rng.randint(0, 4)}"
            rows.append(
                "\t".join(
                    [
                        f"G{n}",
                        "A",
                        f"{c:02d}{r:02d}",
                        f"World {n}-{i}",
                        uwp,
                        "",
                        remarks,
                        "",
                        pbg,
                        "ImDd",
                        "G2 V",
                    ]
                )
            )
        path = folder / f"Gen{n}.tab"
        path.write_text("\n".join(rows) + "\n", "utf-8")
        (folder / f"Gen{n}.xml").write_text(
            f'<Sector Abbreviation="Gen{n}"><X>{x}</X><Y>{y}</Y><Name>Gen{n}</Name></Sector>'
        )
        paths.append(path)
    return paths


def setup_django(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DEBUG", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ftcamp.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    _route_maps()


def _route_maps() -> None:
    """Serve the map pages even where the root URLconf does not include them yet."""
    import types

    from django.conf import settings
    from django.urls import NoReverseMatch, clear_url_caches, include, path, reverse

    try:
        reverse("map-public", args=[1])
    except NoReverseMatch:
        from ftcamp.urls import urlpatterns

        module = types.ModuleType("bench_map_urls")
        vars(module)["urlpatterns"] = [*urlpatterns, path("", include("campaigns.map_urls"))]
        sys.modules[module.__name__] = module
        settings.ROOT_URLCONF = module.__name__
        clear_url_caches()


def populate(campaign_name: str, files: list[Path]) -> int:
    """Import ``files`` and give the campaign eight powers with systems, hubs and counters."""
    from campaigns.sector_import import import_sectors
    from powers.models import Campaign, FleetGroup, Power, StarSystem, Static
    from trade.models import HubNode, TradeHub

    report = import_sectors(campaign_name=campaign_name, files=files)
    campaign = Campaign.objects.get(name=campaign_name)
    powers = Power.objects.bulk_create(
        Power(campaign=campaign, key=f"p{i}", name=f"Power {i}", colour=f"#{i * 30:02x}6699")
        for i in range(8)
    )
    systems = list(StarSystem.objects.filter(campaign=campaign).select_related("hex"))
    for i, s in enumerate(systems):
        if i % 3 == 0:
            s.holder, s.loyalty = powers[i % 8], 5
    StarSystem.objects.bulk_update(systems, ["holder", "loyalty"], batch_size=500)
    hubs = TradeHub.objects.bulk_create(
        TradeHub(campaign=campaign, key=f"hub{i}", power=powers[i % 8]) for i in range(40)
    )
    nodes = []
    for i, hub in enumerate(hubs):
        for j in range(4):
            s = systems[(i * 4 + j) * 3 % len(systems)]
            nodes.append(
                HubNode(campaign=campaign, hub=hub, col=s.hex.col, row=s.hex.row, is_centre=j == 0)
            )
    HubNode.objects.bulk_create(nodes, ignore_conflicts=True)
    FleetGroup.objects.bulk_create(
        FleetGroup(
            campaign=campaign, key=f"g{i}", power=powers[i % 8], col=s.hex.col, row=s.hex.row
        )
        for i, s in enumerate(systems[::4])
    )
    Static.objects.bulk_create(
        Static(campaign=campaign, key=f"s{i}", power=powers[i % 8], col=s.hex.col, row=s.hex.row)
        for i, s in enumerate(systems[1::6])
    )
    return report.imported


def measure(campaign_name: str) -> tuple[float, int, float, int, int]:
    """Best of five: (selector + SVG seconds, queries, whole page seconds, queries, SVG bytes)."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from campaigns import map_selectors
    from powers.maps import render_svg
    from powers.models import Campaign

    campaign = Campaign.objects.get(name=campaign_name)
    client = Client(SERVER_NAME="localhost")
    url = f"/campaigns/{campaign.pk}/map/"
    best_svg = best_page = float("inf")
    q_svg = q_page = size = 0
    for _ in range(5):
        t = time.perf_counter()
        with CaptureQueriesContext(connection) as ctx:
            svg = render_svg(map_selectors.public_map(campaign=campaign))
        best_svg = min(best_svg, time.perf_counter() - t)
        q_svg, size = len(ctx.captured_queries), len(svg.encode())
        t = time.perf_counter()
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(url)
        best_page = min(best_page, time.perf_counter() - t)
        q_page = len(ctx.captured_queries)
        if response.status_code != 200:
            raise SystemExit(f"{url} answered {response.status_code}")
    return best_svg, q_svg, best_page, q_page, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sectors", type=Path, help="folder with the real sector files")
    parser.add_argument("--database-url", help="default: a temporary SQLite file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if args.sectors and all((args.sectors / f).is_file() for f in REAL):
            files, source = [args.sectors / f for f in REAL], f"real sectors from {args.sectors}"
        else:
            files, source = generate(folder), "four generated sectors"
        url = args.database_url or f"sqlite:///{folder / 'bench.sqlite3'}"
        pg = urlparse(url) if url.startswith("postgres") else None
        if pg:
            _pg_database(pg, create=True)
        try:
            setup_django(url)
            small = populate("Bench one sector", files[:1])
            large = populate("Bench four sectors", files)
            print(f"maps bench: {source}, database {url.split(':', 1)[0]}")
            for label, n in (("Bench one sector", small), ("Bench four sectors", large)):
                svg_s, svg_q, page_s, page_q, size = measure(label)
                print(
                    f"  {n:>5} systems: public map selector+SVG {svg_s * 1000:7.1f} ms "
                    f"({svg_q} queries, {size / 1024:.0f} KiB); whole page {page_s * 1000:7.1f} ms "
                    f"({page_q} queries)"
                )
        finally:
            if pg:
                from django.db import connections

                connections.close_all()
                _pg_database(pg, create=False)


def _pg_database(url: ParseResult, *, create: bool) -> None:
    import psycopg

    parsed = url
    name = parsed.path.lstrip("/")
    admin = parsed._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        if create:
            conn.execute(f'CREATE DATABASE "{name}"')


if __name__ == "__main__":
    main()
