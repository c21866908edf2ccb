"""Loans and transfers of craft as agreements between two powers (Support 1.6.1, 1.6.2,
R-10.5, R-10.5a): the owner proposes, the other party accepts or declines, the owner may
withdraw a proposal. Only accepted ones are round state (``economy.snapshot.pacts``); the
engine makes them take effect in Support §1.6 and ends a loan after the Support Phase of its
last round. Each power sees only the loans and transfers it is a party to."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction
from django.db.models import Q

from diplomacy import deals  # issue 31: offers and outcomes told in the thread they came from
from economy.events import own
from economy.rounds import lock_open_round
from economy.selectors import names_for
from fleet.battle_text import KEY_LENGTH
from fleet.battles import engine_problem
from ftcamp.errors import Missing, Refused
from powers.models import FleetGroup, Loan, PactStatus, Power, StarSystem, Static, Transfer

MAX_CARRIERS = 50
MAX_TERM = 100  # rounds


def _other(power: Power, key: Any, field: str) -> Power:
    other = (
        Power.objects.filter(campaign_id=power.campaign_id, key=key).first()
        if isinstance(key, str)
        else None
    )
    if other is None:
        raise Refused(f"{field}: no such power: {str(key)[:40]!r}")
    if other.pk == power.pk:
        raise Refused(f"{field}: an agreement is between two different powers")
    return other


def _keys(value: Any, field: str) -> list[str]:
    ok = isinstance(value, list) and 0 < len(value) <= MAX_CARRIERS
    if not ok or not all(isinstance(k, str) and 0 < len(k) <= KEY_LENGTH for k in value):
        raise Refused(f"{field}: expected a list of 1..{MAX_CARRIERS} ids")
    if len(set(value)) != len(value):
        raise Refused(f"{field}: an id is listed twice")
    return list(value)


def _busy(power: Power) -> set[str]:
    """Carriers already in an accepted loan or transfer (the engine takes each in one only)."""
    busy: set[str] = set()
    for groups in Loan.objects.filter(owner=power, status=PactStatus.ACCEPTED).values_list(
        "groups", flat=True
    ):
        busy.update(groups)
    for carriers in Transfer.objects.filter(owner=power, status=PactStatus.ACCEPTED).values_list(
        "carriers", flat=True
    ):
        busy.update(carriers)
    return busy


def _own(power: Power, keys: list[str], field: str, *, statics: bool) -> None:
    """Only the owner's own groups (and statics, for a transfer), not in another pact."""
    mine = set(FleetGroup.objects.filter(power=power, key__in=keys).values_list("key", flat=True))
    if statics:
        mine |= set(Static.objects.filter(power=power, key__in=keys).values_list("key", flat=True))
    kind = "group or static" if statics else "group"
    # each as its power typed it, never the stored key (issue 30)
    typed = {k: own(k, [power.key]) for k in keys}
    errors = [f"{field}: no such {kind} of yours: {typed[k]!r}" for k in keys if k not in mine]
    busy = _busy(power)
    errors += [f"{field}: {typed[k]} is already lent or given" for k in keys if k in busy]
    if errors:
        raise Refused(errors)


@transaction.atomic
def propose_loan(*, power: Power, borrower: Any, groups: Any, last: Any, actor: str) -> Loan:
    """Support 1.6.1: lend ``groups`` to ``borrower`` until the Support Phase of round
    ``last`` (its crew stays the owner's; the borrower gives the orders)."""
    rnd = lock_open_round(power.campaign_id)
    other = _other(power, borrower, "borrower")
    keys = _keys(groups, "groups")
    ok = isinstance(last, int) and not isinstance(last, bool)
    if not ok or not rnd.number <= last <= rnd.number + MAX_TERM:
        raise Refused(f"last: the last round of the loan, {rnd.number}..{rnd.number + MAX_TERM}")
    _own(power, keys, "groups", statics=False)
    loan = Loan.objects.create(
        campaign_id=power.campaign_id,
        key=f"loan-{secrets.token_hex(4)}",
        owner=power,
        borrower=other,
        groups=keys,
        last=last,
        created_round=rnd.number,
    )
    deals.offered(  # issue 31: in the thread it was proposed from, if any
        kind="loan", campaign_id=power.campaign_id, key=loan.key,
        proposer_id=power.pk, other_id=other.pk,
    )  # fmt: skip
    return loan


@transaction.atomic
def propose_transfer(
    *, power: Power, receiver: Any, carriers: Any, crew_to: Any = None, actor: str
) -> Transfer:
    """Support 1.6.2: give ``carriers`` (groups or statics) to ``receiver`` for good; the crew
    returns as PL to ``crew_to`` (a system the owner holds; default its nearest)."""
    rnd = lock_open_round(power.campaign_id)
    other = _other(power, receiver, "receiver")
    keys = _keys(carriers, "carriers")
    if (
        crew_to not in (None, "")
        and not StarSystem.objects.filter(
            campaign_id=power.campaign_id, holder=power, key=crew_to
        ).exists()
    ):
        raise Refused(f"crew_to: no system of yours: {str(crew_to)[:40]!r}")
    _own(power, keys, "carriers", statics=True)
    transfer = Transfer.objects.create(
        campaign_id=power.campaign_id,
        key=f"transfer-{secrets.token_hex(4)}",
        owner=power,
        receiver=other,
        carriers=keys,
        crew_to=crew_to or "",
        created_round=rnd.number,
    )
    deals.offered(  # issue 31: in the thread it was proposed from, if any
        kind="transfer", campaign_id=power.campaign_id, key=transfer.key,
        proposer_id=power.pk, other_id=other.pk,
    )  # fmt: skip
    return transfer


