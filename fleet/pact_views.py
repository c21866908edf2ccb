"""Loans and transfers on the Fleet page (Support 1.6.1, 1.6.2): propose one, and accept,
decline or withdraw (plain forms that return to the Fleet page, its errors shown there, a
refused offer's choices chosen again). The form offers powers, groups and statics by name; its
values are the keys the service takes (issue 30)."""

from __future__ import annotations

import re

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse

from economy.rounds import RoundNotOpen
from fleet import pacts
from fleet.selectors import PACT_KEPT
from ftcamp.errors import DomainError, Missing, Refused
from ftcamp.pagewrites import page_write
from powers.access import actor
from powers.models import Loan, Power, Transfer

DONE = {"accept": "accepted", "decline": "declined", "withdraw": "withdrawn"}


def _back_to_fleet(request: HttpRequest, power: Power, outcome: str | DomainError) -> HttpResponse:
    """Back to the Fleet page with what happened, or the refusal naming the field."""
    if isinstance(outcome, DomainError):
        for error in outcome.errors:
            messages.error(request, error)
        if request.POST.get("kind") in ("loan", "transfer"):  # an offer: its choices kept
            post = request.POST
            request.session[PACT_KEPT] = {
                "kind": post["kind"],
                "other": post.get("other", "")[:64],
                "carriers": _carriers(request)[: pacts.MAX_CARRIERS],
                "last": post.get("last", "")[:8],
                "crew_to": post.get("crew_to", "")[:64],
            }
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


def _carriers(request: HttpRequest) -> list[str]:
    """The groups and statics chosen (a multiple select: one value each)."""
    return [
        k for value in request.POST.getlist("carriers") for k in re.split(r"[\s,;]+", value) if k
    ]


@pact_write
def pact_propose(request: HttpRequest, power: Power) -> str:
    post = request.POST
    if post.get("kind") == "transfer":
        made = pacts.propose_transfer(
            power=power, receiver=post.get("other", ""), carriers=_carriers(request),
            crew_to=post.get("crew_to", "").strip() or None, actor=actor(request),
        )  # fmt: skip
        return f"Transfer proposed to {made.receiver.name}."
    last = post.get("last", "").strip()
    made_loan = pacts.propose_loan(
        power=power, borrower=post.get("other", ""), groups=_carriers(request),
        last=int(last) if last.isdigit() and len(last) < 6 else last, actor=actor(request),
    )  # fmt: skip
    return f"Loan proposed to {made_loan.borrower.name}."


@pact_write
def pact_act(request: HttpRequest, power: Power) -> str:
    key, action = request.POST.get("key", ""), request.POST.get("action", "")
    pact: Loan | Transfer
    if action == "extend":  # a loan only (the service says so otherwise)
        last = request.POST.get("last", "").strip()
        value = int(last) if last.isdigit() and len(last) < 6 else last
        pacts.extend_loan(power=power, key=key, last=value, actor=actor(request))
        return f"You asked to extend the loan to round {value}."
    if action == "withdraw":
        pact = pacts.withdraw(power=power, key=key, actor=actor(request))
    elif action in ("accept", "decline"):
        accept = action == "accept"
        pact = pacts.answer(power=power, key=key, accept=accept, actor=actor(request))
    else:
        raise Refused(f"action: expected accept, decline, withdraw or extend, got {action[:20]!r}")
    # in words, never the key (issue 30): "Loan accepted."
    kind = "Loan" if isinstance(pact, Loan) else "Transfer"
    return f"{kind} {DONE[action]}."
