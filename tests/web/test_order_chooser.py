"""The order chooser (issue 30): the order types grouped by phase in the rules' order, the
select offering only what the power can use now, the others listed apart with the reason, a
search box the script shows (the whole select without it), and no key where a player reads."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field, replace
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from economy import selectors, services
from economy.chooser import PHASES, choose, covers, grouped, phase_of
from economy.engine.orders import SPECS
from economy.engine.resolve import STEPS
from powers.models import Craft
from tests.web.factories import World

STEP_INDEX = {name: i for i, (name, _) in enumerate(STEPS)}


# --- the grouping, without a database ------------------------------------------------------


def test_every_order_type_is_in_exactly_one_phase() -> None:
    for spec in SPECS.values():
        holding = [t for t, sections in PHASES if any(covers(s, spec.step) for s in sections)]
        assert len(holding) == 1, (spec.type, spec.step, holding)
    listed = [s.type for _, specs in grouped() for s in specs]
    assert sorted(listed) == sorted(SPECS)


def test_the_phases_and_their_types_follow_the_rounds_order() -> None:
    """Read top to bottom, the chooser is the round: each type's step comes no earlier than
    the one before it (R-2, R-2c), so each group starts where the last one ended."""
    steps = [STEP_INDEX[s.step] for _, specs in grouped() for s in specs]
    assert steps == sorted(steps)
    firsts = [STEP_INDEX[specs[0].step] for _, specs in grouped() if specs]
    assert firsts == sorted(firsts)
    assert [t for t, _ in grouped()] == [t for t, _ in PHASES]


def test_each_phase_covers_a_step_of_the_round() -> None:
    """No group is a dead name: every section it lists is (part of) an engine step."""
    for title, sections in PHASES:
        for section in sections:
            assert any(covers(section, name) for name in STEP_INDEX), (title, section)


def test_a_section_covers_its_parts_only() -> None:
    assert covers("support.4.1", "support.4.1.2")
    assert covers("support.1", "support.1 aboard")
    assert not covers("support.4.1", "support.4 primaries")
    assert not covers("support.1", "support.1x")
    assert phase_of("support.4 primaries") == "Support Phase: Primary systems"


def test_a_type_of_a_step_no_phase_covers_is_refused_loudly() -> None:
    """A new engine step must be placed in a group, not silently dropped from the chooser."""
    with pytest.raises(LookupError, match=r"round\.start"):
        phase_of("round.start")
    odd = replace(SPECS["build"], step="round.start")
    with pytest.raises(LookupError):
        grouped([odd])


def test_the_unusable_go_apart_except_the_one_being_edited() -> None:
    why = {"build": "you have no builders", "make": "you have no builders"}
    c = choose(why)
    offered = [ch.spec.type for g in c.groups for ch in g.choices]
    assert "build" not in offered and "make" not in offered
    assert [(ch.spec.type, ch.why) for ch in c.unavailable] == [
        ("build", "you have no builders"),
        ("make", "you have no builders"),
    ]
    assert len(offered) + len(c.unavailable) == len(SPECS)
    edited = choose(why, current="build")
    kept = [ch for g in edited.groups for ch in g.choices if ch.spec.type == "build"]
    assert [ch.why for ch in kept] == ["you have no builders"]
    assert [ch.spec.type for ch in edited.unavailable] == ["make"]


def test_a_phase_with_nothing_to_offer_is_left_out() -> None:
    c = choose({"declare_group": "you have no fleet groups"})
    assert "Fleet Orders" not in [g.title for g in c.groups]
    assert [ch.group for ch in c.unavailable] == ["Fleet Orders"]


# --- the page ------------------------------------------------------------------------------


@dataclass
class Chooser:
    """The chooser as a page shows it: the select's groups with their options, the list apart."""

    groups: list[tuple[str, list[tuple[str, str]]]] = field(default_factory=list)
    loose: list[str] = field(default_factory=list)  # options outside any group
    selected: str = ""
    apart: list[str] = field(default_factory=list)
    summary: str = ""
    find_hidden: bool | None = None


