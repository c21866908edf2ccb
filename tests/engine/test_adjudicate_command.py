"""``manage.py adjudicate``: exit codes 0/1/2, mismatch lines, the closing count (contracts §1)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "cases"
PUBLIC = CASES / "005-market-sale-with-tax.json"


def adjudicate(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DEBUG": "1"}
    return subprocess.run(
        [sys.executable, "manage.py", "adjudicate", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_prints_result_and_exits_0() -> None:
    out = adjudicate(str(PUBLIC))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["format"] == "ftcamp-result/1"
    assert result["state"]["round"] == 2


def test_out_writes_the_file(tmp_path: Path) -> None:
    target = tmp_path / "result.json"
    out = adjudicate(str(PUBLIC), "--out", str(target))
    assert out.returncode == 0
    assert json.loads(target.read_text())["state"]["hubs"][0]["pool"]["bio"] == 54


def test_check_mismatch_exits_1_with_path_lines(tmp_path: Path) -> None:
    case = json.loads(PUBLIC.read_text())
    case["expect"]["hubs"][0]["pool"]["bio"] = 55
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(case))
    out = adjudicate(str(path), "--check")
    assert out.returncode == 1
    assert "hubs[id=core].pool.bio: expected 55, got 54" in out.stdout


def test_malformed_case_exits_2_naming_the_path(tmp_path: Path) -> None:
    case = json.loads(PUBLIC.read_text())
    case["state"]["systems"][0]["rates"]["ore"] = "lots"
    path = tmp_path / "malformed.json"
    path.write_text(json.dumps(case))
    for extra in ([], ["--check"]):
        out = adjudicate(str(path), *extra)
        assert out.returncode == 2
        assert "state.systems[0].rates.ore: expected integer" in out.stderr
        assert "Traceback" not in out.stderr + out.stdout


def test_not_json_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "junk.json"
    path.write_text("{not json")
    out = adjudicate(str(path))
    assert out.returncode == 2
    assert "Traceback" not in out.stderr


def test_directory_check_counts(tmp_path: Path) -> None:
    for name in ("001-homeworld-production.json", "005-market-sale-with-tax.json"):
        shutil.copy(CASES / name, tmp_path / name)
    sub = tmp_path / "more"
    sub.mkdir()
    (sub / "bad.json").write_text('{"format": "ftcamp-case/1"}')
    out = adjudicate(str(tmp_path), "--check")
    assert out.returncode == 1
    assert out.stdout.strip().splitlines()[-1] == "2 passed, 1 failed"
    assert "state: missing required key" in out.stdout


def test_repository_cases_all_pass() -> None:
    out = adjudicate(str(CASES), "--check")
    assert out.returncode == 0, out.stdout
    count = len(list(CASES.rglob("*.json")))
    assert out.stdout.strip().splitlines()[-1] == f"{count} passed, 0 failed"


def test_call_command_returns_on_success(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("adjudicate", str(PUBLIC), "--check")
    assert capsys.readouterr().out == ""
    with pytest.raises(SystemExit) as info:
        call_command("adjudicate", str(CASES / "missing.json"))
    assert info.value.code == 2
