"""The demo campaign: four powers, twenty systems, hubs, groups of craft, statics, and for each
power a shipyard, four designs and the consumables catalogue, so a new player can start a build
in round 1 (``seed_demo``)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction

from campaigns import services
from economy.snapshot import load_state, save_state
from powers.models import (
    Campaign,
    Consumable,
    Craft,
    Design,
    DesignSystem,
    FleetGroup,
    HexType,
    MapHex,
    Membership,
    Power,
    StarSystem,
    Static,
)
from powers.models.command import Officer
from trade.models import HubLink, HubNode, TradeHub

DEMO_NAME = "Demo: The Outer Reaches"

# key, name, colour, gal, login
POWERS = [
    ("nac", "New Anglian Confederation", "#1f5fbf", 120, "nac"),
    ("esu", "Eurasian Solar Union", "#c0392b", 100, "esu"),
    ("nsl", "Neue Swabian League", "#27865a", 110, "nsl"),
    ("fse", "Federal States of Europa", "#8e44ad", 90, "fse"),
]

# key, name, hex, holder, type, LR, (ore, gal, bio, pl), UWP
SYSTEMS = [
    ("avalon", "Avalon", "0203", "nac", "homeworld", 22, (60, 30, 20, 18), "A867977-C"),
    ("brigid", "Brigid", "0305", "nac", "primary", 14, (30, 12, 10, 16), "B555788-A"),
    ("cornwall", "Cornwall", "0102", "nac", "basic", 7, (20, 4, 8, 6), "C430556-9"),
    ("dunmore", "Dunmore", "0406", "nac", "standard", 12, (14, 8, 12, 15), "C766866-8"),
    ("kirov", "Kirov", "0803", "esu", "homeworld", 24, (70, 25, 18, 20), "A7A5A87-C"),
    ("lena", "Lena", "0702", "esu", "basic", 6, (25, 3, 6, 4), "D200432-8"),
    ("minsk", "Minsk", "0905", "esu", "standard", 11, (18, 9, 10, 15), "B674887-A"),
    ("novaya", "Novaya", "0604", "esu", "basic", 4, (12, 5, 5, 3), "E110320-7"),
    ("rhein", "Rheinland", "0808", "nsl", "homeworld", 25, (55, 35, 16, 17), "A786988-D"),
    ("saxe", "Saxe", "0709", "nsl", "primary", 16, (22, 14, 9, 15), "B565778-B"),
    ("tirol", "Tirol", "0907", "nsl", "basic", 8, (16, 6, 4, 5), "C9A6454-9"),
    ("ulm", "Ulm", "0610", "nsl", "basic", 3, (10, 2, 14, 2), "D574365-6"),
    ("verona", "Verona", "0208", "fse", "homeworld", 21, (50, 28, 25, 16), "A6689A9-C"),
    ("wessel", "Wessel", "0309", "fse", "standard", 10, (15, 10, 11, 15), "B778787-A"),
    ("ypres", "Ypres", "0107", "fse", "basic", 5, (8, 4, 16, 4), "C588422-8"),
    ("zadar", "Zadar", "0410", "fse", "basic", 9, (12, 6, 6, 7), "C545534-8"),
    ("eris", "Eris", "0505", None, "basic", 0, (30, 6, 4, 6), "C8B0500-9"),
    ("faro", "Faro", "0506", None, "basic", 0, (10, 5, 20, 8), "C867600-7"),
    ("gdansk", "Gdansk", "0606", None, "standard", 0, (20, 10, 10, 15), "B789855-9"),
    ("hyperion", "Hyperion", "0501", None, "basic", 0, (40, 2, 0, 3), "E000200-9"),
]

OTHER_HEXES = [
    ("0204", HexType.OUTER_SYSTEM),
    ("0804", HexType.OUTER_SYSTEM),
    ("0507", HexType.DUST_CLOUD),
    ("0508", HexType.DUST_CLOUD),
    ("0408", HexType.SPECIAL_INTEREST),
]

# key, power, centre, nodes, links, guild, pool (ore, bio, pl)
HUBS = [
    (
        "nac-core",
        "nac",
        "0203",
        ["0305", "0102"],
        [("0203", "0305"), ("0203", "0102")],
        True,
        (80, 30, 0),
    ),
    ("esu-core", "esu", "0803", ["0702"], [("0803", "0702")], True, (60, 20, 0)),
    (
        "nsl-core",
        "nsl",
        "0808",
        ["0709", "0907"],
        [("0808", "0709"), ("0808", "0907")],
        False,
        (50, 40, 0),
    ),
    ("fse-core", "fse", "0208", ["0309"], [("0208", "0309")], False, (40, 45, 0)),
]

# key, power, hex, kind, order, ep, troops, craft ({design: how many}); points, troop space and
# EP storage follow from the craft
GROUPS = [
    ("nac-1", "nac", "0203", "standard", "none", 6, 0, {"frigate": 3, "cruiser": 2}),
    ("nac-2", "nac", "0505", "standard", "maintain_orbit", 8, 50, {"frigate": 2, "freighter": 2}),
    ("esu-1", "esu", "0803", "standard", "none", 7, 0, {"frigate": 4, "cruiser": 2}),
    ("esu-2", "esu", "0606", "standard", "maintain_orbit", 8, 0, {"frigate": 2, "freighter": 1}),
    ("nsl-1", "nsl", "0808", "standard", "hold_build", 5, 0, {"frigate": 1, "cruiser": 2}),
    ("nsl-2", "nsl", "0507", "civilian", "hold_research", 8, 0, {"freighter": 2}),
    ("fse-1", "fse", "0208", "standard", "none", 6, 0, {"frigate": 3, "cruiser": 2}),
    ("fse-2", "fse", "0506", "reserve", "maintain_orbit", 6, 40, {"frigate": 1, "freighter": 1}),
]

# Support §5.1: an officer in each power's reserve: key, power, name, rank, grade (pay: rank
# Gal a round, R-5.9)
OFFICERS = [
    ("nac-adm", "nac", "Ada Brandt", 2, 3),
    ("esu-adm", "esu", "Ilya Sorokin", 2, 2),
    ("nsl-adm", "nsl", "Greta Falk", 1, 2),
    ("fse-adm", "fse", "Lucien Marais", 1, 3),
]

# R-10.1a: the campaign's consumables: kind, mass, Ore each
CATALOGUE = [("fighter", 1, 3), ("drone", 1, 2), ("missile", 2, 2)]
DESIGN_TP = 5  # TP to register a design

# Each power's designs, keyed <power>-<design>: name, class, mobility, mass, NPV, CF,
# loadout, systems (name, points per unit, count, capacities per unit)
SystemSpec = tuple[str, int, int, dict[str, int]]
DESIGNS: dict[str, tuple[str, str, str, int, int, int, dict[str, int], list[SystemSpec]]] = {
    "yard": (
        "Orbital Yard",
        "civilian",
        "static",
        400,
        120,
        6,
        {},
        [
            ("Construction yard", 60, 1, {"construction": 40, "workshop": 60}),
            ("EP store", 10, 1, {"ep_storage": 20}),
            ("Hull box", 1, 50, {}),
        ],
    ),
    "frigate": (
        "Frigate",
        "military",
        "mobile",
        30,
        60,
        3,
        {},
        [
            ("Class 1 beam", 3, 2, {}),
            ("Hull box", 1, 10, {}),
            ("EP store", 2, 1, {"ep_storage": 4}),
        ],
    ),
    "cruiser": (
        "Cruiser",
        "military",
        "mobile",
        90,
        180,
        9,
        {"fighter": 6},
        [
            ("Class 2 beam", 6, 3, {}),
            ("Fighter bay", 9, 1, {}),
            ("Hull box", 1, 30, {}),
            ("EP store", 4, 1, {"ep_storage": 10}),
        ],
    ),
    "freighter": (
        "Freighter",
        "civilian",
        "mobile",
        60,
        40,
        2,
        {},
        [
            ("Cargo hold", 2, 10, {"cargo": 10}),
            ("Troop deck", 5, 1, {"troop": 50}),
            ("EP store", 2, 1, {"ep_storage": 4}),
        ],
    ),
}

# key, power, hex, civilian, passenger_space, passengers, troop_space, troops
STATICS = [
    ("nac-st1", "nac", "0203", True, 100, 60, 0, 0),
    ("nac-st2", "nac", "0406", False, 0, 0, 50, 20),
    ("esu-st1", "esu", "0803", True, 100, 25, 0, 0),
    ("esu-st2", "esu", "0604", True, 0, 0, 0, 0),
    ("nsl-st1", "nsl", "0808", True, 50, 50, 0, 0),
    ("nsl-st2", "nsl", "0610", True, 0, 0, 0, 0),
    ("fse-st1", "fse", "0208", True, 75, 30, 0, 0),
    ("fse-st2", "fse", "0107", True, 0, 0, 0, 0),
    ("fse-st3", "fse", "0410", True, 0, 0, 0, 0),
]


def _xy(code: str) -> tuple[int, int]:
    return int(code[:2]), int(code[2:])


def _uwp(uwp: str) -> dict[str, object]:
    digits = [int(c, 36) for c in uwp[1:7]]
    keys = ("size", "atmosphere", "hydrographics", "population", "government", "law")
    return {
        "starport": uwp[0],
        **dict(zip(keys, digits, strict=True)),
        "tech_level": int(uwp[8], 36),
    }


@dataclass(frozen=True)
class Login:
    username: str
    password: str
    role: str


def demo_password(username: str) -> str:
    return f"{username}-demo-pass"


@transaction.atomic
def build_demo() -> tuple[Campaign, list[Login]]:
    """Create the demo campaign and its logins; running it again changes nothing."""
    users = get_user_model()
    logins = []
    admin, made = users.objects.get_or_create(
        username="admin", defaults={"is_staff": True, "is_superuser": True}
    )
    if made:
        admin.set_password(demo_password("admin"))
        admin.save()
    logins.append(Login("admin", demo_password("admin"), "campaign admin (/admin/)"))

    campaign, created = Campaign.objects.get_or_create(name=DEMO_NAME, defaults={"seed": 1105})
    if created:
        _populate(campaign)
    services.setup_campaign(campaign=campaign)

    for key, name, _colour, _gal, username in POWERS:
        user, made = users.objects.get_or_create(username=username)
        if made:
            user.set_password(demo_password(username))
            user.save()
        power = Power.objects.get(campaign=campaign, key=key)
        Membership.objects.get_or_create(campaign=campaign, user=user, defaults={"power": power})
        logins.append(Login(username, demo_password(username), f"plays {name}"))
    return campaign, logins


def _populate(campaign: Campaign) -> None:
    powers = {
        key: Power(campaign=campaign, key=key, name=name, colour=colour, gal=gal, tp=20)
        for key, name, colour, gal, _ in POWERS
    }
    Power.objects.bulk_create(powers.values())
    hexes: dict[str, MapHex] = {}
    for s in SYSTEMS:
        hexes[s[2]] = MapHex(campaign=campaign, col=_xy(s[2])[0], row=_xy(s[2])[1])
    for code, kind in OTHER_HEXES:
        hexes[code] = MapHex(campaign=campaign, col=_xy(code)[0], row=_xy(code)[1], hex_type=kind)
    MapHex.objects.bulk_create(hexes.values())
    StarSystem.objects.bulk_create(
        StarSystem(
            campaign=campaign,
            key=key,
            name=name,
            hex=hexes[code],
            holder=powers[holder] if holder else None,
            system_type=kind,
            loyalty=lr,
            rate_ore=ore,
            rate_gal=gal,
            rate_bio=bio,
            rate_pl=pl,
            stock_ore=0 if holder else 15,
            **_uwp(uwp),
        )
        for key, name, code, holder, kind, lr, (ore, gal, bio, pl), uwp in SYSTEMS
    )
    hubs = {
        key: TradeHub(
            campaign=campaign,
            key=key,
            power=powers[power],
            guild=guild,
            pool_ore=ore,
            pool_bio=bio,
            pool_pl=pl,
        )
        for key, power, _c, _n, _l, guild, (ore, bio, pl) in HUBS
    }
    TradeHub.objects.bulk_create(hubs.values())
    nodes: dict[str, HubNode] = {}
    for key, _p, centre, node_codes, _l, _g, _pool in HUBS:
        for code in [centre, *node_codes]:
            col, row = _xy(code)
            nodes[code] = HubNode(
                campaign=campaign, hub=hubs[key], col=col, row=row, is_centre=code == centre
            )
    HubNode.objects.bulk_create(nodes.values())
    HubLink.objects.bulk_create(
        HubLink(hub=hubs[key], a=nodes[a], b=nodes[b])
        for key, _p, _c, _n, links, _g, _pool in HUBS
        for a, b in links
    )
    groups = FleetGroup.objects.bulk_create(
        FleetGroup(
            campaign=campaign,
            key=key,
            power=powers[p],
            col=_xy(code)[0],
            row=_xy(code)[1],
            kind=kind,
            order=order,
            ep=ep,
            troops=troops,
        )
        for key, p, code, kind, order, ep, troops, _craft in GROUPS
    )
    Static.objects.bulk_create(
        Static(
            campaign=campaign,
            key=key,
            power=powers[p],
            col=_xy(code)[0],
            row=_xy(code)[1],
            civilian=civ,
            passenger_space=pspace,
            passengers=pax,
            troop_space=tspace,
            troops=troops,
        )
        for key, p, code, civ, pspace, pax, tspace, troops in STATICS
    )
    _populate_fleet(campaign, powers, groups)


def template_design(power: Power, key: str, template: str) -> Design:
    """``power``'s own completed (registered) copy of one of ``DESIGNS``, unsaved: the demo's
    fleets, and a starting shipyard for any campaign (campaigns.starting)."""
    name, cls, mobility, mass, npv, crew, loadout, _systems = DESIGNS[template]
    return Design(
        campaign_id=power.campaign_id,
        power=power,
        key=key,
        name=name,
        craft_class=cls,
        mobility=mobility,
        mass=mass,
        npv=npv,
        crew=crew,
        loadout=loadout,
        completed=True,
    )


def template_systems(design: Design, template: str) -> list[DesignSystem]:
    """The systems of ``DESIGNS[template]`` for a saved ``design``, unsaved: ``s1``, ``s2``…"""
    return [
        DesignSystem(
            design=design,
            position=i,
            key=f"s{i + 1}",
            name=name,
            points=points,
            count=count,
            **capacity,
        )
        for i, (name, points, count, capacity) in enumerate(DESIGNS[template][7])
    ]


def _populate_fleet(campaign: Campaign, powers: dict[str, Power], groups: list[FleetGroup]) -> None:
    """R-10: the catalogue, each power's designs, a shipyard static at its homeworld (a builder:
    construction 40 a round, workshop 60) and the craft of its groups; then the state is loaded
    and saved once, so groups' points, troop and EP figures follow from their craft (R-10.7)."""
    campaign.design_tp = DESIGN_TP
    campaign.save(update_fields=["design_tp"])
    Consumable.objects.bulk_create(
        Consumable(campaign=campaign, kind=kind, mass=mass, ore=ore)
        for kind, mass, ore in CATALOGUE
    )
    designs = {
        (p, d): template_design(power, f"{p}-{d}", d)
        for p, power in powers.items()
        for d in DESIGNS
    }
    Design.objects.bulk_create(designs.values())
    DesignSystem.objects.bulk_create(
        s for (_p, d), design in designs.items() for s in template_systems(design, d)
    )
    homes = {holder: code for _k, _n, code, holder, kind, *_ in SYSTEMS if kind == "homeworld"}
    yards = Static.objects.bulk_create(
        Static(
            campaign=campaign,
            key=f"{p}-shipyard",
            power=power,
            col=_xy(homes[p])[0],
            row=_xy(homes[p])[1],
            civilian=True,
            ep=10,
        )
        for p, power in powers.items()
    )
    craft = [
        Craft(
            campaign=campaign,
            key=f"{p}-y1",
            power=powers[p],
            design=designs[(p, "yard")],
            static=yard,
            crew=DESIGNS["yard"][5],
        )
        for p, yard in zip(powers, yards, strict=True)
    ]
    for group, (_key, p, *_rest, fleet) in zip(groups, GROUPS, strict=True):
        n = 0
        for d, count in fleet.items():
            for _ in range(count):
                n += 1
                loadout = DESIGNS[d][6]
                craft.append(
                    Craft(
                        campaign=campaign,
                        key=f"{group.key}-{n}",
                        power=powers[p],
                        design=designs[(p, d)],
                        group=group,
                        crew=DESIGNS[d][5],
                        consumables=dict(loadout),
                    )
                )
    Craft.objects.bulk_create(craft)
    Officer.objects.bulk_create(
        Officer(campaign=campaign, key=key, power=powers[p], name=name, rank=rank, grade=grade)
        for key, p, name, rank, grade in OFFICERS
    )
    StarSystem.objects.filter(campaign=campaign, system_type="homeworld").update(free_ep=10)
    save_state(campaign, load_state(campaign))
