"""Two rounds of the demo played by its four powers with a mix of orders, for the page crawls
and the layout test (issue 17): trade, shipping, building, research, loyalty and hubs, so the
statements, events and reports have something to say."""

from __future__ import annotations

from typing import Any

from economy import services
from economy.models import Round
from powers.models import Power

# power -> orders of round 1 and round 2 (as a player types them)
ORDERS: dict[str, tuple[list[dict[str, Any]], list[dict[str, Any]]]] = {
    "nac": (
        [
            {"type": "market_sell", "resource": "ore", "amount": 20, "from": "nac-core"},
            {"type": "gal_transfer", "to": "esu", "amount": 5},
            {"type": "build", "id": "f9", "design": "nac-frigate", "builders": ["nac-y1"]},
            {"type": "research_project", "gal": 4},
            {"type": "declare_group", "group": "nac-2", "hex": "0505", "order": "maintain_orbit"},
        ],
        [
            {"type": "market_sell", "resource": "bio", "amount": 5, "from": "nac-core"},
            {"type": "designate_primary", "system": "dunmore"},
            {
                "type": "hub_setup",
                "id": "west",
                "name": "Westmark",
                "centre": "0406",
                "nodes": [],
                "links": [],
                "pay_from": "nac-core",
            },
        ],
    ),
    "esu": (
        [
            {"type": "market_sell", "resource": "gal", "amount": 10, "to": "esu-core"},
            {"type": "conscript", "system": "lena", "loyalty": 1},
        ],
        [{"type": "research_project", "gal": 2}],
    ),
    "nsl": ([{"type": "guild_join", "hub": "nsl-core"}], []),
    "fse": ([], [{"type": "gal_transfer", "to": "nac", "amount": 3}]),
}


def play_demo_rounds(campaign_id: int, rounds: int = 2, *, draft: bool = True) -> None:
    """Enter each power's orders and resolve, ``rounds`` times (in-process, no worker); with
    ``draft``, the next round's sheets get orders too, not submitted."""
    for number in range(rounds + draft):
        for power in Power.objects.filter(campaign_id=campaign_id).order_by("key"):
            for payload in ORDERS.get(power.key, ([], []))[number % 2]:
                services.add_order(power=power, payload=payload, actor=power.key)
            if number == rounds:
                continue
            services.submit_sheet(power=power, actor=power.key)
        if number == rounds:
            break
        rnd = Round.objects.get(campaign_id=campaign_id, number=number + 1)
        if rnd.status != "resolved":  # the last submission may have resolved it already
            services.resolve_round(round_id=rnd.pk)
