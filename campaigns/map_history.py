"""The maps of past rounds (issue 30): the map as it stood after a resolved round, drawn from the
round records through the same ``MapData`` and ``render_svg`` the live map uses, and what that
round changed, in words.

One truth for "after round N": the contract state at the start of round N+1, which is what
round N+1's record holds. The last resolved round has no successor record yet; its "after" is
the live map (``map_selectors``), which is the state the next record will be written from.
What round N changed is the difference between the map before it (round N's own record) and
after it, plus its public ``battle.fought`` events. The converter below reads the same parts of
a state that ``map_selectors`` reads from the database, and nothing else: the public map gets
hub outlines, never nodes or centres; a private map only the viewer's own hubs and bubbles.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.http import Http404

from campaigns import map_selectors
from economy.engine.hexgrid import Hex
from economy.engine.rules import map_bounds
from economy.events import hub_name
from economy.models import RoundRecord, RoundStatus
from fleet.selectors import shown
from powers.maps import (
    TRAVELLER_NOTICE,
    BubbleView,
    HubArea,
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
from powers.models import Campaign, Power, StarSystem
from trade.models import TradeHub

State = Mapping[str, Any]


@dataclass(frozen=True)
class Stepper:
    """The round stepper of a map page: ``shown`` is the round whose aftermath is drawn
    (``None``: the map now)."""

    shown: int | None
    previous: int | None  # a round to step back to, if any
    following: int | None  # the next past round; ``None`` with ``shown`` set: the next is now


@dataclass(frozen=True)
class PastMap:
    data: MapData
    changes: tuple[str, ...]
    stepper: Stepper


def parse_round(raw: str | None) -> int | None:
    """``?round=N``: ``None`` (absent or empty) is the map now; anything but a round number
    from 1 up is no such page (404, never a 500)."""
    if raw is None or raw == "":
        return None
    if not raw.isascii() or not raw.isdigit() or len(raw) > 6 or int(raw) < 1:
        raise Http404("No such round: a round is a number from 1.")
    return int(raw)


def live_stepper(campaign: Campaign) -> Stepper:
    """The stepper on the live map: the round before the one in play was resolved (a round
    opens only once the one before it is resolved), so no query is needed."""
    last = campaign.current_round - 1
    return Stepper(shown=None, previous=last if last >= 1 else None, following=None)


def _records(campaign: Campaign, number: int) -> tuple[State, list[Any], State | None]:
    """Round ``number``'s record (state, events) and the next round's state if it is resolved
    (one query, whatever the number of rounds); 404 for a round not resolved."""
    found = {
        n: (state, events)
        for n, state, events in RoundRecord.objects.filter(
            round__campaign=campaign,
            round__status=RoundStatus.RESOLVED,
            round__number__in=(number, number + 1),
        ).values_list("round__number", "state", "events")
    }
    if number not in found:
        raise Http404(f"Round {number} has not been resolved: there is no map of it yet.")
    state, events = found[number]
    following = found.get(number + 1)
    return state, events, following[0] if following else None


def _battles(events: Iterable[Mapping[str, Any]]) -> tuple[Hex, ...]:
    """R-10.6: where the round's battles were fought, from its public events (the hex only)."""
    return tuple(
        sorted(
            {
                Hex.parse(str(e["data"]["hex"]))
                for e in events
                if e.get("kind") == "battle.fought"
                and e.get("public")
                and "hex" in e.get("data", {})
            },
            key=lambda h: (h.col, h.row),
        )
    )


def _notice(campaign: Campaign) -> str:
    """Worlds with a T5 allegiance code came from Traveller sector files: credit them."""
    traveller = StarSystem.objects.filter(campaign=campaign).exclude(allegiance="").exists()
    return TRAVELLER_NOTICE if traveller else ""


