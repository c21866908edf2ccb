"""Benchmark of the Far Trader trade-route mapper (issue 5; docs/trade-routes.md).

    .venv/bin/python bench/traderoutes.py [--sectors DIR] [--chunk N]

Prints worlds, counted pairs (BTN >= min_btn), pairs >= Minor, legs, seconds (best of three
untraced runs) and peak memory (tracemalloc, one traced run) for
Spinward Marches alone, the five-sector block in DIR (default ../shared/data/sectors; the files
are never copied into the project) and a deterministic synthetic 16-sector block (~5,700 worlds).
"""

from __future__ import annotations

import argparse
import gc
import random
import resource
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from trade.routes.allegiance import AllegianceTable  # noqa: E402
from trade.routes.mapper import (  # noqa: E402 - after the sys.path line, run as a script
    PlacedWorld,
    Placement,
    load_sectors,
    map_worlds,
    place,
)
from trade.routes.sectors import World  # noqa: E402
from trade.routes.settings import RouteSettings  # noqa: E402
from trade.routes.uwp import EHEX  # noqa: E402

FIVE = ("Spinward Marches", "Deneb", "Corridor", "Trojan Reach", "Reft")


def _d6(rng: random.Random, n: int = 2) -> int:
    return sum(rng.randint(1, 6) for _ in range(n))


def _uwp(rng: random.Random) -> tuple[str, str]:
    """A Classic Traveller world roll (Book 3 tables), so the UWP mix is realistic."""
    port = "AAABBCCDEEX"[min(10, max(0, _d6(rng) - 2))]
    size = _d6(rng) - 2
    atm = 0 if size == 0 else max(0, min(15, _d6(rng) - 7 + size))
    hyd = 0 if size <= 1 else _d6(rng) - 7 + size - (4 if atm <= 1 or atm >= 10 else 0)
    hyd = max(0, min(10, hyd))
    pop = _d6(rng) - 2
    gov = max(0, min(15, _d6(rng) - 7 + pop))
    law = max(0, min(15, _d6(rng) - 7 + gov))
    tl = rng.randint(1, 6) + {"A": 6, "B": 4, "C": 2, "X": -4}.get(port, 0)
    tl += (2 if size <= 1 else 1 if size <= 4 else 0) + (1 if atm <= 3 or atm >= 10 else 0)
    tl += (1 if hyd == 9 else 2 if hyd == 10 else 0) + (1 if 1 <= pop <= 5 else 0)
    tl += 1 if pop == 9 else 2 if pop == 10 else 0
    tl = max(0, min(15, tl))
    digits = (size, atm, hyd, pop, gov, law)
    return port + "".join(EHEX[d] for d in digits) + "-" + EHEX[
        tl
    ], f"{rng.randint(1, 9)}0{rng.randint(0, 3)}"


def synthetic_block(
    cols: int = 4, rows: int = 4, density: float = 0.28, seed: int = 5
) -> Placement:
    """A deterministic ``cols`` x ``rows`` sector block with realistic UWPs, zones (7% Amber,
    2% Red), polities in large regions with non-aligned pockets, and X-boat links."""
    rng = random.Random(seed)
    placed: list[PlacedWorld] = []
    for sy in range(rows):
        for sx in range(cols):
            name = f"Synthetic {sx}{sy}"
            for c in range(1, 33):
                for r in range(1, 41):
                    if rng.random() >= density:
                        continue
                    uwp, pbg = _uwp(rng)
                    roll = rng.random()
                    zone = "R" if roll < 0.02 else "A" if roll < 0.09 else ""
                    x, y = c + 32 * sx, r + 40 * sy
                    polity = ("ImDd", "ZhIN", "SwCf", "AsMw")[(x // 48 + 2 * (y // 64)) % 4]
                    alleg = "NaHu" if rng.random() < 0.12 else polity
                    w = World(
                        sector=name,
                        hex=f"{c:02d}{r:02d}",
                        name=f"W{x}.{y}",
                        uwp=uwp,
                        starport=uwp[0],
                        size=EHEX.index(uwp[1]),
                        atmosphere=EHEX.index(uwp[2]),
                        hydrographics=EHEX.index(uwp[3]),
                        population=EHEX.index(uwp[4]),
                        government=EHEX.index(uwp[5]),
                        law=EHEX.index(uwp[6]),
                        tech_level=EHEX.index(uwp[8]),
                        zone=zone,
                        pbg=pbg,
                        allegiance=alleg,
                    )
                    placed.append(PlacedWorld(w, x, y))
    hubs = [p for p in placed if p.world.starport == "A" and p.world.zone == ""]
    by_xy = {(p.x, p.y): p for p in hubs}
    xboat = set()
    for p in hubs:  # X-boat links of 3-4 parsecs between class A ports, as on real maps
        for dx, dy in ((3, 0), (4, 0), (0, 4), (3, 2), (3, -2)):
            q = by_xy.get((p.x + dx, p.y + dy))
            if q is not None:
                a, b = sorted((p.world.id, q.world.id))
                xboat.add((a, b))
    return Placement(worlds=tuple(placed), xboat=tuple(sorted(xboat)))


def run(label: str, placement: Placement, table: AllegianceTable, cfg: RouteSettings) -> None:
    gc.collect()
    tracemalloc.start()
    t0 = time.perf_counter()
    result = map_worlds(placement, cfg, allegiances=table)
    seconds = time.perf_counter() - t0
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    # Untraced runs (tracemalloc slows allocation-heavy code): the best of three, since the
    # machine may be shared; cpu is the process time of that run.
    timings = []
    for _ in range(3):
        gc.collect()
        t0, c0 = time.perf_counter(), time.process_time()
        map_worlds(placement, cfg, allegiances=table)
        timings.append((time.perf_counter() - t0, time.process_time() - c0))
    plain, cpu = min(timings)
    classes = result.legs_by_class()
    print(
        f"{label:<24} worlds {len(result.worlds):>5}  pairs {result.counted_pairs:>8}"
        f" (>=8: {len(result.pairs):>6})  legs {len(result.legs):>6}"
        f" (routes {sum(classes.values()):>5})  {plain:5.2f} s (cpu {cpu:5.2f} s)"
        f" (traced {seconds:5.2f} s)  peak {peak / 2**20:6.1f} MB"
        f"  (process maxrss {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:6.1f} MB)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sectors", default=str(ROOT.parent / "shared" / "data" / "sectors"))
    parser.add_argument("--chunk", type=int, default=RouteSettings().chunk)
    parser.add_argument("--skip-real", action="store_true", help="only the synthetic block")
    args = parser.parse_args(argv)
    cfg = RouteSettings(chunk=args.chunk)
    folder = Path(args.sectors)
    if not args.skip_real:
        if not (folder / "Spinward Marches.tab").is_file():
            print(f"no sector files in {folder}; use --sectors DIR or --skip-real", file=sys.stderr)
            return 2
        table_path = folder / "allegiance_codes.tab"
        table = AllegianceTable.load(table_path) if table_path.is_file() else AllegianceTable()
        files = load_sectors([folder / f"{name}.tab" for name in FIVE])
        run("Spinward Marches", place(files[:1]), table, cfg)
        run("5-sector block", place(files), table, cfg)
    for cols, rows in ((2, 2), (4, 2), (4, 4)):  # 4, 8, 16 sectors: memory vs worlds
        synthetic = synthetic_block(cols, rows)
        run(f"synthetic {cols * rows} sectors", synthetic, AllegianceTable(), cfg)
    return 0


if __name__ == "__main__":
    sys.exit(main())
