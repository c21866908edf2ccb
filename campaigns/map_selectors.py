"""Reads for the maps: the plain data ``powers.maps`` draws, in a fixed number of queries.

The public loaders and the per-power loaders are separate functions. A public loader reads hub
nodes only to compute the union of their radius-1 rings (R-5.8) and returns that area, never the
nodes; it never reads links, bubbles, sensors, shipments or loyalty (Support §4.1.3, §5.2.6).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Count, OuterRef, Q, Subquery

from command.pages import special_interest
from economy.engine.hexgrid import Hex
from economy.engine.rules import map_bounds
from economy.events import hub_name
from fleet.selectors import battle_hexes, shown
from powers.db import hex_code
from powers.maps import (
    HEX_TYPE_LABELS,
    TRAVELLER_NOTICE,
    BubbleView,
    HubArea,
    InterestMark,
    MapData,
    Marker,
    OwnGroup,
    OwnHub,
    PowerView,
    PrivateLayer,
    RouteView,
    SystemView,
    ring_area,
)
from powers.models import (
    WORLD_STATISTICS,
    BubbleOutpost,
    BubbleSensor,
    Campaign,
    CommandBubble,
    FleetGroup,
    HexType,
    MapHex,
    Power,
    StarSystem,
    Static,
    ehex,
)
from powers.models.command import CommandSettings, OutpostSensor, PostOfficer
from trade.models import HubLink, HubNode, Shipment


def power_views(campaign_id: int) -> tuple[dict[str, PowerView], dict[int, str]]:
    """The campaign's powers by key, and their keys by id (1 query; the past maps too)."""
    rows = Power.objects.filter(campaign_id=campaign_id).values_list("id", "key", "name", "colour")
    views = {key: PowerView(key, name, colour) for _, key, name, colour in rows}
    return views, {pk: key for pk, key, _, _ in rows}


def _public_parts(campaign: Campaign) -> MapData:
    """Everything on the public map (7 queries, whatever the campaign's size)."""
    cid = campaign.pk
    powers, key_of = power_views(cid)
    hexes = tuple(
        (Hex(col, row), kind)
        for col, row, kind in MapHex.objects.filter(campaign_id=cid)
        .exclude(hex_type=HexType.DEEP_SPACE)
        .values_list("col", "row", "hex_type")
        .order_by("col", "row")
    )
    rows = list(
        StarSystem.objects.filter(campaign_id=cid)
        .values_list("hex__col", "hex__row", "name", "holder_id", "allegiance")
        .order_by("hex__col", "hex__row")
    )
    systems = tuple(
        SystemView(Hex(col, row), name, key_of.get(holder) if holder else None)
        for col, row, name, holder, _ in rows
    )
    # Worlds with a T5 allegiance code came from Traveller sector files: credit them.
    notice = TRAVELLER_NOTICE if any(allegiance for *_, allegiance in rows) else ""
    markers: list[Marker] = []
    for model, kind in ((FleetGroup, "group"), (Static, "static")):
        counted = (
            model.objects.filter(campaign_id=cid)
            .values("col", "row", "power_id")
            .annotate(n=Count("id"))
            .order_by("col", "row", "power_id")
        )
        markers += [
            Marker(Hex(r["col"], r["row"]), key_of[r["power_id"]], kind, r["n"]) for r in counted
        ]
    members: dict[int, list[Hex]] = defaultdict(list)
    owner: dict[int, str] = {}
    for hub_id, power_id, col, row in (
        HubNode.objects.filter(campaign_id=cid)
        .values_list("hub_id", "hub__power_id", "col", "row")
        .order_by("hub_id")
    ):
        members[hub_id].append(Hex(col, row))
        owner[hub_id] = key_of[power_id]
    # Only the union of rings leaves this function: which member is a node or the centre, and
    # which are linked, is never read.
    areas = tuple(HubArea(owner[h], ring_area(members[h])) for h in sorted(members))
    return MapData(
        title=f"{campaign.name}: public map",
        powers=powers,
        hexes=hexes,
        systems=systems,
        markers=tuple(markers),
        hub_areas=areas,
        notice=notice,
        size=_size(campaign, hexes),
        battles=tuple(Hex.parse(h) for h in battle_hexes(cid)),
        interest=_interest(campaign),
    )