def map_of_state(
    state: State,
    *,
    campaign: Campaign,
    powers: dict[str, PowerView],
    title: str,
    notice: str,
    viewer: str | None = None,
) -> MapData:
    """A contract state (a round record's) as the ``MapData`` the live loaders build: the public
    parts, plus ``viewer``'s own loyalty, hubs, bubbles, shipments and groups when given."""
    hexes = tuple(
        sorted(
            (
                (Hex.parse(h["hex"]), str(h["type"]))
                for h in state.get("map", {}).get("hexes", [])
                if h.get("type") != "deep_space"
            ),
            key=lambda t: (t[0].col, t[0].row),
        )
    )
    systems = tuple(
        sorted(
            (
                SystemView(
                    Hex.parse(s["hex"]),
                    str(s["name"]),
                    s.get("holder"),
                    int(s.get("loyalty", 0)) if viewer and s.get("holder") == viewer else None,
                )
                for s in state.get("systems", [])
            ),
            key=lambda s: (s.hex.col, s.hex.row),
        )
    )
    counts: dict[tuple[Hex, str, str], int] = defaultdict(int)
    for kind, rows in (("group", state.get("groups", [])), ("static", state.get("statics", []))):
        for row in rows:
            counts[(Hex.parse(row["hex"]), str(row["power"]), kind)] += 1
    markers = tuple(
        Marker(h, power, kind, n)
        for (h, power, kind), n in sorted(counts.items(), key=lambda kv: _marker_order(kv[0]))
    )
    hubs = state.get("hubs", [])
    # Only the union of rings leaves the public part: which member is a node or the centre is
    # kept for the viewer's own hubs below.
    areas = tuple(
        HubArea(str(h["power"]), ring_area(_members(h)))
        for h in sorted(hubs, key=lambda h: str(h["id"]))
    )
    size = state.get("map", {}).get("size")
    explicit = (int(size["cols"]), int(size["rows"])) if size else None
    if explicit is None and campaign.map_cols and campaign.map_rows:
        explicit = (campaign.map_cols, campaign.map_rows)
    return MapData(
        title=title,
        powers=powers,
        hexes=hexes,
        systems=systems,
        markers=markers,
        hub_areas=areas,
        notice=notice,
        size=map_bounds(explicit, (str(h) for h, _ in hexes)),
        private=_private_layer(state, viewer) if viewer else None,
    )


def _marker_order(key: tuple[Hex, str, str]) -> tuple[int, int, str, str]:
    h, power, kind = key
    return (h.col, h.row, power, kind)


def _members(hub: Mapping[str, Any]) -> list[Hex]:
    centre = [Hex.parse(hub["centre"])] if hub.get("centre") else []
    return centre + [Hex.parse(n) for n in hub.get("nodes", [])]


def _private_layer(state: State, viewer: str) -> PrivateLayer:
    """``viewer``'s own secrets in ``state``: every list is filtered by its power first."""
    own_hubs = sorted(
        (h for h in state.get("hubs", []) if h.get("power") == viewer), key=lambda h: str(h["id"])
    )
    hubs = tuple(
        OwnHub(
            str(h["id"]),
            Hex.parse(h["centre"]) if h.get("centre") else None,
            tuple(Hex.parse(n) for n in h.get("nodes", [])),
            tuple((Hex.parse(a), Hex.parse(b)) for a, b in h.get("links", [])),
            hub_name(str(h["id"]), str(h.get("name") or ""), [viewer]),
        )
        for h in own_hubs
    )
    centres = {hub.key: hub.centre for hub in hubs if hub.centre is not None}
    grade = {
        str(o["id"]): int(o["grade"])
        for o in state.get("officers", [])
        if o.get("power") == viewer and o.get("grade")
    }
    bubbles = tuple(
        BubbleView(
            str(b["id"]),
            Hex.parse(b["hq"]),
            # R-8.3a: a post's radius is its officer's grade; the stored radius without one
            grade.get(str(b.get("officer")), int(b["radius"])),
            tuple(
                (Hex.parse(o["hex"]), grade.get(str(o.get("officer")), int(o["radius"])))
                for o in b.get("outposts", [])
            ),
            tuple(Hex.parse(s) for s in b.get("sensors", [])),
            tuple(
                (Hex.parse(s), Hex.parse(o["hex"]))
                for o in b.get("outposts", [])
                for s in o.get("sensors", [])
            ),
            shown(viewer, str(b["id"])),
        )
        for b in sorted(state.get("bubbles", []), key=lambda b: str(b["id"]))
        if b.get("power") == viewer
    )
    routes = tuple(
        RouteView(
            str(s["id"]),
            centres[s["from_hub"]],
            centres[s["to_hub"]],
            f"{s['id']}: {s['amount']} {str(s['resource']).upper()}, arrives round {s['arrives']}",
        )
        for s in sorted(state.get("shipments", []), key=lambda s: (s["arrives"], str(s["id"])))
        if viewer in (s.get("power"), s.get("sender", s.get("power")))
        and s.get("from_hub") in centres
        and s.get("to_hub") in centres
    )
    craft: dict[str, int] = defaultdict(int)
    for c in state.get("craft", []):
        if c.get("power") == viewer and c.get("group"):
            craft[str(c["group"])] += 1
    groups = tuple(
        OwnGroup(
            shown(viewer, str(g["id"])),
            Hex.parse(g["hex"]),
            int(g.get("points", 0)),
            craft[str(g["id"])],
            int(g.get("ep", 0)),
            bool(g.get("out_of_supply", False)),
        )
        for g in sorted(state.get("groups", []), key=lambda g: str(g["id"]))
        if g.get("power") == viewer
    )
    return PrivateLayer(power=viewer, hubs=hubs, bubbles=bubbles, routes=routes, groups=groups)


