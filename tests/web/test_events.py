"""Events with structure (issue 12): the engine gives each event a kind and its ids and numbers,
and words each kind once (issue 28, ``tests/engine/test_event_words.py``); the shell fills that
wording with names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from economy.engine.case import load_case, run_case
from economy.engine.events import WORDS, text_of
from economy.events import Names, describe

CASES = sorted((Path(__file__).resolve().parents[1] / "cases").glob("*.json"))


def test_ids_become_names() -> None:
    names = Names(systems={"av": "Avalon (0101)"}, powers={"nac": "New Anglian Confederation"})
    event = {
        "kind": "loyalty.changed",
        "data": {"system": "av", "before": 22, "after": 23, "why": "maintain orbit"},
        "text": "av loyalty 22 -> 23 (maintain orbit)",
    }
    assert describe(event, names) == "Avalon (0101) loyalty 22 → 23 (maintain orbit)"
    data = {"system": "av", "power": "nac", "after": 1}
    claimed = {"kind": "loyalty.claimed", "data": data}
    assert describe(claimed, names) == "New Anglian Confederation claims Avalon (0101): loyalty 1"
    # the same wording is the contract's text, with the ids as they are
    assert text_of("loyalty.claimed", data) == "nac claims av: loyalty 1"


def test_a_record_without_kinds_keeps_its_text() -> None:
    assert describe({"step": "resource.1", "text": "old words"}, Names()) == "old words"


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_every_event_of_every_case_reads_with_names(path: Path) -> None:
    case = json.loads(path.read_text())
    result = run_case(load_case(case))
    state = case["state"]
    powers = {p["id"]: f"Name of {p['id']}" for p in state.get("powers", [])}
    names = Names.of_state(state, powers)
    for event in result.events:
        data = event.as_json()
        assert data["kind"] in WORDS and data["text"] == event.text
        words = describe(data, names)
        assert words and "{" not in words
        template = WORDS[event.kind]
        shown = template if isinstance(template, str) else "{system} {power}"
        for system in state.get("systems", []):
            if event.data.get("system") == system["id"] and "{system" in shown:
                assert f"{system['name']} ({system['hex']})" in words, (event.kind, words)
        for key in ("power", "holder", "captor", "sender", "receiver"):
            if event.data.get(key) in powers and "{" + key in shown:
                assert powers[event.data[key]] in words, (event.kind, words)