def _interest(campaign: Campaign) -> InterestMark | None:
    """R-8.1a: the Area of Special Interest while it is announced or active, with its rounds
    (public: the announcement is; 1 query)."""
    view = special_interest(
        CommandSettings.objects.filter(campaign=campaign).first(), campaign.current_round
    )
    return InterestMark(Hex.parse(view.hex), view.words) if view is not None else None


def _size(campaign: Campaign, hexes: tuple[tuple[Hex, str], ...]) -> tuple[int, int] | None:
    """The map bounds (contracts §1 map.size): the campaign's, else the box of its hexes."""
    explicit = (
        (campaign.map_cols, campaign.map_rows) if campaign.map_cols and campaign.map_rows else None
    )
    return map_bounds(explicit, (str(h) for h, _ in hexes))


def public_map(*, campaign: Campaign) -> MapData:
    """The public campaign map's data (spectators and every player see the same)."""
    return _public_parts(campaign)


def private_map(*, power: Power) -> MapData:
    """The map as ``power`` sees it: the public map plus its own hubs (centre, nodes, links),
    command bubbles and sensors, loyalty of its systems and routes of its shipments.
    ``power`` must come from ``access_power_for_user``."""
    public = _public_parts(power.campaign)
    loyalty = {
        Hex(col, row): lr
        for col, row, lr in StarSystem.objects.filter(holder=power).values_list(
            "hex__col", "hex__row", "loyalty"
        )
    }
    systems = tuple(
        SystemView(s.hex, s.name, s.holder, loyalty[s.hex])
        if s.holder == power.key and s.hex in loyalty
        else s
        for s in public.systems
    )
    hubs = _own_hubs(power)
    centres = {hub_id: hub.centre for hub_id, hub in hubs.items() if hub.centre is not None}
    return MapData(
        title=f"{power.campaign.name}: map of {power.name}",
        powers=public.powers,
        hexes=public.hexes,
        systems=systems,
        markers=public.markers,
        battles=public.battles,
        interest=public.interest,
        hub_areas=public.hub_areas,
        notice=public.notice,
        size=public.size,
        private=PrivateLayer(
            power=power.key,
            hubs=tuple(hubs[h] for h in sorted(hubs, key=lambda h: hubs[h].key)),
            bubbles=_own_bubbles(power),
            routes=_own_routes(power, centres),
            groups=_own_groups(power),
        ),
    )


def _own_groups(power: Power) -> tuple[OwnGroup, ...]:
    """R-7.4, R-10.7: the power's groups with their points (derived from their craft), how
    many craft, their EP and whether they are out of supply (one query)."""
    return tuple(
        OwnGroup(shown(power, key), Hex(col, row), points, n, ep, oos)
        for key, col, row, points, n, ep, oos in FleetGroup.objects.filter(power=power)
        .annotate(n=Count("craft"))
        .values_list("key", "col", "row", "points", "n", "ep", "out_of_supply")
        .order_by("key")
    )


def _own_hubs(power: Power) -> dict[int, OwnHub]:
    nodes: dict[int, list[Hex]] = defaultdict(list)
    centre: dict[int, Hex] = {}
    keys: dict[int, str] = {}
    names: dict[int, str] = {}
    for hub_id, key, name, col, row, is_centre in (
        HubNode.objects.filter(hub__power=power)
        .values_list("hub_id", "hub__key", "hub__name", "col", "row", "is_centre")
        .order_by("hub_id", "col", "row")
    ):
        keys[hub_id] = key
        names[hub_id] = hub_name(key, name, [power.key])
        if is_centre:
            centre[hub_id] = Hex(col, row)
        else:
            nodes[hub_id].append(Hex(col, row))
    links: dict[int, list[tuple[Hex, Hex]]] = defaultdict(list)
    for hub_id, ac, ar, bc, br in (
        HubLink.objects.filter(hub__power=power)
        .values_list("hub_id", "a__col", "a__row", "b__col", "b__row")
        .order_by("hub_id", "id")
    ):
        links[hub_id].append((Hex(ac, ar), Hex(bc, br)))
    return {
        h: OwnHub(keys[h], centre.get(h), tuple(nodes[h]), tuple(links[h]), names[h])
        for h in sorted(keys)
    }


