"""The C loops (trade/routes/csrc/native.c) against the numpy code they stand in for: the same
numbers, to the bit. The searches are compared with scipy's Dijkstra in test_paths.py."""

from __future__ import annotations

from unittest.mock import patch

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from trade.routes import native, paths
from trade.routes.legs import Scratch, add_tree_flows


def test_the_library_is_built() -> None:
    """``make install`` builds it; without it the mapper falls back to its slower code, and
    the tests here would compare that code with itself."""
    assert native.available(), f"{native.LIBRARY} is missing: run make install"


def _graphs(
    spec: list[tuple[int, int, bool]], links: set[tuple[int, int]]
) -> list[paths.JumpGraph]:
    x = np.array([t[0] for t in spec], dtype=np.int64)
    y = np.array([t[1] for t in spec], dtype=np.int64)
    bad = np.array([t[2] for t in spec], dtype=bool)
    n = len(spec)
    kept = [(a, b) for a, b in links if a < n and b < n and a != b]
    extra = (
        np.array([a for a, _ in kept], dtype=np.int64),
        np.array([b for _, b in kept], dtype=np.int64),
    )
    # Tie order: the world ids' order, here a shuffle of the nodes (as the mapper's sorted ids).
    tie = np.argsort(np.array([(7 * i + 3) % n for i in range(n)]), kind="stable")
    return [
        paths.build_graph(x, y, bad, 2, extra, tie, metric=paths.FEWEST_PARSECS),
        paths.build_graph(x, y, bad, 2, extra, tie, metric=paths.CLEAN, clean=True),
        paths.build_graph(x, y, bad, 3, extra, tie, metric=paths.FEWEST_JUMPS),
    ]


def _flows(graph: paths.JumpGraph, dist, at, amount, *, in_c: bool):  # type: ignore[no-untyped-def]
    flow = np.zeros(len(graph.incoming.indices), dtype=np.int64)
    scratch = Scratch()
    with patch.object(native, "available", lambda: in_c):
        add_tree_flows(graph, dist, at, amount, flow, scratch)
    assert not scratch.acc.any()  # left all zeros for the next call
    return flow


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 10), st.integers(1, 10), st.booleans()),
        min_size=2,
        max_size=50,
        unique_by=lambda t: (t[0], t[1]),
    ),
    st.sets(st.tuples(st.integers(0, 49), st.integers(0, 49)), max_size=5),
    st.data(),
)
def test_tree_flows_in_c_are_numpys(  # type: ignore[no-untyped-def]
    spec, links, data
) -> None:
    """T-7: the C walk puts every pair's trade on the same edges as the numpy one (each node's
    parent the first in-neighbour in tie order on a best path), on every graph the mapper
    builds, for any ends (the sources themselves included) and amounts (zero, and large)."""
    n = len(spec)
    for graph in _graphs(spec, links):
        sources = np.array(
            data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=6, unique=True)),
            dtype=np.int64,
        )
        dist = paths.shortest(graph, sources, np.inf)
        reached = np.flatnonzero(np.isfinite(dist.reshape(-1)))
        chosen = data.draw(st.lists(st.sampled_from(reached.tolist()), unique=True))
        at = np.array(chosen, dtype=np.int64)
        amount = np.array(
            data.draw(
                st.lists(st.integers(0, 10**12) | st.just(0), min_size=len(at), max_size=len(at))
            ),
            dtype=np.int64,
        )
        in_c = _flows(graph, dist, at, amount, in_c=True)
        in_numpy = _flows(graph, dist, at, amount, in_c=False)
        assert np.array_equal(in_c, in_numpy), graph.metric
        # Each pair's trade crosses one edge per jump of its path.
        jumps = graph.metric.decode(dist.reshape(-1)[at])[1]
        assert in_c.sum() == (amount * jumps).sum()


def test_weights_that_are_no_search_are_refused() -> None:
    """A row whose weights no path gives (here: an end's weight one Amber waypoint too heavy)
    is an error, in C as in numpy."""
    spec = [(1, 1, False), (1, 2, False), (1, 3, False)]
    graph = _graphs(spec, set())[0]
    dist = paths.shortest(graph, np.array([0]), np.inf)
    dist[0, 2] += 1  # no in-neighbour's weight plus its edge gives this
    for in_c in (True, False):
        try:
            _flows(graph, dist, np.array([2]), np.array([5]), in_c=in_c)
        except (RuntimeError, ValueError) as exc:
            assert "predecessor" in str(exc)
        else:
            raise AssertionError("accepted")
