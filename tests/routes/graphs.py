"""Random small maps as the mapper's search graphs, for the tests that compare searches and
walks with each other (test_paths.py, test_native.py)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import strategies as st

from trade.routes import native, paths

Spec = list[tuple[int, int, bool]]  # (column, row, bad waypoint) per world
Links = set[tuple[int, int]]  # communication routes, by world index

#: The C side of a comparison: skipped where the C library is not used (none is built, it is
#: turned off, or refused), with native.status() saying which.
needs_c = pytest.mark.skipif(not native.available(), reason=native.status())


def random_maps(side: int, most: int, least: int = 1) -> st.SearchStrategy[tuple[Spec, Links]]:
    """``least`` to ``most`` worlds on distinct hexes of a ``side`` x ``side`` map, some of
    them bad waypoints, and a few communication routes (those naming no world are dropped)."""
    worlds = st.lists(
        st.tuples(st.integers(1, side), st.integers(1, side), st.booleans()),
        min_size=least,
        max_size=most,
        unique_by=lambda t: (t[0], t[1]),
    )
    links = st.sets(st.tuples(st.integers(0, most - 1), st.integers(0, most - 1)), max_size=6)
    return st.tuples(worlds, links)


def jump_graphs(spec: Spec, links: Links) -> list[paths.JumpGraph]:
    """The three graphs the mapper searches: P0, the clean P1 graph with its leaving copies,
    and jump-3, with the tie order a shuffle of the worlds (as the mapper's sorted ids)."""
    x = np.array([t[0] for t in spec], dtype=np.int64)
    y = np.array([t[1] for t in spec], dtype=np.int64)
    bad = np.array([t[2] for t in spec], dtype=bool)
    n = len(spec)
    kept = [(a, b) for a, b in links if a < n and b < n and a != b]
    extra = (
        np.array([a for a, _ in kept], dtype=np.int64),
        np.array([b for _, b in kept], dtype=np.int64),
    )
    tie = np.argsort(np.array([(7 * i + 3) % n for i in range(n)]), kind="stable")
    return [
        paths.build_graph(x, y, bad, 2, extra, tie, metric=paths.FEWEST_PARSECS),
        paths.build_graph(x, y, bad, 2, extra, tie, metric=paths.CLEAN, clean=True),
        paths.build_graph(x, y, bad, 3, extra, tie, metric=paths.FEWEST_JUMPS),
    ]