def _own_bubbles(power: Power) -> tuple[BubbleView, ...]:
    """The power's bubbles with each post's radius its officer's grade (R-8.3a: derived, the
    stored radius only for a post with no officer), the HQ's sensors and each outpost's
    (4 queries)."""
    outposts: dict[int, list[tuple[Hex, int]]] = defaultdict(list)
    for bubble_id, col, row, radius, grade in (
        BubbleOutpost.objects.filter(bubble__power=power)
        .values_list("bubble_id", "col", "row", "radius", "officers__officer__grade")
        .order_by("bubble_id", "col", "row")
    ):
        outposts[bubble_id].append((Hex(col, row), grade or radius))
    sensors: dict[int, list[Hex]] = defaultdict(list)
    for bubble_id, col, row in (
        BubbleSensor.objects.filter(bubble__power=power)
        .values_list("bubble_id", "col", "row")
        .order_by("bubble_id", "col", "row")
    ):
        sensors[bubble_id].append(Hex(col, row))
    outpost_sensors: dict[int, list[tuple[Hex, Hex]]] = defaultdict(list)
    for bubble_id, col, row, ocol, orow in (
        OutpostSensor.objects.filter(outpost__bubble__power=power)
        .values_list("outpost__bubble_id", "col", "row", "outpost__col", "outpost__row")
        .order_by("outpost__bubble_id", "col", "row")
    ):
        outpost_sensors[bubble_id].append((Hex(col, row), Hex(ocol, orow)))
    hq_grade = PostOfficer.objects.filter(bubble=OuterRef("pk"), outpost__isnull=True).values(
        "officer__grade"
    )[:1]
    return tuple(
        BubbleView(
            key,
            Hex(col, row),
            grade or radius,
            tuple(outposts[pk]),
            tuple(sensors[pk]),
            tuple(outpost_sensors[pk]),
            shown(power, key),
        )
        for pk, key, col, row, radius, grade in CommandBubble.objects.filter(power=power)
        .annotate(grade=Subquery(hq_grade))
        .values_list("id", "key", "hq_col", "hq_row", "radius", "grade")
        .order_by("key")
    )


def _own_routes(power: Power, centres: dict[int, Hex]) -> tuple[RouteView, ...]:
    """R-5.4: a shipment between two of the power's own guild hubs, drawn centre to centre.
    An external leg's other end is another power's secret, so it is not drawn (docs/maps.md)."""
    routes = []
    for key, from_hub, to_hub, resource, amount, arrives in (
        Shipment.objects.filter(Q(power=power) | Q(sender=power))
        .values_list("key", "from_hub_id", "to_hub_id", "resource", "amount", "arrives")
        .order_by("arrives", "key")
    ):
        if from_hub in centres and to_hub in centres:
            label = f"{key}: {amount} {resource.upper()}, arrives round {arrives}"
            routes.append(RouteView(key, centres[from_hub], centres[to_hub], label))
    return tuple(routes)


# --- the hex panel ------------------------------------------------------------------------------


@dataclass(frozen=True)
class HexPanel:
    """What the viewer may know about one hex (public, or for one power)."""

    hex: Hex
    hex_type: str
    system: dict[str, object] | None
    markers: list[tuple[PowerView, int, int]]  # power, groups, statics
    private: bool = False
    loyalty: int | None = None
    hub: str = ""  # "centre of hub X" / "node of hub X"
    own_groups: list[str] = field(default_factory=list)
    own_statics: list[str] = field(default_factory=list)
    own_bubble: list[str] = field(default_factory=list)

    @property
    def hex_type_label(self) -> str:
        return HEX_TYPE_LABELS.get(self.hex_type, self.hex_type)


_SYSTEM_FIELDS = (
    "key",
    "name",
    "holder_id",
    "system_type",
    *WORLD_STATISTICS,
    "rate_ore",
    "rate_gal",
    "rate_bio",
    "rate_pl",
)


