"""Every golden case in tests/cases passes through the pure API (contracts §1, P4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from economy.engine.case import check_expect, dump_result, read_case, run_case

CASES = sorted((Path(__file__).resolve().parent.parent / "cases").glob("*.json"))


def test_there_are_cases_for_every_public_one() -> None:
    names = {p.name for p in CASES}
    public = {f"00{i}" for i in range(1, 9)}
    assert {n[:3] for n in names} >= public
    assert len(CASES) >= 50


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path) -> None:
    case = read_case(path)
    result = run_case(case)
    assert check_expect(case.expect or {}, result) == []


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case_has_working_and_cites(path: Path) -> None:
    raw = json.loads(path.read_text())
    assert raw.get("working"), "every case shows its arithmetic"
    assert raw.get("cites"), "every case names its rules"


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_every_expected_rejection_names_its_reason(path: Path) -> None:
    """Contracts §1 ``rejected[].reason``: a case fails when an order is refused for another
    reason than the one it is about."""
    raw = json.loads(path.read_text())
    for item in raw.get("expect", {}).get("rejected", []):
        assert item.get("reason"), f"rejection {item} gives no reason"


def test_result_shape_is_the_contract() -> None:
    result = dump_result(run_case(read_case(CASES[6])))
    assert result["format"] == "ftcamp-result/1"
    # the contract's keys, plus the project's documented extension (docs/rules.md, R-6.4)
    assert set(result) == {"format", "state", "ledger", "rejected", "events", "un_meeting"}
    line = result["ledger"][0]
    assert set(line) == {"step", "power", "where", "resource", "amount", "reason", "rule"}
    assert result["state"]["round"] == 2
    json.dumps(result)  # plain JSON: no Decimal or dataclass left
