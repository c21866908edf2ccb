"""Two rounds of the demo played by its four powers with a mix of orders, for the page crawls
and the layout test (issue 17): trade, shipping, building, research, loyalty and hubs, so the
statements, events and reports have something to say.

The orders are kept once, in ``ORDERS``, as a player means them; ``form_fields`` says what a
player enters on the order sheet for each (the one translation into the pages' form fields), and
the Django-client play here and the browser play (tests/e2e/test_player_layout_browser.py) both
enter them through the sheet's forms, checking that the form offers each field and value, so a
change in the forms shows up as a failing play rather than a silently different one."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from economy import services
from economy.engine.orders import SPECS
from economy.models import Round, RoundStatus
from economy.orderforms import form_values
from powers.models import Membership

Orders = dict[str, tuple[list[dict[str, Any]], ...]]
Fields = dict[str, str | list[str]]

# nac's second hub, centred on Dunmore, its Ore from the Core hub's pool
WESTMARK = {
    "type": "hub_setup",
    "id": "west",
    "name": "Westmark",
    "centre": "0406",
    "nodes": [],
    "links": [],
    "pay_from": "nac-core",
}

# power -> orders of round 1, round 2 and round 3 (left a draft), as a player means them
ORDERS: Orders = {
    "nac": (
        [
            {"type": "market_sell", "resource": "ore", "amount": 20, "from": "nac-core"},
            {"type": "gal_transfer", "to": "esu", "amount": 5},
            {"type": "build", "id": "f9", "design": "nac-frigate", "builders": ["nac-y1"]},
            {"type": "research_project", "gal": 4},
            {"type": "declare_group", "group": "nac-2", "hex": "0505", "order": "maintain_orbit"},
            {"type": "assign_officer", "officer": "nac-adm", "group": "nac-1"},
        ],
        [
            {"type": "market_sell", "resource": "bio", "amount": 5, "from": "nac-core"},
            {"type": "designate_primary", "system": "dunmore"},
            WESTMARK,
            {"type": "bubble_hq", "id": "home", "hex": "0203", "officer": "nac-adm"},
        ],
        [
            {"type": "market_sell", "resource": "ore", "amount": 10, "from": "nac-core"},
            {"type": "gal_transfer", "to": "fse", "amount": 2},
            {"type": "declare_group", "group": "nac-1", "hex": "0305", "order": "none"},
        ],
    ),
    "esu": (
        [
            {"type": "market_sell", "resource": "gal", "amount": 10, "to": "esu-core"},
            {"type": "conscript", "system": "lena", "loyalty": 1},
            # to meet nac-2 at Dunmore's hex: the battle entered in round 3 (BATTLE)
            {"type": "declare_group", "group": "esu-2", "hex": "0505", "order": "none"},
        ],
        [{"type": "research_project", "gal": 2}],
        [{"type": "conscript", "system": "lena", "loyalty": 1}],
    ),
    # (its hub is in the guild already: "Join the guild" is greyed on its sheet)
    "nsl": (
        [{"type": "market_sell", "resource": "bio", "amount": 10, "from": "nsl-core"}],
        [],
        [{"type": "research_project", "gal": 2}],
    ),
    "fse": ([], [{"type": "gal_transfer", "to": "nac", "amount": 3}], []),
}


def form_fields(payload: dict[str, Any]) -> tuple[str, Fields]:
    """What a player enters on the order sheet for ``payload``: which form (``"declare"``, the
    group's row of the declarations table, or ``"order"``, the "Add an order" form) and its
    fields by name, a list for a multiple select. Empty values are left blank, as a player
    leaves them."""
    kind = payload["type"]
    values = form_values(payload)
    if kind == "declare_group":
        return "declare", {
            "hex": values["hex"],
            "order": values.get("order", "none"),
            "status": values.get("status", "none"),
        }
    fields: Fields = {"type": kind}
    for f in SPECS[kind].fields:
        value = values.get(f.name, "")
        if value:
            fields[f.name] = value.split() if f.widget == "ids" else value
    return "order", fields


# --- reading forms off a page -------------------------------------------------------------


@dataclass
class Control:
    tag: str
    multiple: bool = False
    disabled: bool = False
    options: dict[str, bool] = field(default_factory=dict)  # value -> disabled


class _Forms(HTMLParser):
    """Each form's controls by name, keyed by the form's action ("" outside any form)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: dict[str, dict[str, Control]] = {}
        self.action = ""
        self.select: Control | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form":
            self.action = a.get("action") or ""
        elif tag in ("input", "select", "textarea") and a.get("name"):
            if tag == "input" and a.get("type") == "hidden":
                return
            control = Control(tag, "multiple" in a, "disabled" in a)
            self.forms.setdefault(self.action, {})[str(a["name"])] = control
            self.select = control if tag == "select" else None
        elif tag == "option" and self.select is not None:
            self.select.options[a.get("value") or ""] = "disabled" in a

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.action = ""
        elif tag == "select":
            self.select = None


def forms_of(body: str) -> dict[str, dict[str, Control]]:
    parser = _Forms()
    parser.feed(body)
    return parser.forms


def check_offered(controls: dict[str, Control], fields: Fields, what: str) -> None:
    """Every field is a control the form shows, and every value chosen is an option it offers."""
    for name, value in fields.items():
        control = controls.get(name)
        assert control is not None, f"{what}: the form has no field {name!r}"
        assert not control.disabled, f"{what}: {name!r} is disabled"
        if control.tag == "select":
            chosen = value if isinstance(value, list) else [value]
            for v in chosen:
                assert control.options.get(v) is False, f"{what}: {name!r} offers no {v!r}"


def open_round(body: str) -> int:
    """The round the sheet is showing, from the hidden field every sheet form carries."""
    found = re.search(r'<input type="hidden" name="round" value="(\d+)">', body)
    assert found is not None, "the sheet shows no open round"
    return int(found.group(1))


# --- playing through the forms ------------------------------------------------------------


def enter_orders(client: Client, campaign_id: int, power_key: str, orders: list[Any]) -> int:
    """Enter ``orders`` on the power's sheet through its forms, as its player's browser would
    post them without JavaScript; the number of the round they went to."""
    sheet_url = reverse("orders", args=[campaign_id, power_key])
    sheet = client.get(sheet_url)
    assert sheet.status_code == 200, sheet_url
    body = sheet.content.decode()
    number = open_round(body)
    for payload in orders:
        form, fields = form_fields(payload)
        if form == "declare":
            url = reverse("declare", args=[campaign_id, power_key, payload["group"]])
            check_offered(forms_of(body).get(url, {}), fields, f"{power_key} {url}")
        else:
            url = reverse("order-add", args=[campaign_id, power_key])
            kind, *rest = fields.items()
            check_offered(forms_of(body)[url], dict([kind]), power_key)  # the type, not greyed
            fragment = client.get(reverse("order-form", args=[campaign_id, power_key]), fields)
            check_offered(forms_of(fragment.content.decode()).get("", {}), dict(rest), power_key)
        response = client.post(url, {"round": number, **fields})
        assert response.status_code == 302, (power_key, payload, response.content.decode())
        body = client.get(sheet_url).content.decode()
        assert '<li class="invalid"' not in body, (power_key, payload)  # taken without errors
    return number


def submit(client: Client, campaign_id: int, power_key: str, number: int) -> None:
    url = reverse("sheet-submit", args=[campaign_id, power_key])
    response = client.post(url, {"round": number, "action": "submit"})
    assert response.status_code == 302, (power_key, response.content.decode())


def resolve(campaign_id: int, number: int) -> None:
    """What the worker does once the last sheet is in (the tests run no worker): resolve the
    round the pages' submissions closed, if it is not resolved already."""
    rnd = Round.objects.get(campaign_id=campaign_id, number=number)
    if rnd.status != RoundStatus.RESOLVED:
        services.resolve_round(round_id=rnd.pk)


def play_rounds(
    client: Client, campaign_id: int, orders: Orders, rounds: int = 2, *, draft: bool = True
) -> None:
    """Each power's player logs in, enters the power's orders on the order sheet and submits,
    ``rounds`` times, each round then resolving; with ``draft``, the next round's sheets get
    their orders too, not submitted."""
    players = {
        m.power.key: m.user_id
        for m in Membership.objects.filter(campaign_id=campaign_id).select_related("power")
    }
    users = get_user_model().objects.in_bulk(list(players.values()))
    for index in range(rounds + draft):
        number = 0
        for key in sorted(players):
            client.force_login(users[players[key]])
            mine = orders.get(key, ())
            number = enter_orders(
                client, campaign_id, key, mine[index] if index < len(mine) else []
            )
            if index < rounds:
                submit(client, campaign_id, key, number)
        if index < rounds:
            resolve(campaign_id, number)
    client.logout()


# a battle fought on the tabletop, entered on the battle records page by nac, so
# that page has a record to show both sides
BATTLE = {
    "hex": "0505",
    "powers": ["nac", "esu"],  # ticked by name on the form
    "craft": "nac-2-1 cf 1\nesu-2-1 destroyed",
}


def enter_battle(client: Client, campaign_id: int, power_key: str = "nac") -> None:
    """``BATTLE`` entered through the battle records page's form by ``power_key``'s player."""
    page = client.get(reverse("battles", args=[campaign_id, power_key])).content.decode()
    url = reverse("battle-enter", args=[campaign_id, power_key])
    assert set(BATTLE) <= set(forms_of(page)[url]), "the battle form has changed"
    response = client.post(url, BATTLE)
    assert response.status_code == 302, response.content.decode()