def _public_panel(campaign_id: int, h: Hex) -> tuple[HexPanel, dict[int, str]]:
    powers, key_of = power_views(campaign_id)
    hex_type = (
        MapHex.objects.filter(campaign_id=campaign_id, col=h.col, row=h.row)
        .values_list("hex_type", flat=True)
        .first()
    ) or HexType.DEEP_SPACE
    row = (
        StarSystem.objects.filter(campaign_id=campaign_id, hex__col=h.col, hex__row=h.row)
        .values(*_SYSTEM_FIELDS)
        .first()
    )
    system: dict[str, object] | None = None
    if row is not None:
        digits = [
            row[f]
            for f in ("size", "atmosphere", "hydrographics", "population", "government", "law")
        ]
        uwp = (row["starport"] or "?") + "".join(ehex(d) for d in digits)
        holder = key_of.get(row.pop("holder_id"), "")
        system = {**row, "uwp": f"{uwp}-{ehex(row['tech_level'])}", "holder": powers.get(holder)}
    counts: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    kinds: tuple[type[FleetGroup] | type[Static], ...] = (FleetGroup, Static)
    for i, model in enumerate(kinds):
        for power_id, n in (
            model.objects.filter(campaign_id=campaign_id, col=h.col, row=h.row)
            .values("power_id")
            .annotate(n=Count("id"))
            .values_list("power_id", "n")
        ):
            counts[power_id][i] = n
    markers = [
        (powers[key_of[pid]], g, s) for pid, (g, s) in sorted(counts.items(), key=lambda kv: kv[0])
    ]
    return HexPanel(hex=h, hex_type=hex_type, system=system, markers=markers), key_of


def public_hex(*, campaign: Campaign, hexagon: Hex) -> HexPanel:
    """The public hex panel: hex type, the system there (name, UWP, holder), public markers."""
    panel, _ = _public_panel(campaign.pk, hexagon)
    return panel


def private_hex(*, power: Power, hexagon: Hex) -> HexPanel:
    """The hex panel for ``power`` (from ``access_power_for_user``): the public panel plus its
    own LR there, its own hub membership, groups, statics and bubble posts at that hex."""
    h = hexagon
    public, _ = _public_panel(power.campaign_id, h)
    at = {"col": h.col, "row": h.row}
    loyalty = (
        StarSystem.objects.filter(holder=power, hex__col=h.col, hex__row=h.row)
        .values_list("loyalty", flat=True)
        .first()
    )
    node = (
        HubNode.objects.filter(hub__power=power, **at)
        .values_list("hub__key", "hub__name", "is_centre")
        .first()
    )
    hub = ""
    if node is not None:
        named = hub_name(node[0], node[1], [power.key])
        hub = f"{'centre' if node[2] else 'node'} of hub {named}"
    groups = [
        OwnGroup(shown(power, key), h, points, n, ep, oos).label.removeprefix("Group ")
        for key, points, n, ep, oos in FleetGroup.objects.filter(power=power, **at)
        .annotate(n=Count("craft"))
        .order_by("key")
        .values_list("key", "points", "n", "ep", "out_of_supply")
    ]
    statics = [
        shown(power, key)
        for key in Static.objects.filter(power=power, **at)
        .order_by("key")
        .values_list("key", flat=True)
    ]
    posts = [
        f"HQ of bubble {shown(power, key)}"
        for key in CommandBubble.objects.filter(power=power, hq_col=h.col, hq_row=h.row)
        .order_by("key")
        .values_list("key", flat=True)
    ]
    posts += [
        f"outpost of bubble {shown(power, key)}"
        for key in BubbleOutpost.objects.filter(bubble__power=power, **at)
        .order_by("bubble__key")
        .values_list("bubble__key", flat=True)
    ]
    posts += [
        f"sensor of bubble {shown(power, key)}"
        for key in BubbleSensor.objects.filter(bubble__power=power, **at)
        .order_by("bubble__key")
        .values_list("bubble__key", flat=True)
    ]
    posts += [
        f"sensor of bubble {shown(power, key)}, from its outpost {hex_code(col, row)}"
        for key, col, row in OutpostSensor.objects.filter(outpost__bubble__power=power, **at)
        .order_by("outpost__bubble__key")
        .values_list("outpost__bubble__key", "outpost__col", "outpost__row")
    ]
    return HexPanel(
        hex=public.hex,
        hex_type=public.hex_type,
        system=public.system,
        markers=public.markers,
        private=True,
        loyalty=loyalty,
        hub=hub,
        own_groups=groups,
        own_statics=statics,
        own_bubble=posts,
    )
