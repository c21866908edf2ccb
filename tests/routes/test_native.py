"""The C loops (trade/routes/csrc/native.c) against the numpy code they stand in for: the same
numbers, to the bit. The searches are compared with scipy's Dijkstra in test_paths.py."""

from __future__ import annotations

import os
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trade.routes import native, paths
from trade.routes.legs import Scratch, add_tree_flows

from .graphs import jump_graphs, needs_c, random_maps


def test_a_built_library_is_used() -> None:
    """``pip install`` (``make install``) builds it where a C compiler is, and then the mapper
    uses it: a library that is here but refused (stale: built from another native.c) fails
    here. Where none is built (or FTCAMP_NO_NATIVE=1), the C side of the tests skips with this
    reason, and the mapper runs the code it is compared with."""
    if native.library_path(native.CSRC) is None or os.environ.get("FTCAMP_NO_NATIVE"):
        pytest.skip(native.status())
    assert native.available(), native.status()


def _flows(graph: paths.JumpGraph, dist, at, amount, *, in_c: bool):  # type: ignore[no-untyped-def]
    flow = np.zeros(len(graph.incoming.indices), dtype=np.int64)
    scratch = Scratch()
    with patch.object(native, "available", lambda: in_c):
        add_tree_flows(graph, dist, at, amount, flow, scratch)
    assert not scratch.acc.any()  # left all zeros for the next call
    return flow


@needs_c
@settings(max_examples=80, deadline=None)
@given(random_maps(10, 50, least=2), st.data())
def test_tree_flows_in_c_are_numpys(  # type: ignore[no-untyped-def]
    world_map, data
) -> None:
    """T-7: the C walk puts every pair's trade on the same edges as the numpy one (each node's
    parent the first in-neighbour in tie order on a best path), on every graph the mapper
    builds, for any ends (the sources themselves included) and amounts (zero, and large)."""
    spec, links = world_map
    n = len(spec)
    for graph in jump_graphs(spec, links):
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


@pytest.mark.parametrize("in_c", [pytest.param(True, marks=needs_c), False], ids=["c", "numpy"])
def test_weights_that_are_no_search_are_refused(in_c: bool) -> None:
    """A row whose weights no path gives (here: an end's weight one Amber waypoint too heavy)
    is an error, in C as in numpy."""
    spec = [(1, 1, False), (1, 2, False), (1, 3, False)]
    graph = jump_graphs(spec, set())[0]
    dist = paths.shortest(graph, np.array([0]), np.inf)
    dist[0, 2] += 1  # no in-neighbour's weight plus its edge gives this
    with pytest.raises((RuntimeError, ValueError), match="predecessor"):
        _flows(graph, dist, np.array([2]), np.array([5]), in_c=in_c)
