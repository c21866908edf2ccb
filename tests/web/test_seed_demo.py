import pytest
from django.core.management import call_command
from django.http import HttpRequest
from django.test import Client

from campaigns.demo import DEMO_NAME, demo_password
from economy import selectors, services
from economy.models import Round
from powers.models import (
    Build,
    Campaign,
    Consumable,
    Craft,
    Design,
    DesignSystem,
    FleetGroup,
    Power,
    StarSystem,
    Static,
)
from trade.models import HubLink, HubNode, TradeHub

pytestmark = pytest.mark.django_db

COUNTED = (
    Power,
    StarSystem,
    TradeHub,
    HubNode,
    HubLink,
    FleetGroup,
    Static,
    Consumable,
    Design,
    DesignSystem,
    Craft,
)


def counts() -> dict[str, int]:
    return {m.__name__: m.objects.count() for m in COUNTED}


def test_seed_demo_is_complete_and_idempotent(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("seed_demo")
    first = counts()
    call_command("seed_demo")
    assert counts() == first
    assert Campaign.objects.filter(name=DEMO_NAME).count() == 1
    assert first["Power"] == 4 and first["StarSystem"] == 20
    assert first["TradeHub"] == 4 and first["FleetGroup"] >= 4 and first["Static"] >= 4
    out = capsys.readouterr().out
    for username in ("admin", "nac", "esu", "nsl", "fse"):
        assert f"{username:<8} {demo_password(username)}" in out


def test_demo_models_are_valid() -> None:
    call_command("seed_demo")
    for model in (*COUNTED, StarSystem):
        for obj in model.objects.all():
            obj.full_clean()


def test_demo_logins_work(client: Client) -> None:
    call_command("seed_demo")
    assert client.login(request=HttpRequest(), username="esu", password=demo_password("esu"))
    assert client.get("/campaigns/").status_code == 200


def test_each_power_can_start_a_build_in_round_one() -> None:
    """Issue 14: a shipyard, designs and a catalogue from the start; a frigate ordered at the
    yard in round 1 takes the yard's 40 Ore from the home hub's pool."""
    call_command("seed_demo")
    for power in Power.objects.all():
        assert Design.objects.filter(power=power).count() == 4
        yard = Craft.objects.get(power=power, static__isnull=False)
        assert yard.design.systems.filter(construction=40).exists()
        assert FleetGroup.objects.filter(power=power, craft__isnull=False).exists()
    nac = Power.objects.get(key="nac")
    order = {"type": "build", "id": "f9", "design": "nac-frigate", "builders": ["nac-y1"]}
    assert services.add_order(power=nac, payload=order, actor="nac").error == ""
    statement = selectors.projected_statement(nac)
    assert any(s.where == "build:nac-f9" and s.after == 40 for s in statement.stocks)
    for power in Power.objects.order_by("key"):
        services.submit_sheet(power=power, actor="t")
    assert services.resolve_round(round_id=Round.objects.get(number=1).pk)
    assert Build.objects.get(key="nac-f9").paid == 40
    # the home groups stay in supply on their homeworld's free EP
    assert not FleetGroup.objects.filter(key__in=["nac-1", "esu-1", "fse-1"], out_of_supply=True)
