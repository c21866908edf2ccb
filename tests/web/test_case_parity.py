"""The Django shell against the pure engine: every adjudicator case, loaded into PostgreSQL,
its orders entered through the services the views use, resolved through the task's code path
and exported, gives the state `adjudicate` gives (issue 4)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from campaigns.cases import campaign_from_case, submit_all
from economy import services
from economy.engine.case import dump_result, load_case, run_case
from economy.engine.codec import dump_state, parse_state
from economy.models import LedgerLine, Round, RoundRecord
from economy.snapshot import export_state

CASES = sorted((Path(__file__).resolve().parents[1] / "cases").glob("*.json"))
pytestmark = pytest.mark.django_db


def canonical(state: dict[str, Any]) -> dict[str, Any]:
    """The same state whatever the order of its lists (the database orders them by key)."""
    out = dump_state(parse_state(state))
    for system in out["systems"]:
        system.pop("effective_loyalty", None)
    for key, items in out.items():
        if isinstance(items, list) and items and isinstance(items[0], dict):
            out[key] = sorted(items, key=lambda o: json.dumps(o, sort_keys=True))
    for hub in out["hubs"]:
        hub["nodes"] = sorted(hub["nodes"])
        hub["links"] = sorted(sorted(link) for link in hub["links"])
    out["map"]["hexes"] = sorted(out["map"]["hexes"], key=lambda h: h["hex"])
    return out


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_shell_matches_adjudicator(path: Path) -> None:
    case = json.loads(path.read_text())
    expected = dump_result(run_case(load_case(case)))
    campaign = campaign_from_case(case, name=path.stem)
    assert canonical(export_state(campaign)) == canonical(case["state"])

    submit_all(campaign)
    rnd = Round.objects.get(campaign=campaign, status="open")
    assert services.resolve_round(round_id=rnd.pk)
    campaign.refresh_from_db()

    assert canonical(export_state(campaign)) == canonical(expected["state"])
    lines = LedgerLine.objects.filter(campaign=campaign).select_related("power").order_by("seq")
    assert [
        {
            "step": x.step,
            "power": x.power.key,
            "where": x.where,
            "resource": x.resource,
            "amount": x.amount,
            "reason": x.reason,
            "rule": x.rule,
        }
        for x in lines
    ] == expected["ledger"]
    record = RoundRecord.objects.get(round=rnd)
    assert record.rejected == expected["rejected"]
    assert Round.objects.get(campaign=campaign, status="open").number == rnd.number + 1
    # resolving again changes nothing (reliability R3)
    assert not services.resolve_round(round_id=rnd.pk)
