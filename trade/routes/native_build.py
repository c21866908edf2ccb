"""How the mapper's C loops are built, and which source a built library came from.

``pip install`` (``setup.py``) compiles ``csrc/native.c`` as an optional extension with the
sha256 of its text defined in (``FT_SOURCE_DIGEST``, returned by ``ft_source_digest``), and
:mod:`.native` uses the library only when that is the digest of the ``native.c`` beside it.
The tests build it again through :func:`extension`, so the build they check is this one.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from setuptools import Extension

# Beside its source (csrc/native + the interpreter's extension suffix); csrc is no package, so
# nothing imports it as a module: native.py loads it with ctypes.
NAME = "trade.routes.csrc.native"
FLAGS = ["-O2", "-std=c99", "-Wall", "-Wextra"]


def source_digest(source: Path) -> str:
    """The sha256 of a ``native.c``'s text: the version a library built from it reports."""
    return hashlib.sha256(source.read_bytes()).hexdigest()


def extension(source: Path) -> Extension:
    """``source`` as an optional extension: where it does not compile (no C compiler), the
    install goes on and the mapper runs its numpy and scipy code."""
    from setuptools import Extension  # only a build needs setuptools

    digest = f'"{source_digest(source)}"'  # a C string literal
    return Extension(
        NAME,
        sources=[str(source)],
        define_macros=[("FT_SOURCE_DIGEST", digest)],
        extra_compile_args=FLAGS,
        optional=True,
    )
