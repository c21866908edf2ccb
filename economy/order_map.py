"""The orders page's map (issue 30): the power's private map with its groups as buttons, the
moves its sheet drafts as arrows, and what it can order at each of its places.

R-2: movement is not simulated, so there is no allowance to compute; any hex on the map may be
declared and the page only shows the distance (docs/decisions/orders-on-the-map.md). Nothing
here decides what is allowed: each action only prefills the sheet's order form, and the entry
check judges the order as it judges one typed by hand.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from dataclasses import dataclass
from urllib.parse import urlencode

from campaigns import map_selectors
from economy.engine.hexgrid import Hex
from economy.events import hub_name
from fleet.selectors import PowerFleet, sheet_payloads, shown
from powers.maps import MapData, OwnGroup
from powers.models import Power, StarSystem
from trade.models import TradeHub


@dataclass(frozen=True, slots=True)
class Action:
    """One order the player may start here: its words, and the order form's prefill."""

    label: str
    query: str  # ``type=build&builders=...`` for the sheet's URL


@dataclass(frozen=True, slots=True)
class Place:
    """A hex where the power can order something: its own systems and its builders' hexes."""

    hex: str
    name: str
    actions: tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class OrderMap:
    data: MapData
    places: tuple[Place, ...]


def drafted(power: Power) -> dict[str, Hex]:
    """Group key -> the hex its declare_group on the open round's sheet names (one query)."""
    moves: dict[str, Hex] = {}
    for p in sheet_payloads(power, "declare_group"):
        try:
            moves[str(p.get("group"))] = Hex.parse(str(p.get("hex")))
        except ValueError:
            continue  # a hex typed wrong is the sheet's error to show, not an arrow
    return moves


def _q(**values: str) -> str:
    return urlencode(values)


def _places(power: Power, fleet: PowerFleet) -> tuple[Place, ...]:
    """What each own system and each builder's hex offers: build at the builders there, a hub
    centred on the system or extended to it, troops recruited at it (2 queries)."""
    actions: dict[str, list[Action]] = defaultdict(list)
    names: dict[str, str] = {}
    hubs = [
        (key, hub_name(key, name, [power.key]))
        for key, name in TradeHub.objects.filter(power=power)
        .order_by("key")
        .values_list("key", "name")
    ]
    held = StarSystem.objects.filter(holder=power).order_by("hex__col", "hex__row")
    for key, name, col, row in held.values_list("key", "name", "hex__col", "hex__row"):
        code = str(Hex(col, row))
        names[code] = name
        actions[code].append(
            Action("Set up a trade hub centred here", _q(type="hub_setup", centre=code))
        )
        actions[code] += [
            Action(f"Extend hub {words} to here", _q(type="hub_extend", hub=hub, nodes=code))
            for hub, words in hubs
        ]
        actions[code].append(Action("Recruit troops here", _q(type="recruit_troops", at=key)))
    for craft in fleet.builders():
        at = fleet.craft_hex(craft)
        if at is None:
            continue
        name = f"{shown(power, craft.id)} ({fleet.navy.design(craft).name})"
        actions[at].insert(
            0, Action(f"Build here with {name}", _q(type="build", builders=craft.id))
        )
    return tuple(Place(code, names.get(code, ""), tuple(actions[code])) for code in sorted(actions))


def order_map(*, power: Power) -> OrderMap:
    """The private map of ``power`` (from ``access_power_for_user``) for its orders page: its
    groups keyed for their declarations, with their drafted moves, and its places' actions."""
    data = map_selectors.private_map(power=power)
    fleet = PowerFleet.of(power)
    key_of = {shown(power, key): key for key in fleet.groups}  # the map names groups as shown
    moves = drafted(power)

    def keyed(g: OwnGroup) -> OwnGroup:
        key = key_of.get(g.name, "")
        return dataclasses.replace(g, key=key, drafted=moves.get(key))

    if data.private is not None:
        groups = tuple(keyed(g) for g in data.private.groups)
        data = dataclasses.replace(data, private=dataclasses.replace(data.private, groups=groups))
    return OrderMap(data, _places(power, fleet))
