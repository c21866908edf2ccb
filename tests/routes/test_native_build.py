"""``pip install`` builds csrc/native.c as an optional extension with the digest of its text
defined in (setup.py, trade/routes/native_build.py), and native.py uses a library only when it
reports the digest of the native.c beside it. Each library here is built by that same build,
setuptools' build_ext on ``native_build.extension``, into a folder of the test's own."""

from __future__ import annotations

import os
import random
import shutil
import sysconfig
from functools import cache, partial
from pathlib import Path

import pytest
from setuptools import Distribution
from setuptools.command.build_ext import build_ext

from trade.routes import map_routes, native, native_build, to_json

from .helpers import row, write_sector

SOURCE = native.CSRC / "native.c"


def _compiler() -> str | None:
    """The C compiler a build would run (``CC``, else the one Python was built with)."""
    words = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "").split()
    return shutil.which(words[0]) if words else None


def _build(source: Path, folder: Path) -> Path:
    """The library pip install builds from ``source``, put into ``folder``."""
    if _compiler() is None:
        pytest.skip("no C compiler: pip install leaves the library out here")
    ext = native_build.extension(source)
    ext.optional = False  # a failed compile is an error here, with the compiler's message
    command = build_ext(Distribution({"ext_modules": [ext]}))
    command.build_lib, command.build_temp = str(folder / "lib"), str(folder / "temp")
    command.ensure_finalized()
    command.run()
    [library] = command.get_outputs()
    return Path(shutil.move(library, folder))


def _folder(path: Path) -> Path:
    """A folder like the package's csrc/: this native.c, and no library yet."""
    path.mkdir()
    shutil.copy(SOURCE, path)
    return path


@pytest.fixture(autouse=True)
def _native_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks here are load()'s own, whatever the suite runs with."""
    monkeypatch.delenv("FTCAMP_NO_NATIVE", raising=False)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = _folder(tmp_path_factory.mktemp("built") / "csrc")
    _build(folder / "native.c", folder)
    return folder


def test_a_library_built_from_this_native_c_is_used(built: Path) -> None:
    library, why = native.load(built)
    assert library is not None, why
    assert why == f"C: {native.library_path(built)}, built from this native.c"


def test_a_library_built_from_another_native_c_is_refused(tmp_path: Path) -> None:
    """The stale library: native.c changed since the build (an edit, a pull)."""
    folder = _folder(tmp_path / "csrc")
    with (folder / "native.c").open("a") as source:
        source.write("/* an edit since the build */\n")
    stale = native_build.source_digest(folder / "native.c")
    _build(folder / "native.c", folder)
    shutil.copy(SOURCE, folder)  # the package's native.c again
    library, why = native.load(folder)
    assert library is None
    now = native_build.source_digest(SOURCE)
    assert why == (
        f"numpy and scipy: {native.library_path(folder)} is stale: built from a native.c of "
        f"sha256 {stale[:12]}..., not this one's {now[:12]}...; pip install (make install) "
        "builds it again"
    )


def test_a_library_that_reports_no_digest_is_refused(tmp_path: Path) -> None:
    """One built before the check, with the same loops and no ``ft_source_digest``."""
    folder = _folder(tmp_path / "csrc")
    before = tmp_path / "before.c"
    before.write_text(SOURCE.read_text().replace("ft_source_digest", "ft_no_such_thing"))
    _build(before, folder)
    library, why = native.load(folder)
    assert library is None
    assert why == (
        f"numpy and scipy: {native.library_path(folder)} reports no source digest (stale); "
        "pip install (make install) builds it again"
    )


def test_ftcamp_no_native_turns_a_good_library_off(
    built: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FTCAMP_NO_NATIVE", "1")
    assert native.load(built) == (None, "numpy and scipy: FTCAMP_NO_NATIVE is set")


def _sector(folder: Path) -> Path:
    """A sector of 90 worlds of any kind, close enough for long paths with ties."""
    rng = random.Random(27)
    hexes = rng.sample([f"{c:02}{r:02}" for c in range(1, 17) for r in range(1, 21)], 90)
    rows = []
    for i, where in enumerate(sorted(hexes)):
        digits = [rng.randint(0, 10) for _ in range(6)]
        uwp = rng.choice("ABCDEX") + "".join(f"{d:X}" for d in digits) + f"-{rng.randint(0, 15):X}"
        rows.append(row(where, f"World {i}", uwp, zone=rng.choice(["", "", "", "A"])))
    return write_sector(folder, "Random", rows)


def _map_with(folder: Path, sector: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[bool, str]:
    """Whether native.py, looking in ``folder``, runs the C code, and the map's JSON."""
    monkeypatch.setattr(native, "_loaded", cache(partial(native.load, folder)))
    return native.available(), to_json(map_routes([sector]))


def test_without_a_library_the_status_says_so(tmp_path: Path) -> None:
    folder = _folder(tmp_path / "csrc")
    assert native.load(folder) == (
        None,
        f"numpy and scipy: no C library in {folder} (pip install builds it with a C compiler)",
    )


def test_without_a_library_the_map_is_the_same(
    built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a library the numpy and scipy code runs, and the map is the same."""
    sector = _sector(tmp_path)
    in_c, with_library = _map_with(built, sector, monkeypatch)
    fell_back, without = _map_with(_folder(tmp_path / "csrc"), sector, monkeypatch)
    assert (in_c, fell_back) == (True, False)
    assert without == with_library
    assert '"legs": [{' in with_library  # there are routes to compare
