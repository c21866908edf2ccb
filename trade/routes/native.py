"""The mapper's two innermost loops in C (``csrc/native.c``, built by ``make install`` into
``csrc/native.so`` and loaded with ctypes): the T-6 searches and the T-7 tree flows.

scipy's Dijkstra (a Fibonacci heap for any weights) and the numpy tree walk are the reference
and the fallback where no C compiler built the library (:func:`available`): both give the same
numbers, to the bit (``tests/routes/test_native.py``). The C code needs no heap, since every
edge adds whole units of the metric's leading count (``csrc/native.c``), and does not import scipy
(a quarter of a second), so on the 16-sector block the command takes about half the time.
"""

from __future__ import annotations

import ctypes
import os
from functools import cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

LIBRARY = Path(__file__).parent / "csrc" / "native.so"  # not a package: no module to find
_I64 = ctypes.c_int64
_PTR = ctypes.c_void_p
_INT64_MAX = np.iinfo(np.int64).max
_ERRORS = {
    -1: "out of memory",
    -2: "a reached world has no predecessor on a best path",
    -3: "a path of 1,000 jumps or more",
}


@cache
def _library() -> ctypes.CDLL | None:
    if os.environ.get("FTCAMP_NO_NATIVE") or not LIBRARY.is_file():
        return None
    lib = ctypes.CDLL(str(LIBRARY))
    lib.ft_search.argtypes = [_I64, _PTR, _PTR, _PTR, _I64, _I64, _PTR, _I64, _PTR]
    lib.ft_tree_flows.argtypes = [_I64, _I64, _PTR, _I64, _PTR, _PTR, _I64, _PTR, _PTR, _PTR]
    lib.ft_tree_flows.argtypes += [_I64, _I64, _PTR, _PTR]
    return lib


def available() -> bool:
    """Is the C library built (and not turned off with ``FTCAMP_NO_NATIVE=1``)?"""
    return _library() is not None


def _ptr(a: NDArray[np.generic]) -> int:
    assert a.flags.c_contiguous
    return int(a.ctypes.data)


def _check(status: int) -> None:
    if status:
        raise RuntimeError(f"trade.routes native code: {_ERRORS.get(status, status)}")


def search(
    n: int,
    indptr: NDArray[np.int64],
    indices: NDArray[np.int64],
    weight: NDArray[np.int64],
    unit: int,
    starts: NDArray[np.int64],
    limit: float,
) -> NDArray[np.float64]:
    """Path weights from each node of ``starts`` (one row each, ``inf`` beyond ``limit``) on
    the CSR graph (``weight``: exact integers, each at least ``unit``, the metric's leading
    unit)."""
    lib = _library()
    assert lib is not None
    starts = np.ascontiguousarray(starts, dtype=np.int64)
    out = np.empty((len(starts), n))
    cap = _INT64_MAX if np.isinf(limit) else int(limit)
    _check(
        lib.ft_search(
            n, _ptr(indptr), _ptr(indices), _ptr(weight), unit, len(starts), _ptr(starts), cap,
            _ptr(out),
        )
    )  # fmt: skip
    return out


def tree_flows(
    dist: NDArray[np.float64],
    at: NDArray[np.int64],
    amount: NDArray[np.int64],
    pads: tuple[NDArray[np.int64], NDArray[np.float64], NDArray[np.int64]],
    jump: int,
    per: int,
    acc: NDArray[np.int64],
    flow: NDArray[np.int64],
) -> None:
    """Add each pair's ``amount`` to ``flow`` along its tree branch (``csrc/native.c``); ``pads``:
    the graph's in-neighbours in tie order, their weights and in-edge entries; ``acc``: k x n
    zeros (zeros again afterwards)."""
    lib = _library()
    assert lib is not None
    k, n = dist.shape
    pad_u, pad_w, pad_e = pads
    at = np.ascontiguousarray(at, dtype=np.int64)
    amount = np.ascontiguousarray(amount, dtype=np.int64)
    status = lib.ft_tree_flows(
        n, k, _ptr(dist), len(at), _ptr(at), _ptr(amount), pad_u.shape[1], _ptr(pad_u),
        _ptr(pad_w), _ptr(pad_e), jump, per, _ptr(acc), _ptr(flow),
    )  # fmt: skip
    if status:
        acc[:] = 0  # an error leaves it half done
    _check(status)
