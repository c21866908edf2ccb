"""Loans and transfers on the Fleet page (Support 1.6.1, 1.6.2): propose one, and accept,
decline or withdraw (plain forms that return to the Fleet page, its errors shown there)."""

from __future__ import annotations

import re

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse

from economy.rounds import RoundNotOpen
from fleet import pacts
from ftcamp.errors import DomainError, Missing, Refused
from ftcamp.pagewrites import page_write
from powers.access import actor
from powers.models import Power


def _back_to_fleet(request: HttpRequest, power: Power, outcome: str | DomainError) -> HttpResponse:
    """Back to the Fleet page with what happened, or the refusal naming the field."""
    if isinstance(outcome, DomainError):
        for error in outcome.errors:
            messages.error(request, error)
    else:
        messages.success(request, outcome)
    return redirect(reverse("fleet", args=[power.campaign_id, power.key]) + "#pacts")


# A POST through the pacts service (nothing written when refused); 404 for a loan or transfer
# the power is not a party to.
pact_write = page_write(
    _back_to_fleet,
    shown=(Refused, RoundNotOpen),
    missing=(Missing,),
    missing_text="No such loan or transfer.",
)


def _ids(text: str) -> list[str]:
    return [k for k in re.split(r"[\s,;]+", text) if k]


@pact_write
def pact_propose(request: HttpRequest, power: Power) -> str:
    post = request.POST
    if post.get("kind") == "transfer":
        made = pacts.propose_transfer(
            power=power, receiver=post.get("other", ""), carriers=_ids(post.get("carriers", "")),
            crew_to=post.get("crew_to", "").strip() or None, actor=actor(request),
        )  # fmt: skip
        return f"Transfer {made.key} proposed to {made.receiver.name}."
    last = post.get("last", "").strip()
    made_loan = pacts.propose_loan(
        power=power, borrower=post.get("other", ""), groups=_ids(post.get("carriers", "")),
        last=int(last) if last.isdigit() and len(last) < 6 else last, actor=actor(request),
    )  # fmt: skip
    return f"Loan {made_loan.key} proposed to {made_loan.borrower.name}."


@pact_write
def pact_act(request: HttpRequest, power: Power) -> str:
    key, action = request.POST.get("key", ""), request.POST.get("action", "")
    if action == "extend":
        last = request.POST.get("last", "").strip()
        value = int(last) if last.isdigit() and len(last) < 6 else last
        pacts.extend_loan(power=power, key=key, last=value, actor=actor(request))
    elif action == "withdraw":
        pacts.withdraw(power=power, key=key, actor=actor(request))
    elif action in ("accept", "decline"):
        pacts.answer(power=power, key=key, accept=action == "accept", actor=actor(request))
    else:
        raise Refused(f"action: expected accept, decline, withdraw or extend, got {action[:20]!r}")
    return f"{key}: {action} done."
