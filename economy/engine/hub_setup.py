"""Support §4.1: trade hub setup, extension and maintenance (R-5.1, R-5.1a, R-5.2, R-5.2a)."""

from __future__ import annotations

from collections import defaultdict

from .ledger import Holder
from .rules import hex_distance, hub_extension_cost, hub_maintenance, hub_setup_cost
from .state import Hub, Order
from .world import World


def link_key(a: str, b: str) -> tuple[str, str]:
    """Links are unordered pairs of hexes (contracts §1)."""
    return (a, b) if a <= b else (b, a)


def reachable(centre: str, links: list[tuple[str, str]]) -> set[str]:
    """Members connected to the centre by links (Support §4.1.1)."""
    adjacent: dict[str, list[str]] = defaultdict(list)
    for a, b in links:
        adjacent[a].append(b)
        adjacent[b].append(a)
    seen = {centre}
    frontier = [centre]
    while frontier:
        for nxt in adjacent[frontier.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
    return seen


def _member_problem(world: World, power: str, hx: str, *, centre: bool) -> str | None:
    """R-5.1: a member on a system hex is that system, held by the power; off the systems the
    centre needs a civilian static of the power, a node any static of it (as R-4.6 judges them)."""
    other = world.member_of.get(hx)
    if other is not None:
        # another power's hub is not named: its members are its secret (issue 11)
        whose = f"hub {other.id}" if other.power == power else "another power's hub"
        return f"{hx} already belongs to {whose} (a node is in one hub only)"
    system = world.system_at.get(hx)
    if system is not None:
        if system.holder == power and world.effective_loyalty(system) > 0:
            return None
        return f"{hx} is system {system.id}, not held by {power}"
    statics = [s for s in world.statics_at.get(hx, ()) if s.power == power]
    if any(s.civilian or not centre for s in statics):
        return None
    what = "a civilian static" if centre else "a static"
    return f"{hx} has no system and no {what} of {power}"


def _structure_problem(
    world: World,
    power: str,
    hub: Hub,
    new_nodes: list[str],
    new_links: list[tuple[str, str]],
    *,
    new_centre: bool,
) -> str | None:
    """R-5.1, R-5.1a: ``hub`` (its structure so far) with ``new_nodes`` and ``new_links``
    added: each new member held or with a static of the power and in no other hub; links only
    between its members, none twice; every member reaches the centre."""
    members = [*hub.members(), *new_nodes]
    if len(set(members)) != len(members):
        return f"nodes: a hex is listed twice or is already a member of hub {hub.id}"
    if new_centre and (problem := _member_problem(world, power, hub.centre, centre=True)):
        return f"centre: {problem}"
    for hx in new_nodes:
        problem = _member_problem(world, power, hx, centre=False)
        if problem:
            return f"nodes: {problem}"
    member_set = set(members)
    seen = {link_key(a, b) for a, b in hub.links}
    for a, b in new_links:
        for end in (a, b):
            if end not in member_set:
                other = world.member_of.get(end)
                if other is not None:
                    whose = f"hub {other.id}" if other.power == power else "another hub"
                    return f"links: {a}-{b} joins hub {hub.id} to {whose} (R-5.1)"
                return f"links: {end} is neither the centre nor a node"
        if a == b or link_key(a, b) in seen:
            return f"links: {a}-{b} is a loop or listed twice"
        seen.add(link_key(a, b))
    cut_off = member_set - reachable(hub.centre, [*hub.links, *new_links])
    if cut_off:
        return f"links: {', '.join(sorted(cut_off))} cannot reach the centre (Support §4.1.1)"
    return None


def _payer(world: World, order: Order) -> Holder | None:
    """R-1.4: Ore from the named hub or system, by default the centre system's stockpile."""
    if "pay_from" in order.fields:
        named = world.hub_or_system(order["pay_from"])
        if named is None or isinstance(named, Hub):
            return None if named is None or named.id in world.new_hubs else named
        system = named
    else:
        found = world.system_at.get(order["centre"])
        if found is None:
            return None
        system = found
    if system.holder != order.power or world.effective_loyalty(system) == 0:
        return None
    return world.place_of(system)


def _setup(world: World, order: Order) -> None:
    """Support §4.1.1, R-5.1: pay 20 + link lengths in Ore; active from the next round."""
    books = world.books
    nodes = list(order.get("nodes", []))
    links = [(a, b) for a, b in order.get("links", [])]
    if order["id"] in world.hubs:
        return world.reject(order, f"id: hub {order['id']} already exists")
    hub = Hub(order["id"], order.power, order["centre"], [], [], False, {})
    problem = _structure_problem(world, order.power, hub, nodes, links, new_centre=True)
    if problem:
        return world.reject(order, problem)
    payer = _payer(world, order)
    if payer is None:
        return world.reject(order, "pay_from: no held stockpile or active hub of yours to pay from")
    cost = hub_setup_cost([hex_distance(a, b) for a, b in links])
    if payer.store["ore"] < cost:
        return world.reject(
            order, f"{payer.where} has {payer.store['ore']} ore, setup needs {cost}"
        )
    books.change(order.power, payer, "ore", -cost, f"setup of hub {hub.id}", "R-5.1")
    hub.nodes, hub.links = nodes, links
    hub.store = dict.fromkeys(("ore", "bio", "pl"), 0)
    world.add_hub(hub)
    books.event(
        "hub.set_up",
        powers=(order.power,),
        power=order.power,
        hub=hub.id,
        centre=hub.centre,
        nodes=len(nodes),
    )
    return None


def _extend(world: World, order: Order) -> None:
    """Support §4.1.1, R-5.1a: new nodes and links for an existing hub, paying the new links'
    lengths in Ore from its pool; maintained from this phase, active from the next round."""
    hub = world.hubs.get(order["hub"])
    if hub is None:
        return world.reject(order, f"hub {order['hub']} no longer exists")
    if hub.id in world.new_hubs:
        return world.reject(order, f"hub {hub.id} is set up this round: extend it next round")
    nodes = list(order.get("nodes", []))
    links = [(a, b) for a, b in order["links"]]
    problem = _structure_problem(world, order.power, hub, nodes, links, new_centre=False)
    if problem:
        return world.reject(order, problem)
    cost = hub_extension_cost([hex_distance(a, b) for a, b in links])
    if hub.store["ore"] < cost:
        return world.reject(
            order, f"hub {hub.id} has {hub.store['ore']} ore, the extension needs {cost}"
        )
    world.books.change(order.power, hub, "ore", -cost, f"extension of hub {hub.id}", "R-5.1a")
    hub.nodes.extend(nodes)
    hub.links.extend(links)
    for hx in nodes:
        world.member_of[hx] = hub
        world.new_members.add(hx)
    world.books.event(
        "hub.extended",
        powers=(order.power,),
        power=order.power,
        hub=hub.id,
        nodes=len(nodes),
        links=len(links),
    )
    return None


def setup(world: World) -> None:
    """Support §4.1.1, R-5.9: setups and extensions in each power's listed order."""
    world.books.step = "support.4.1.1"
    orders = sorted(
        [*world.orders.get("hub_setup", ()), *world.orders.get("hub_extend", ())],
        key=lambda o: (o.power, o.index),
    )
    for order in orders:
        if order.type == "hub_setup":
            _setup(world, order)
        else:
            _extend(world, order)


def _whole(hub: Hub) -> tuple[list[str], list[tuple[str, str]]]:
    """R-5.2: all of a hub's structure (what is kept without a ``hub_maintain`` order)."""
    return list(hub.nodes), list(hub.links)


def _kept(
    world: World, hub: Hub, order: Order | None
) -> tuple[list[str], list[tuple[str, str]]] | str:
    """R-5.2: the structure kept by a ``hub_maintain`` order (all of it without one)."""
    if order is None:
        return _whole(hub)
    nodes = order.get("keep_nodes", hub.nodes)
    missing = [hx for hx in nodes if hx not in hub.nodes]
    if missing:
        return f"keep_nodes: {', '.join(missing)} is not a node of hub {hub.id}"
    have = {link_key(a, b) for a, b in hub.links}
    wanted = order.get("keep_links", [list(link) for link in hub.links])
    keep_links = set()
    for a, b in wanted:
        if link_key(a, b) not in have:
            return f"keep_links: {a}-{b} is not a link of hub {hub.id}"
        keep_links.add(link_key(a, b))
    members = {hub.centre, *nodes}
    links = [link for link in hub.links if link_key(*link) in keep_links and set(link) <= members]
    # A link whose loss cuts a node off the centre takes that node with it.
    connected = reachable(hub.centre, links)
    nodes = [hx for hx in hub.nodes if hx in members and hx in connected]
    links = [link for link in links if link[0] in connected and link[1] in connected]
    return nodes, links


def dissolve(world: World, hub: Hub, why: str, rule: str) -> None:
    """R-5.2, R-5.2a: a hub that lapses, is closed or is destroyed is removed; its pool goes to
    its held systems. R-5.4a: shipments bound for it are not lost but wait for a later guild
    hub of their receiver that holds one of its members."""
    books = world.books
    systems = [
        s
        for hx in hub.members()
        if (s := world.system_at.get(hx)) is not None and s.holder == hub.power
    ]
    for res in ("ore", "bio", "pl"):
        total = hub.store[res]
        if not systems:
            books.change(hub.power, hub, res, -total, f"hub {hub.id} gone: no system", rule)
            continue
        # Equal split; the remainder goes to the first member held: the centre's system if any.
        share, rest = divmod(total, len(systems))
        for i, s in enumerate(systems):
            part = share + (rest if i == 0 else 0)
            books.move(hub.power, hub, s, res, part, f"hub {hub.id} gone", rule)
    for shipment in sorted(world.bound_for(hub), key=lambda s: s.id):
        world.strand(shipment, hub.members())
        books.event(
            "shipment.stranded",
            powers=(shipment.power, shipment.sender),
            shipment=shipment.id,
            members=hub.members(),
        )
    world.remove_hub(hub)
    books.event("hub.gone", powers=(hub.power,), hub=hub.id, why=why)


def maintain(world: World) -> None:
    """Support §4.1.2, R-5.2, R-5.9: hubs by id pay 2^r + nodes + links Gal."""
    books = world.books
    books.step = "support.4.1.2"
    by_hub: dict[str, Order] = {}
    for order in world.orders.get("hub_maintain", ()):
        if order["hub"] not in world.hubs:
            world.reject(order, f"hub {order['hub']} no longer exists")
        elif order["hub"] in world.new_hubs:
            world.reject(order, f"hub {order['hub']} was set up this round")
        elif order["hub"] in by_hub:
            world.reject(order, f"hub {order['hub']} already has a hub_maintain order")
        else:
            by_hub[order["hub"]] = order
    for hub in sorted(world.state.hubs, key=lambda h: h.id):
        maint = by_hub.get(hub.id)
        if maint is not None and maint.get("close"):
            # Support §4.1.1: shutting a hub down is the way to move its centre.
            dissolve(world, hub, f"closed by {hub.power}", "R-5.2a")
            continue
        kept = _kept(world, hub, maint)
        if isinstance(kept, str):
            world.reject(by_hub[hub.id], kept)
            maint = None
            kept = _whole(hub)
        nodes, links = kept
        radius = max((hex_distance(hub.centre, hx) for hx in nodes), default=0)
        cost = hub_maintenance(radius, len(nodes), len(links))
        bank = world.powers[hub.power]
        if bank.store["gal"] < cost:
            if maint is not None:
                world.reject(maint, f"bank has {bank.store['gal']} gal, maintenance needs {cost}")
            dissolve(world, hub, "maintenance unpaid", "R-5.2")
            continue
        books.change(hub.power, bank, "gal", -cost, f"maintenance of hub {hub.id}", "R-5.2")
        if len(nodes) != len(hub.nodes) or len(links) != len(hub.links):
            world.unpaid_structure.append((hub, nodes, links))


def drop_unpaid(world: World) -> None:
    """R-5.2: nodes and links not paid for go at the end of the Support Phase."""
    for hub, nodes, links in world.unpaid_structure:
        if hub.id not in world.hubs:
            continue
        dropped = set(hub.nodes) - set(nodes)
        world.drop_members(hub, dropped)
        hub.nodes, hub.links = nodes, links
        hub.lost = [hx for hx in hub.lost if hx not in dropped]  # R-4.6a: members only
        world.books.event(
            "hub.dropped",
            step="support.4.1.2",
            powers=(hub.power,),
            hub=hub.id,
            dropped=sorted(dropped),
            links=len(links),
        )