class _Read(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.c = Chooser()
        self.where = ""  # "select", "option", "li", "summary"
        self.in_select = self.in_apart = False
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "div" and a.get("id") == "order-find-box":
            self.c.find_hidden = "hidden" in a
        elif tag == "select" and a.get("id") == "id_type":
            self.in_select = True
        elif tag == "optgroup" and self.in_select:
            self.c.groups.append((a.get("label") or "", []))
        elif tag == "option" and self.in_select:
            self.value, self.text, self.where = a.get("value") or "", "", "option"
            if "selected" in a:
                self.c.selected = self.value
            assert "disabled" not in a, "an unusable type among the options"
        elif tag == "details" and a.get("id") == "order-unavailable":
            self.in_apart = True
        elif tag in ("li", "summary") and self.in_apart:
            self.text, self.where = "", tag

    def handle_data(self, data: str) -> None:
        if self.where:
            self.text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.in_select = False
        elif tag == "details":
            self.in_apart = False
        elif tag == self.where:
            text = " ".join(self.text.split())
            if tag == "option" and self.value:
                target = self.c.groups[-1][1] if self.c.groups else None
                if target is None:
                    self.c.loose.append(self.value)
                else:
                    target.append((self.value, text))
            elif tag == "li":
                self.c.apart.append(text)
            elif tag == "summary":
                self.c.summary = text
            self.where = ""


def chooser_of(body: str) -> Chooser:
    reader = _Read()
    reader.feed(body)
    return reader.c


def the_chooser(body: str) -> str:
    """The chooser's part of the page: from the search box to the links after the list."""
    found = re.search(r'(?s)<div class="chooser-find".*?<p class="sub chooser-more">.*?</p>', body)
    assert found is not None, "no chooser on the page"
    return found.group(0)


def sheet(client: Client, world: World) -> str:
    client.force_login(world.users[0])
    response = client.get(reverse("orders", args=[world.campaign.pk, "p0"]))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
def test_the_select_offers_the_usable_types_by_phase(client: Client, world: World) -> None:
    body = sheet(client, world)
    why = selectors.unavailable(world.powers[0])
    c = chooser_of(body)
    assert not c.loose, "a type outside the phase groups"
    expected = [
        (title, [(s.type, s.label) for s in specs if s.type not in why])
        for title, specs in grouped()
    ]
    assert c.groups == [(t, opts) for t, opts in expected if opts]
    assert c.find_hidden is True  # shown by the script: without it, the select is the chooser


@pytest.mark.django_db
def test_the_unusable_are_listed_apart_with_the_reason(client: Client, world: World) -> None:
    Craft.objects.filter(power=world.powers[0]).delete()
    body = sheet(client, world)
    why = selectors.unavailable(world.powers[0])
    assert "build" in why  # the rule under test has something to show
    c = chooser_of(body)
    offered = {v for _, options in c.groups for v, _ in options}
    assert offered.isdisjoint(why)
    assert c.summary == f"Not available now ({len(why)})"
    in_order = [s for _, specs in grouped() for s in specs if s.type in why]
    assert c.apart == [f"{s.label} — {why[s.type]}" for s in in_order]
    assert "Build a craft — you have no builders" in c.apart
    assert len(offered) + len(c.apart) == len(SPECS)


@pytest.mark.django_db
def test_an_order_being_edited_keeps_its_type_though_unusable_now(
    client: Client, world: World
) -> None:
    power = world.powers[0]
    services.add_order(power=power, payload={"type": "build"}, actor="t")  # saved with errors
    Craft.objects.filter(power=power).delete()
    client.force_login(world.users[0])
    body = client.get(reverse("order-edit", args=[world.campaign.pk, "p0", 0])).content.decode()
    c = chooser_of(body)
    assert c.selected == "build"
    options = dict(o for _, opts in c.groups for o in opts)
    assert options["build"] == "Build a craft — not now: you have no builders"
    assert not any(a.startswith("Build a craft") for a in c.apart)


@pytest.mark.django_db
def test_the_chooser_names_no_key(client: Client, world: World) -> None:
    """What a player reads of the chooser (options, groups, the list apart, the search box's
    words) has no order type's key and no step's name; keys stay in option values."""
    Craft.objects.filter(power=world.powers[0]).delete()
    part = the_chooser(sheet(client, world))
    values = set(re.findall(r'<option value="([^"]*)"', part))
    assert values and values <= {"", *SPECS}
    read = re.sub(r'\s(?:value|id|for|name|class|aria-[a-z]+|hx-[a-z]+)="[^"]*"', " ", part)
    read = html.unescape(read.replace("<", " <"))
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", read)  # "market_sell", "hub_setup", ...
    assert not re.search(r"\b(?:resource|support|fleet)\.\d", read)
    assert "optgroup" in part and "data-words" in part  # the words a search matches are there