# --- what a round changed --------------------------------------------------------------------


def changes(
    before: MapData, after: MapData, *, hub_names: Mapping[str, str] | None = None
) -> tuple[str, ...]:
    """What the round changed, in names: systems that changed holder, hubs set up or lost
    (another power's as an outline only; the viewer's own by name) and battles (hex only)."""
    names = {key: p.name for key, p in {**before.powers, **after.powers}.items()}

    def who(key: str | None) -> str:
        return names.get(key, "an unknown power") if key else "neutral"

    out: list[str] = []
    was = {s.hex: s for s in before.systems}
    for s in after.systems:
        old = was.get(s.hex)
        if old is not None and old.holder != s.holder:
            out.append(f"{s.name} ({s.hex}): {who(old.holder)} → {who(s.holder)}")
    viewer = after.private.power if after.private else None
    if before.private is not None and after.private is not None and viewer is not None:
        old_keys = {h.key for h in before.private.hubs}
        new_keys = {h.key for h in after.private.hubs}

        def hub(key: str) -> str:
            return hub_name(key, (hub_names or {}).get(key, ""), [viewer])

        out += [f"Your hub {hub(k)} was set up" for k in sorted(new_keys - old_keys)]
        out += [f"Your hub {hub(k)} was lost" for k in sorted(old_keys - new_keys)]
    for power in sorted({a.power for a in (*before.hub_areas, *after.hub_areas)}, key=who):
        if power == viewer:
            continue  # listed by name above
        old_areas = [a.hexes for a in before.hub_areas if a.power == power]
        new_areas = [a.hexes for a in after.hub_areas if a.power == power]
        # a hub is matched by overlap: an outline that grew or shrank is the same hub
        set_up = sum(1 for a in new_areas if not any(a & b for b in old_areas))
        lost = sum(1 for b in old_areas if not any(b & a for a in new_areas))
        out += [f"{who(power)} set up a trade hub (outline on the map)"] * set_up
        out += [f"{who(power)} lost a trade hub"] * lost
    out += [f"A battle was fought at {h}" for h in after.battles]
    return tuple(out)


# --- the past maps -----------------------------------------------------------------------------


def _past(
    campaign: Campaign,
    number: int,
    *,
    title: str,
    viewer: Power | None,
) -> PastMap:
    state, events, next_state = _records(campaign, number)
    powers, _ = map_selectors.power_views(campaign.pk)
    live: MapData | None = None
    if next_state is None:
        # the last resolved round: after it is the live map (see the module's docstring)
        live = (
            map_selectors.private_map(power=viewer)
            if viewer is not None
            else map_selectors.public_map(campaign=campaign)
        )
    notice = live.notice if live is not None else _notice(campaign)
    viewer_key = viewer.key if viewer is not None else None

    def drawn(s: State) -> MapData:
        return map_of_state(
            s, campaign=campaign, powers=powers, title=title, notice=notice, viewer=viewer_key
        )

    # a past map shows that round's battles only, and no Area of Special Interest
    after = dataclasses.replace(
        live if live is not None else drawn(next_state or {}),
        title=title,
        battles=_battles(events),
        interest=None,
    )
    hub_names = (
        dict(TradeHub.objects.filter(power=viewer).values_list("key", "name"))
        if viewer is not None
        else None
    )
    stepper = Stepper(
        shown=number,
        previous=number - 1 if number > 1 else None,
        following=number + 1 if next_state is not None else None,
    )
    return PastMap(after, changes(drawn(state), after, hub_names=hub_names), stepper)


def past_public(*, campaign: Campaign, number: int) -> PastMap:
    """The public map after round ``number`` and what it changed (404 if not resolved)."""
    return _past(
        campaign, number, title=f"{campaign.name}: public map after round {number}", viewer=None
    )


def past_private(*, power: Power, number: int) -> PastMap:
    """``power``'s map after round ``number``: only its own secrets of that round.
    ``power`` must come from ``access_power_for_user``."""
    return _past(
        power.campaign,
        number,
        title=f"{power.campaign.name}: map of {power.name} after round {number}",
        viewer=power,
    )
