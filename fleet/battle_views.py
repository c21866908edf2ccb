"""The battle records page (R-10.6): a power's inbox — records to confirm, awaiting others,
confirmed and applied — and the forms to enter, confirm, decline or amend one (htmx, as the
rest of the site). Only records the power is in ever reach it."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from economy import selectors
from economy.events import Names
from economy.rounds import RoundNotOpen
from fleet import battle_text
from fleet import battles as battle_records
from fleet import selectors as fleet_selectors
from ftcamp.errors import Missing, Refused
from ftcamp.pagewrites import page_write, section
from powers.access import actor, player_view
from powers.models import Power


def _in_words(view: fleet_selectors.RecordView, names: Names) -> fleet_selectors.RecordView:
    """A record as its page shows it: powers, craft and groups by name (issue 17);
    the keys stay beside the names for the forms, and in the API."""
    return replace(
        view,
        entered_by=names.name("powers", view.entered_by),
        parties=[{**p, "name": names.name("powers", p["power"])} for p in view.parties],
        craft=[
            {
                **c,
                "name": names.name("craft", c["craft"]),
                "captor": names.name("powers", c["captured_by"]) if c["captured_by"] else "",
                "into_name": names.name("groups", c["into"]) if c["into"] else "",
            }
            for c in view.craft
        ],
    )


def _context(power: Power, errors: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    names = selectors.names_for(power)
    keyed = fleet_selectors.records_of(power)
    views = [_in_words(v, names) for v in keyed]
    return {
        "power": power,
        "errors": errors or [],
        "to_confirm": [v for v in views if v.status == "proposed" and v.my_answer != "confirmed"],
        "awaiting": [v for v in views if v.status == "proposed" and v.my_answer == "confirmed"],
        "settled": [v for v in views if v.status != "proposed"],
        "texts": {v.key: battle_text.craft_text(v.craft) for v in keyed if v.mine},
        "craft_help": battle_text.CRAFT_HELP,
        # every power of the campaign, by name, for the records' "powers in it" (R-10.6)
        "campaign_powers": sorted(names.powers.items(), key=lambda kv: kv[1]),
        **extra,
    }


@require_GET
@player_view
def battles(request: HttpRequest, power: Power) -> HttpResponse:
    return render(request, "economy/battles.html", _context(power))


def _section(request: HttpRequest, power: Power, errors: list[str]) -> dict[str, Any]:
    form: dict[str, Any] = {}
    if errors:  # what was typed and ticked, kept (issue 17)
        form = {k: request.POST.get(k, "") for k in ("hex", "craft")}
        form["powers"] = _powers(request)
    return _context(power, errors, form=form)


# A POST through the battle records service: the section again with the errors naming the
# field when it is refused (nothing written), 404 for a record the power is not in.
battle_write = page_write(
    section("economy/battles.html", "economy/_battles.html", "battles", _section),
    shown=(Refused, RoundNotOpen),
    missing=(Missing,),
    missing_text="No such battle record.",
)


def _powers(request: HttpRequest) -> list[str]:
    """The powers ticked on the form (one value each); a value may also list several keys
    separated by spaces or commas, as the API's clients and older forms send them."""
    return [p for v in request.POST.getlist("powers") for p in re.split(r"[\s,;]+", v) if p]


def _record_fields(request: HttpRequest) -> dict[str, Any]:
    return {
        "hex": request.POST.get("hex", "").strip(),
        "powers": _powers(request),
        "craft": battle_text.craft_from_text(request.POST.get("craft", "")),
    }


@battle_write
def battle_enter(request: HttpRequest, power: Power) -> None:
    battle_records.propose(power=power, actor=actor(request), **_record_fields(request))


@battle_write
def battle_act(request: HttpRequest, power: Power) -> None:
    """One answer to one record: confirm, decline (with a reason) or amend (its entering
    power)."""
    key, action = request.POST.get("record", ""), request.POST.get("action", "")
    who = actor(request)
    if action == "amend":
        battle_records.amend(power=power, key=key, actor=who, **_record_fields(request))
    elif action in ("confirm", "decline"):
        battle_records.answer(
            power=power,
            key=key,
            confirm=action == "confirm",
            reason=request.POST.get("reason", ""),
            actor=who,
        )
    else:
        raise Refused(f"action: expected confirm, decline or amend, got {action[:20]!r}")