def _locked(power: Power, key: str) -> Loan | Transfer:
    """A loan or transfer ``power`` is a party to, locked; ``Missing`` for any other."""
    for model, other in ((Loan, "borrower"), (Transfer, "receiver")):
        found = (
            model.objects.select_for_update()
            .filter(Q(owner=power) | Q(**{other: power}), campaign_id=power.campaign_id, key=key)
            .first()
        )
        if found is not None:
            return found
    raise Missing("no such loan or transfer")


def contract(pact: Loan | Transfer) -> tuple[str, dict[str, Any]]:
    """The pact in the contract's shape, and its state table (docs/rules.md)."""
    if isinstance(pact, Loan):
        item = {
            "id": pact.key,
            "owner": pact.owner.key,
            "borrower": pact.borrower.key,
            "groups": list(pact.groups),
            "last": pact.last,
        }
        return "loans", item
    return "transfers", {
        "id": pact.key,
        "owner": pact.owner.key,
        "receiver": pact.receiver.key,
        "carriers": list(pact.carriers),
        "crew_to": pact.crew_to or None,
    }


@transaction.atomic
def answer(*, power: Power, key: str, accept: bool, actor: str) -> Loan | Transfer:
    """The borrower or receiver accepts (after the engine's check of the pact against the state
    as it is) or declines a proposal."""
    lock_open_round(power.campaign_id)
    pact = _locked(power, key)
    if pact.owner_id == power.pk:
        raise Refused("key: the other party answers; withdraw it instead")
    if pact.status != PactStatus.PROPOSED:
        raise Refused(f"key: it is {pact.get_status_display().lower()} already")
    if accept:
        if any(k in _busy(pact.owner) for k in _carriers(pact)):
            raise Refused("key: one of its groups is already lent or given")
        problem = engine_problem(power.campaign, *contract(pact))
        if problem:  # in the reader's names, without the codec's path (issue 30)
            said = names_for(power).words(problem.split(": ", 1)[-1])
            raise Refused(f"key: it can no longer be accepted: {said}")
    pact.status = PactStatus.ACCEPTED if accept else PactStatus.DECLINED
    pact.save(update_fields=["status", "updated_at"])
    deals.answered(  # issue 31
        kind="loan" if isinstance(pact, Loan) else "transfer", campaign_id=power.campaign_id,
        key=pact.key, power_id=power.pk, outcome="accepted" if accept else "declined",
    )  # fmt: skip
    return pact


def _carriers(pact: Loan | Transfer) -> list[str]:
    return list(pact.groups if isinstance(pact, Loan) else pact.carriers)


@transaction.atomic
def withdraw(*, power: Power, key: str, actor: str) -> Loan | Transfer:
    """The owner withdraws a proposal, or an accepted loan or transfer that has not taken
    effect yet (it takes effect in Support §1.6 of the next resolution)."""
    lock_open_round(power.campaign_id)
    pact = _locked(power, key)
    if pact.owner_id != power.pk:
        raise Refused("key: only its owner withdraws it; decline it instead")
    active = isinstance(pact, Loan) and pact.active
    if pact.status not in (PactStatus.PROPOSED, PactStatus.ACCEPTED) or active:
        raise Refused("key: it has taken effect or is over")
    pact.status = PactStatus.WITHDRAWN
    pact.save(update_fields=["status", "updated_at"])
    deals.answered(  # issue 31
        kind="loan" if isinstance(pact, Loan) else "transfer", campaign_id=power.campaign_id,
        key=pact.key, power_id=power.pk, outcome="withdrawn",
    )  # fmt: skip
    return pact


@transaction.atomic
def extend_loan(*, power: Power, key: str, last: Any, actor: str) -> Loan:
    """R-10.5a: a party asks to run an accepted loan on to round ``last``; it is extended once
    the other party asks for the same round (either may change its answer until then)."""
    rnd = lock_open_round(power.campaign_id)
    pact = _locked(power, key)
    if not isinstance(pact, Loan) or pact.status != PactStatus.ACCEPTED:
        raise Refused("key: only an accepted loan is extended")
    ok = isinstance(last, int) and not isinstance(last, bool)
    if not ok or not max(pact.last, rnd.number) < last <= rnd.number + MAX_TERM:
        raise Refused(f"last: a round after {pact.last}, up to {rnd.number + MAX_TERM}")
    side = "owner_extends_to" if pact.owner_id == power.pk else "borrower_extends_to"
    setattr(pact, side, last)
    if pact.owner_extends_to == pact.borrower_extends_to == last:
        pact.last, pact.owner_extends_to, pact.borrower_extends_to = last, None, None
    pact.save(update_fields=["last", "owner_extends_to", "borrower_extends_to", "updated_at"])
    return pact
