"""The variants (one frozen settings object) and progress reports."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from trade.routes import RouteSettings, map_routes

from .helpers import BIG, row, write_sector


def test_defaults_follow_the_spec() -> None:
    cfg = RouteSettings()
    assert (cfg.classifications, cfg.btn_cap, cfg.min_btn, cfg.gwp_cap) == (
        "uwp",
        "2wtn+1",
        6,
        False,
    )
    assert cfg.min_btn_h == 12


def test_with_variants_parses_and_rejects() -> None:
    cfg = RouteSettings().with_variants(
        ["classifications=remarks", "btn_cap=none", "min_btn=7.5", "gwp_cap=yes", "chunk=8"]
    )
    assert (cfg.classifications, cfg.btn_cap, cfg.min_btn, cfg.gwp_cap, cfg.chunk) == (
        "remarks",
        "none",
        Decimal("7.5"),
        True,
        8,
    )
    assert cfg.min_btn_h == 15
    for bad in (
        "btn_cap=huge",
        "nope=1",
        "min_btn=6.3",
        "min_btn=x",
        "gwp_cap=maybe",
        "chunk=0",
        "chunk=-2",
        "classifications",
    ):
        with pytest.raises(ValueError):
            RouteSettings().with_variants([bad])


def test_variants_change_the_map(tmp_path: Path) -> None:
    # Big: A788999-C, GURPS TL 10 (+1) + PR 9 (+4.5) = UWTN 5.5, class V port +0 -> WTN 5.5.
    # Small: C655433-5, TL 5 -> GURPS 6 (+0.5) + PR 4 (+2) = UWTN 2.5, class III port in the
    # 2-2.5 row +0.5 -> WTN 3; only Ni, and Big is not In, so WTCM 0. One parsec: no modifier.
    # Raw BTN 5.5 + 3 = 8.5; default cap 2 x 3 + 1 = 7 -> 7 (counted, not listed);
    # "wtn+5" -> 8 (Minor); "none" -> 8.5.
    rows = [row("0101", "Big", "A788999-C"), row("0102", "Small", "C655433-5")]
    path = write_sector(tmp_path, "Var", rows)

    def btn_of(**kw: object) -> float | None:
        result = map_routes([path], RouteSettings(**kw))  # type: ignore[arg-type]
        return result.pairs[0].btn_h / 2 if result.pairs else None

    assert btn_of() is None
    assert map_routes([path]).counted_pairs == 1
    assert btn_of(btn_cap="wtn+5") == 8.0
    assert btn_of(btn_cap="none") == 8.5
    # gwp_cap (T-8): the small world's GWP = 895 (GURPS TL 6) x 0.8 (Ni) x 5 x 10^4 (PBG 503)
    # = 35,800,000, so trade is held to 358,000,000 -> BTN 8 (1e8 <= 3.58e8 < 5e8).
    assert btn_of(btn_cap="none", gwp_cap=True) == 8.0


def test_remarks_variant_reads_the_file_codes(tmp_path: Path) -> None:
    # By UWP both are plain (WTCM 0: 5 + 5 - 0.5 at 2 pc = 9.5); by remarks one is Ag and the
    # other As (Ex): +0.5 -> 10.
    rows = [row("0101", "A", BIG, remarks="Ag"), row("0103", "B", BIG, remarks="As")]
    path = write_sector(tmp_path, "Rem", rows)
    assert map_routes([path]).pairs[0].btn_h == 19
    assert map_routes([path], RouteSettings(classifications="remarks")).pairs[0].btn_h == 20


def test_progress_is_reported(tmp_path: Path) -> None:
    rows = [row(f"01{r:02d}", f"W{r}", BIG) for r in range(1, 11)]
    seen: list[tuple[int, int]] = []
    map_routes(
        [write_sector(tmp_path, "Prog", rows)],
        RouteSettings(chunk=3),
        progress=lambda done, total: seen.append((done, total)),
    )
    assert seen[0][0] == 0 and seen[-1][0] == seen[-1][1] > 0
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
