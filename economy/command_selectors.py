"""Keys and labels the command order forms may offer a power (``economy.orderforms`` sources
``officers``, ``bubbles``, ``diplomats``): its own only (R-8.3: bubbles are secret), with what
its sheet commissions, sets up or appoints this round (Support §5, §4.4)."""

from __future__ import annotations

from economy.fleet_selectors import sheet_payloads, shown
from powers.models import CommandBubble, Power
from powers.models.command import Diplomat, Officer

#: what each source's sheet promise is made by (validate.PROMISES)
_MADE_BY = {"officers": "commission", "bubbles": "bubble_hq", "diplomats": "appoint_diplomat"}


def _named(power: Power, key: str, name: str) -> str:
    """The engine names a character commissioned without a name by its (stored) id."""
    return name if name and name != key else shown(power, key)


def command_choices(power: Power) -> dict[str, list[tuple[str, str]]]:
    made = sheet_payloads(power, *_MADE_BY.values())
    out = {
        "officers": [
            (o.key, f"{_named(power, o.key, o.name)} (rank {o.rank}, grade {o.grade})")
            for o in Officer.objects.filter(power=power).order_by("key")
        ],
        "bubbles": [
            (b.key, f"{shown(power, b.key)} (HQ {b.hq})")
            for b in CommandBubble.objects.filter(power=power).order_by("key")
        ],
        "diplomats": [
            (d.key, _named(power, d.key, d.name))
            for d in Diplomat.objects.filter(power=power).order_by("key")
        ],
    }
    for source, kind in _MADE_BY.items():
        out[source] += [
            (p["id"], f"{p.get('name') or shown(power, p['id'])} (this round)")
            for p in made
            if p.get("type") == kind and isinstance(p.get("id"), str)
        ]
    return out
