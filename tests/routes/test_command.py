"""``manage.py traderoutes`` (contracts §2) on sector files the test writes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from trade.routes import cli
from trade.routes.cli import Bar as _Bar
from trade.routes.parallel import Child

from .helpers import BIG, row, write_sector

ROOT = Path(__file__).resolve().parents[2]


def _two_sectors(tmp_path: Path) -> tuple[Path, Path]:
    west = write_sector(
        tmp_path,
        "West",
        [
            row("3201", "Edge", BIG),
            row("3203", "Edge Two", BIG),
            row("0505", "Ghost", "???????-?"),
            "West\tA\t0909",
        ],
        x=0,
        y=0,
    )
    east = write_sector(tmp_path, "East", [row("0102", "Rim", BIG)], x=1, y=0)
    return west, east


def test_command_writes_json_and_svg(tmp_path: Path) -> None:
    west, east = _two_sectors(tmp_path)
    out, err = StringIO(), StringIO()
    call_command(
        "traderoutes",
        str(west),
        str(east),
        json=str(tmp_path / "r.json"),
        svg=str(tmp_path / "r.svg"),
        stdout=out,
        stderr=err,
        no_progress=True,
    )
    doc = json.loads((tmp_path / "r.json").read_text())
    assert doc["format"] == "ftcamp-traderoutes/1"
    assert {w["id"] for w in doc["worlds"]} == {"West 3201", "West 3203", "East 0102"}
    assert doc["legs"] and (tmp_path / "r.svg").read_text().startswith("<?xml")
    summary = out.getvalue()
    assert "worlds 3" in summary and "1 anomaly rows" in summary and "1 malformed" in summary
    assert "legs " in summary and "feeder" in summary and " s" in summary
    assert f"{west}:7:" in err.getvalue()  # the malformed line, with its line number


def test_command_variants_and_at(tmp_path: Path) -> None:
    west, east = _two_sectors(tmp_path)
    out = StringIO()
    call_command(
        "traderoutes",
        str(west),
        str(east),
        variant=["min_btn=9.5", "btn_cap=none"],
        at=["0,0", "0,1"],
        stdout=out,
        stderr=StringIO(),
        no_progress=True,
    )
    assert "BTN >= 9.5" in out.getvalue()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.tab"], "no such file"),
        (["{west}", "--variant", "btn_cap=huge"], "bad --variant"),
        (["{west}", "--variant", "nonsense"], "bad --variant"),
        (["{west}", "--at", "1,x"], "--at"),
        (["{west}", "{east}", "--at", "0,0"], "--at"),
        (["{notes}"], "not a sector file"),
    ],
)
def test_command_errors_exit_2_without_traceback(
    tmp_path: Path, args: list[str], message: str
) -> None:
    west, east = _two_sectors(tmp_path)
    notes = tmp_path / "notes.txt"
    notes.write_text("hello\nworld\n")
    argv = [a.format(west=west, east=east, notes=notes) for a in args]
    env = {**os.environ, "DEBUG": "1"}
    proc = subprocess.run(
        [sys.executable, "manage.py", "traderoutes", "--no-progress", *argv],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr and "Traceback" not in proc.stderr


def test_command_error_via_call_command(tmp_path: Path) -> None:
    with pytest.raises(CommandError) as info:
        call_command("traderoutes", str(tmp_path / "nope.tab"), stdout=StringIO())
    assert info.value.returncode == 2


def test_progress_bar_draws_on_long_runs() -> None:
    stream = StringIO()
    bar = _Bar(stream.write, enabled=True)
    bar(1, 4)  # too early: nothing yet
    assert stream.getvalue() == ""
    bar.start -= 1.0  # pretend the run has taken a second
    bar(2, 4)
    bar(4, 4)
    bar.close()
    text = stream.getvalue()
    assert "2/4 sources" in text and text.endswith("4/4 sources\n")
    quiet = StringIO()
    off = _Bar(quiet.write, enabled=False)
    off.start -= 1.0
    off(4, 4)
    off.close()
    assert quiet.getvalue() == ""


def _run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *argv],
        cwd=ROOT,
        env={**os.environ, "DEBUG": "1"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_module_entry_point_matches_the_command_without_django(tmp_path: Path) -> None:
    """``python -m trade.routes`` takes the same options and writes the same JSON, SVG and
    summary as ``manage.py traderoutes`` (contracts §2), and never imports Django."""
    west, east = _two_sectors(tmp_path)
    outs = {}
    for name, prefix in (
        ("module", ["-m", "trade.routes"]),
        ("command", ["manage.py", "traderoutes"]),
    ):
        folder = tmp_path / name
        folder.mkdir()
        proc = _run(
            [*prefix, str(west), str(east), "--no-progress", "--variant", "min_btn=7",
             "--json", str(folder / "r.json"), "--svg", str(folder / "r.svg")]
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        summary = proc.stdout.rsplit(";", 1)[0]  # the seconds differ
        outs[name] = (
            summary,
            proc.stderr,
            (folder / "r.json").read_text(),
            (folder / "r.svg").read_text(),
        )
    assert outs["module"] == outs["command"]
    assert "pairs" in outs["module"][0] and f"{west}:7:" in outs["module"][1]
    code = (
        "import runpy, sys\n"
        "sys.argv = ['trade.routes', '--help']\n"
        "try:\n    runpy.run_module('trade.routes', run_name='__main__')\n"
        "except SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'celery')))\n"
    )
    proc = _run(["-c", code])
    assert proc.stdout.strip().endswith("[]"), proc.stdout


def test_module_entry_point_loads_only_what_the_run_needs(tmp_path: Path) -> None:
    """Speed (issue 19): a JSON-only run never imports the SVG writer, and the command keeps
    OpenBLAS to one thread (the mapper never calls BLAS)."""
    west, _ = _two_sectors(tmp_path)
    code = (
        "import os, runpy, sys\n"
        "def leave(code):\n    raise SystemExit(code)\n"
        "os._exit = leave  # the command leaves without tearing down; here it must return\n"
        f"sys.argv = ['trade.routes', {str(west)!r}, '--no-progress', '--json', "
        f"{str(tmp_path / 'r.json')!r}]\n"
        "try:\n    runpy.run_module('trade.routes', run_name='__main__')\n"
        "except SystemExit:\n    pass\n"
        "print('trade.routes.svg' in sys.modules, os.environ.get('OPENBLAS_NUM_THREADS'))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    assert proc.stdout.strip().endswith("False 1"), proc.stdout + proc.stderr
    assert (tmp_path / "r.json").is_file()


def test_module_entry_point_bad_input_exits_2(tmp_path: Path) -> None:
    proc = _run(["-m", "trade.routes", "--no-progress", str(tmp_path / "missing.tab")])
    assert proc.returncode == 2
    assert "no such file" in proc.stderr and "Traceback" not in proc.stderr


def _run_cli(files: list[Path], *extra: str) -> None:
    opts = {"files": [str(f) for f in files], "variant": [], "no_progress": True}
    opts |= dict(zip(extra[::2], extra[1::2], strict=True))
    cli.run(opts, lambda _: None, lambda _: None)


def test_svg_written_by_a_child_while_the_json_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Speed (issue 19): with two workers on a large map the SVG is written in a forked child;
    # both files are the same as one process writes them, and the child is always reaped.
    files = list(_two_sectors(tmp_path))
    _run_cli(files, "json", str(tmp_path / "one.json"), "svg", str(tmp_path / "one.svg"))
    started: list[Child | None] = []
    real_start = Child.start

    def spy(work: Callable[[], object]) -> Child | None:
        child = real_start(work)
        started.append(child)
        return child

    monkeypatch.setattr(Child, "start", spy)
    monkeypatch.setattr(cli, "SHARE_OUTPUT", 0)
    monkeypatch.setattr(cli, "default_workers", lambda: 2)
    _run_cli(files, "json", str(tmp_path / "two.json"), "svg", str(tmp_path / "two.svg"))
    assert len(started) == 1 and started[0] is not None
    for name in ("json", "svg"):
        assert (tmp_path / f"two.{name}").read_bytes() == (tmp_path / f"one.{name}").read_bytes()
    # A file the child cannot write is reported like one this process cannot write.
    with pytest.raises(cli.UsageError, match="cannot write output"):
        _run_cli(files, "json", str(tmp_path / "three.json"), "svg", str(tmp_path / "no/x.svg"))
    assert (tmp_path / "three.json").is_file()
    # ... and when this process fails first, the child is still waited for: none is left over.
    with pytest.raises(cli.UsageError, match="cannot write output"):
        _run_cli(files, "json", str(tmp_path / "no/x.json"), "svg", str(tmp_path / "four.svg"))
    assert (tmp_path / "four.svg").read_bytes() == (tmp_path / "one.svg").read_bytes()
    assert len(started) == 3
    for child in started:  # each one reaped already (a zombie would still be waitable)
        assert isinstance(child, Child)
        with pytest.raises(ChildProcessError):
            os.waitpid(child.pid, os.WNOHANG)
