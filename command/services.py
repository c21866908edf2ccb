"""The organiser's outcome of a diplomatic mission (R-8.4, R-8.4a). The seed leaves the
missions' effects open, so the organiser decides each one: a text, and effects from a fixed
list — facts revealed to the sender, resources moved, loyalty changed by n. The outcome is
stored on the mission as the codec's outcome object (``{"text", "reveal", "moves",
"loyalty"}``) and is an input of the next resolution, applied at its start
(``economy.engine.diplomats.outcomes``: moves are ledger lines, LR changes events; the mission
then leaves the state, so it is applied once). The target learns of the mission now, and only
it and the sender are told (``notices.announce.mission_resolved``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction

from economy.engine.codec_command import BANK_RESOURCES, PLACED_RESOURCES
from economy.rounds import audit, lock_open_round
from ftcamp.errors import Refused
from notices import announce
from powers.models import Power, StarSystem
from powers.models.command import Mission
from trade.models import TradeHub

RESOURCES = (*BANK_RESOURCES, *PLACED_RESOURCES)
MAX_TEXT = 2000
MAX_AMOUNT = 10**9  # far above any stockpile; the engine moves what the source has


class OutcomeInvalid(Refused):
    """The outcome names something that does not exist or breaks the fixed list: HTTP 400.
    ``errors`` maps each field (text, reveal, moves, loyalty) to its problems."""

    def __init__(self, errors: dict[str, list[str]]) -> None:
        super().__init__("; ".join(f"{k}: {p}" for k, ps in errors.items() for p in ps))
        self.field_errors = errors


@dataclass(frozen=True)
class Effects:
    """An outcome as the organiser types it: one fact per line; one move per line as
    ``resource amount from to``; one LR change per line as ``system change``."""

    text: str
    reveal: str = ""
    moves: str = ""
    loyalty: str = ""


def _lines(text: str) -> list[tuple[int, list[str]]]:
    return [(n, line.split()) for n, line in enumerate(text.splitlines(), 1) if line.strip()]


def parse_outcome(*, mission: Mission, effects: Effects) -> dict[str, Any]:
    """The codec's outcome object for ``effects``, checked against the mission's campaign:
    ``OutcomeInvalid`` naming each field and line that is wrong."""
    cid = mission.campaign_id
    errors: dict[str, list[str]] = {}
    text = effects.text.strip()
    if not text:
        errors.setdefault("text", []).append("write what happened (it is sent to both powers)")
    elif len(text) > MAX_TEXT:
        errors.setdefault("text", []).append(f"at most {MAX_TEXT} characters")
    reveal = [line.strip() for line in effects.reveal.splitlines() if line.strip()]
    powers = set(Power.objects.filter(campaign_id=cid).values_list("key", flat=True))
    places = set(StarSystem.objects.filter(campaign_id=cid).values_list("key", flat=True))
    places |= set(TradeHub.objects.filter(campaign_id=cid).values_list("key", flat=True))
    moves: list[dict[str, Any]] = []
    for n, words in _lines(effects.moves):
        problem = _move_problem(words, powers, places)
        if problem:
            errors.setdefault("moves", []).append(f"line {n}: {problem}")
            continue
        res, amount, source, dest = words
        moves.append({"resource": res, "amount": int(amount), "from": source, "to": dest})
    loyalty: list[dict[str, Any]] = []
    systems = set(StarSystem.objects.filter(campaign_id=cid).values_list("key", flat=True))
    for n, words in _lines(effects.loyalty):
        if len(words) != 2:
            errors.setdefault("loyalty", []).append(f"line {n}: write 'system change', e.g. s1 -2")
        elif words[0] not in systems:
            errors.setdefault("loyalty", []).append(f"line {n}: no system {words[0]!r}")
        elif not _signed_int(words[1]) or int(words[1]) == 0:
            errors.setdefault("loyalty", []).append(
                f"line {n}: the change is a whole number other than 0, e.g. -2 or 3"
            )
        else:
            loyalty.append({"system": words[0], "change": int(words[1])})
    if errors:
        raise OutcomeInvalid(errors)
    return {"text": text, "reveal": reveal, "moves": moves, "loyalty": loyalty}


def _signed_int(word: str) -> bool:
    return word.lstrip("+-").isdigit() and len(word) <= 6


def _move_problem(words: list[str], powers: set[str], places: set[str]) -> str | None:
    if len(words) != 4:
        return "write 'resource amount from to', e.g. gal 50 p1 p0"
    res, amount, source, dest = words
    if res not in RESOURCES:
        return f"the resource is one of {', '.join(RESOURCES)}, not {res!r}"
    if not amount.isdigit() or not 1 <= int(amount) <= MAX_AMOUNT:
        return f"the amount is a whole number from 1 to {MAX_AMOUNT:,}, not {amount!r}"
    known, what = (powers, "power") if res in BANK_RESOURCES else (places, "hub or system")
    for end in (source, dest):
        if end not in known:
            return f"{res} moves between a {what} each; there is no {what} {end!r}"
    if source == dest:
        return "the source and destination are the same"
    return None


def resolve_mission(*, mission_id: int, effects: Effects, actor: str) -> Mission:
    """Record the organiser's outcome of a declared mission (R-8.4a). Locks the campaign's
    open round (``RoundNotOpen`` while one is being resolved), so the outcome is an input of
    the next resolution, whole. The first outcome tells the target's and the sender's players
    (after commit); a correction before the round resolves replaces it, told once."""
    with transaction.atomic():
        mission = Mission.objects.select_for_update().get(pk=mission_id)
        rnd = lock_open_round(mission.campaign_id)
        outcome = parse_outcome(mission=mission, effects=effects)
        first = mission.outcome is None
        mission.outcome = outcome
        mission.save(update_fields=["outcome"])
        audit(
            campaign_id=mission.campaign_id,
            round_number=rnd.number,
            actor=actor,
            action="mission_resolved" if first else "mission_outcome_changed",
            mission=mission.key,
        )
        if first:
            announce.mission_resolved(mission.pk)
    return mission
