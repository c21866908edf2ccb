"""The mapper's two innermost loops in C (``csrc/native.c``, built by ``pip install`` beside it
as ``csrc/native`` + the interpreter's extension suffix, and loaded with ctypes): the T-6
searches and the T-7 tree flows.

scipy's Dijkstra (a Fibonacci heap for any weights) and the numpy tree walk are the reference
and the fallback where no C compiler built the library (:func:`available`): both give the same
numbers, to the bit (``tests/routes/test_native.py``). The C code needs no heap, since every
edge adds whole units of the metric's leading count (``csrc/native.c``), and does not import scipy
(a quarter of a second), so on the 16-sector block the command takes about half the time.

A library is used only when it reports the digest of the ``native.c`` beside it
(``native_build.py``): one built from another source (stale) is refused, and :func:`status`
says why.
"""

from __future__ import annotations

import ctypes
import os
from functools import cache
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from .native_build import source_digest

CSRC = Path(__file__).parent / "csrc"  # native.c and the library built from it
_I64 = ctypes.c_int64
_PTR = ctypes.c_void_p
_INT64_MAX = np.iinfo(np.int64).max
_ERRORS = {
    -1: "out of memory",
    -2: "a reached world has no predecessor on a best path",
    -3: "a path of 1,000 jumps or more",
}
_FALLBACK = "numpy and scipy"


def library_path(folder: Path) -> Path | None:
    """The library built in ``folder``, by the names this interpreter gives an extension."""
    return next(
        (folder / f"native{s}" for s in EXTENSION_SUFFIXES if (folder / f"native{s}").is_file()),
        None,
    )


def load(folder: Path) -> tuple[ctypes.CDLL | None, str]:
    """The library in ``folder`` if it was built from the ``native.c`` there, and one line
    saying which code runs and why: none is built, it is turned off (``FTCAMP_NO_NATIVE=1``),
    or it is refused (built from another source, or not loadable)."""
    if os.environ.get("FTCAMP_NO_NATIVE"):
        return None, f"{_FALLBACK}: FTCAMP_NO_NATIVE is set"
    path = library_path(folder)
    if path is None:
        return (
            None,
            f"{_FALLBACK}: no C library in {folder} (pip install builds it with a C compiler)",
        )
    rebuild = "pip install (make install) builds it again"
    try:
        source = source_digest(folder / "native.c")
        lib = ctypes.CDLL(str(path))
        version = lib.ft_source_digest
    except OSError as error:  # no native.c to check it against, or not loadable here
        return None, f"{_FALLBACK}: {path} refused ({error})"
    except AttributeError:  # no such symbol: built before the check
        return None, f"{_FALLBACK}: {path} reports no source digest (stale); {rebuild}"
    version.restype = ctypes.c_char_p
    built = version().decode()
    if built != source:
        return None, (
            f"{_FALLBACK}: {path} is stale: built from a native.c of sha256 {built[:12]}..., "
            f"not this one's {source[:12]}...; {rebuild}"
        )
    lib.ft_search.argtypes = [_I64, _PTR, _PTR, _PTR, _I64, _I64, _PTR, _I64, _PTR]
    lib.ft_tree_flows.argtypes = [_I64, _I64, _PTR, _I64, _PTR, _PTR, _I64, _PTR, _PTR, _PTR]
    lib.ft_tree_flows.argtypes += [_I64, _I64, _PTR, _PTR]
    return lib, f"C: {path}, built from this native.c"


@cache
def _loaded() -> tuple[ctypes.CDLL | None, str]:
    return load(CSRC)


def _library() -> ctypes.CDLL | None:
    return _loaded()[0]


def available() -> bool:
    """Is the C library built from this ``native.c``, and not turned off with
    ``FTCAMP_NO_NATIVE=1``?"""
    return _library() is not None


def status() -> str:
    """One line: the code the searches run (C or numpy and scipy), and why."""
    return _loaded()[1]


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
