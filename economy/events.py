"""Round events in words, with names: the one place ids become names for players (``Names``).
The engine gives ``kind`` + ``data`` and words each kind once (``economy.engine.events.WORDS``);
here the ids in the data become names by the role their key names (``ROLES``) before that
wording is filled. An event of a kind without words (an old round record) falls back to its
contract ``text``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from economy.engine.events import WORDS, fill
from powers.models import EngageStatus, StandingOrder

#: data key -> which names an id in it is looked up in.
ROLES: dict[str, str] = {
    "system": "systems",
    "power": "powers",
    "holder": "powers",
    "captor": "powers",
    "sender": "powers",
    "receiver": "powers",
    "owner": "powers",
    "borrower": "powers",
    "target": "powers",
    "acting": "powers",
    "hub": "hubs",
    "group": "groups",
    "carrier": "carriers",
    "craft": "craft",
    "builder": "craft",
    "from_craft": "craft",
    "build": "builds",
    "design": "designs",
    "source": "places",
    "dest": "places",
    "order": "orders",
    "status": "statuses",
    "resource": "resources",
    "bought": "resources",
    "shipment": "shipments",
    "agreement": "numbered",
    "motion": "numbered",
    "mission": "missions",
    "officer": "officers",
    "diplomat": "diplomats",
    "bubble": "bubbles",
    "mission_kind": "mission_kinds",
    "battle": "battles",
}

#: Standing orders and engage outcomes in words (issue 17: "Hold – Restock", never
#: ``hold_restock``); the model's labels are the admin's.
ORDERS = {value: label.replace("Hold-", "Hold – ") for value, label in StandingOrder.choices} | {
    "none": "no standing order"
}
STATUSES = dict(EngageStatus.choices) | {"none": "not engaged"}

#: Support §4.4.3-§4.4.10 in words
MISSION_WORDS = {
    "reveal_hub": "reveal a trade hub",
    "reveal_bubble": "reveal a command bubble",
    "reveal_loyalty": "reveal loyalty and projects",
    "bribe_guild": "bribe the guild",
    "negotiate_guild": "negotiate with the guild",
    "terror_cells": "terror cells",
    "summit": "summit",
    "turn_diplomat": "turn a diplomat",
}

#: Market edges in words (R-6.1): ``ore>bio`` reads "Ore → Bio".
RESOURCES = {"ore": "Ore", "bio": "Bio", "gal": "Gal", "pl": "PL", "tp": "TP", "lr": "LR"}
RESOURCES |= {"ep": "EP", "cf": "CF", "troops": "troops"}
EDGES = {
    f"{a}>{b}": f"{RESOURCES[a]} → {RESOURCES[b]}"
    for a, b in (("ore", "bio"), ("bio", "gal"), ("gal", "ore"))
}

_PLACE_KINDS = {
    "bank": "Bank",
    "hub": "hub",
    "system": "",
    "group": "",
    "static": "",
    "craft": "craft",
    "build": "work",
    "workshop": "workshop of",
    "shipment": "in transit: shipment",
}


def resource_word(resource: str) -> str:
    """``ore`` -> "Ore"; a consumable kind stays as it is."""
    return RESOURCES.get(resource, resource)


@dataclass
class Names:
    """Names for the ids a reader may meet in its events, orders, ledger and statements: systems
    with their hex, powers by name, hubs by the name their power gave them, and the ids a player
    typed without the ``<power>-`` prefix the shell stored them with (economy.entry)."""

    systems: dict[str, str] = field(default_factory=dict)
    powers: dict[str, str] = field(default_factory=dict)
    hubs: dict[str, str] = field(default_factory=dict)
    groups: dict[str, str] = field(default_factory=dict)
    statics: dict[str, str] = field(default_factory=dict)
    craft: dict[str, str] = field(default_factory=dict)
    designs: dict[str, str] = field(default_factory=dict)
    builds: dict[str, str] = field(default_factory=dict)
    officers: dict[str, str] = field(default_factory=dict)
    diplomats: dict[str, str] = field(default_factory=dict)
    bubbles: dict[str, str] = field(default_factory=dict)
    battles: dict[str, str] = field(default_factory=dict)
    #: the reader's power: another power's ids it has no name for read with that power's name
    viewer: str = ""

    @classmethod
    def of_state(
        cls,
        state: Mapping[str, Any],
        powers: Mapping[str, str],
        hub_names: Mapping[str, str] | None = None,
        viewer: str = "",
    ) -> Names:
        """From a contract state (systems' names and hexes), the powers' names and the hubs'
        names (kept by the shell, not in the state) of the ``viewer``'s power."""
        keys = set(powers) | {p["id"] for p in state.get("powers", [])}
        designs = {d["id"]: d.get("name") or own(d["id"], keys) for d in state.get("designs", [])}
        at = f" (round {state['round']})" if state.get("round") else ""

        def of(thing: Mapping[str, Any]) -> str:
            """Another power's thing names that power (issue 30: never "Group 2" for esu's)."""
            whose = thing.get("power")
            return (
                f" of {powers.get(whose, whose)}"
                if viewer and whose not in ("", None, viewer)
                else ""
            )

        return cls(
            systems={s["id"]: f"{s['name']} ({s['hex']})" for s in state.get("systems", [])},
            powers=dict(powers),
            hubs=hub_table(state, powers, hub_names or {}, viewer),
            groups={g["id"]: f"Group {own(g['id'], keys)}{of(g)}" for g in state.get("groups", [])},
            statics={
                s["id"]: f"Static {own(s['id'], keys)}{of(s)}" for s in state.get("statics", [])
            },
            craft={
                c["id"]: f"{own(c['id'], keys)} ({designs.get(c['design'], c['design'])}){of(c)}"
                for c in state.get("craft", [])
            },
            designs=designs,
            builds={b["id"]: own(b["id"], keys) for b in state.get("builds", [])},
            # Support §4.4, §5: characters by their names (their power's events only name them)
            officers={
                o["id"]: o.get("name") or own(o["id"], keys) for o in state.get("officers", [])
            },
            diplomats={
                d["id"]: d.get("name") or own(d["id"], keys) for d in state.get("diplomats", [])
            },
            bubbles={b["id"]: own(b["id"], keys) for b in state.get("bubbles", [])},
            battles={b["id"]: f"at {b['hex']}{at}" for b in state.get("battles", [])},
            viewer=viewer,
        )

    @cached_property
    def tables(self) -> dict[str, Mapping[str, str]]:
        hubs = {k: f"hub {v}" for k, v in self.hubs.items()}
        return {
            "systems": self.systems,
            "powers": self.powers,
            "hubs": self.hubs,
            "groups": self.groups,
            "statics": self.statics,
            "carriers": {**self.statics, **self.groups},
            "craft": self.craft,
            "designs": self.designs,
            "builds": self.builds,
            "officers": self.officers,
            "diplomats": self.diplomats,
            "bubbles": self.bubbles,
            "battles": self.battles,
            "places": {**self.systems, **hubs},
            "orders": ORDERS,
            "statuses": STATUSES,
            "mission_kinds": MISSION_WORDS,
            "resources": RESOURCES,
        }

    def name(self, table: str, value: Any) -> Any:
        """One id (or a list of them) looked up in one table; an unknown id stays as it is."""
        if isinstance(value, list):
            return [self.name(table, v) for v in value]
        if not isinstance(value, str):
            return value
        found = self.tables.get(table, {}).get(value)
        if found is not None:
            return found
        # an id the round made (not in its starting state) or one never named
        if table == "shipments":
            return shipment_name(value)
        if table == "numbered":
            return numbered(value)
        mine = self._own(value)
        made = {"hubs": self._hub(value), "groups": f"Group {mine}"}
        made |= {"statics": f"Static {mine}", "carriers": mine, "craft": mine, "builds": mine}
        made |= {"designs": mine, "missions": mine, "officers": mine, "diplomats": mine}
        made |= {"bubbles": mine}
        if mine != value:  # a power's key in front: a place so named is a hub, not a system
            made["places"] = f"hub {self._hub(value)}"
        return made.get(table, value)

    def render(self, key: str, value: Any) -> Any:
        if key in ("why", "reason", "effect") and isinstance(value, str):  # free words
            return self.words(value)
        role = ROLES.get(key)
        if role is None or value is None:
            return value
        return self.name(role, value)

    def place(self, where: str) -> str:
        """A ledger place (``hub:nac-core``, ``system:avalon``, ``bank``) in words."""
        kind, _, key = where.partition(":")
        table = {"system": "systems", "hub": "hubs", "group": "groups", "static": "statics"}
        table |= {"craft": "craft", "build": "builds", "workshop": "craft", "shipment": "shipments"}
        named = self.name(table.get(kind, ""), key) if key else ""
        if named == key:  # made this round: not in the round's starting state
            named = self._own(key)
        prefix = _PLACE_KINDS.get(kind, kind)
        return " ".join(p for p in (prefix, named) if p) or where

    def words(self, text: str) -> str:
        """Free text from the engine (a ledger line's reason, a rejection) with its ids as
        names: ledger places (``hub:nac-core``), every whole word that is a known id, and
        market edges (``ore>bio``)."""

        def swap(match: re.Match[str]) -> str:
            word = match.group(0)
            if ":" in word:
                return self.place(word)
            if word in EDGES:
                return EDGES[word]
            if _SHIPMENT.fullmatch(word):
                return f"shipment {shipment_name(word)}"
            for table in WORD_TABLES:
                found = self.tables[table].get(word)
                if found is not None:
                    said = match.string[max(0, match.start() - 4) : match.start()].lower()
                    return f"hub {found}" if table == "hubs" and said != "hub " else found
            return self._own(word)

        return _WORD.sub(swap, text)

    def _own(self, key: str) -> str:
        """An id no table names: as its power typed it, another power's with that power's name
        (esu's ``esu-2`` is not the reader's Group 2)."""
        return self._of_whom(key, own(key, set(self.powers)))

    def _hub(self, key: str) -> str:
        return self._of_whom(key, hub_name(key, "", self.powers))

    def _of_whom(self, key: str, name: str) -> str:
        """``name`` (made from ``key``) with its power's name when that is not the reader's
        (only when the reader is known)."""
        typed = own(key, set(self.powers))
        power = key[: -len(typed) - 1] if typed != key else ""
        theirs = power and self.viewer and power != self.viewer
        return of_power(name, power, self.powers) if theirs else name


#: The tables an id inside free text is looked up in, in this order.
WORD_TABLES: tuple[str, ...] = ("systems", "powers", "hubs", "groups", "statics", "craft")
WORD_TABLES += ("builds", "officers", "diplomats", "bubbles", "battles")

_WORD = re.compile(
    r"\b(?:system|hub|group|static|craft|build|workshop|shipment):[\w-]+"  # a ledger place
    r"|[a-z]+>[a-z]+|[A-Za-z0-9][\w-]*"
)


def own(key: str, powers: Iterable[str]) -> str:
    """An id as its power typed it: ``nac-f9`` reads ``f9`` (the shell stores typed ids with
    their power's key in front, economy.entry)."""
    for power in powers:
        if key.startswith(f"{power}-") and len(key) > len(power) + 1:
            return key[len(power) + 1 :]
    return key


_SHIPMENT = re.compile(r"r([0-9]+)-.+-([0-9]+)")


def shipment_name(key: str) -> str:
    """A shipment by what a reader can place: ``r3-nac-1`` reads "1 of round 3" (contracts §1
    gives it its round, sender and number)."""
    match = _SHIPMENT.fullmatch(key)
    return f"{match[2]} of round {match[1]}" if match else key


def hub_table(
    state: Mapping[str, Any], powers: Mapping[str, str], given: Mapping[str, str], viewer: str
) -> dict[str, str]:
    """Every hub of a contract state by name: the ``viewer``'s own by the names ``given``
    (else its typed id made a word), another power's with that power's name. Every power's
    first hub is "core": esu's read as a bare "Core" was nac's own to nac (issue 30)."""
    keys = set(powers) | {p["id"] for p in state.get("powers", [])}
    theirs = {
        h["id"]: of_power(hub_name(h["id"], "", keys), h.get("power", ""), powers)
        if viewer and h.get("power", viewer) != viewer
        else hub_name(h["id"], "", keys)
        for h in state.get("hubs", [])
    }
    return theirs | {k: hub_name(k, n, keys) for k, n in given.items()}


def of_power(name: str, power: str, powers: Mapping[str, str]) -> str:
    """A name of another power's thing with its power's name: "Core of Eurasian Solar
    Union"; without a power, the name alone."""
    return f"{name} of {powers.get(power, power)}" if power else name


def numbered(key: str) -> str:
    """A generated key (``agreement.7``, ``motion.3``) by its number: "7"."""
    return key.rpartition(".")[2] or key


def hub_name(key: str, name: str, powers: Iterable[str]) -> str:
    """A hub by the name its power gave it, else its id made a name: ``nac-core`` -> "Core"."""
    return name or own(key, powers).replace("-", " ").capitalize()


# where the players' names say more than the ids the engine's words were written for: a
# battle record's name is its hex and round ("at 0505 (round 3)"), so its hex is not said again
PLAYER_WORDS = {**WORDS, "battle.not_applied": "Battle record {battle} was not applied: {why}"}


def describe(event: Mapping[str, Any], names: Names) -> str:
    """An event in words (``text`` for a record written before events had a kind)."""
    kind = event.get("kind")
    if kind not in PLAYER_WORDS:
        return str(event.get("text", ""))
    data = {k: names.render(k, v) for k, v in event.get("data", {}).items()}
    return fill(PLAYER_WORDS[kind], data)


def in_words(events: Iterable[Mapping[str, Any]], names: Names) -> list[dict[str, Any]]:
    """Each event with its ``words`` added."""
    return [{**e, "words": describe(e, names)} for e in events]
