import pytest
from django.core.management import call_command
from django.http import HttpRequest
from django.test import Client

from campaigns.demo import DEMO_NAME, demo_password
from powers.models import Campaign, FleetGroup, Power, StarSystem, Static
from trade.models import HubLink, HubNode, TradeHub

pytestmark = pytest.mark.django_db

COUNTED = (Power, StarSystem, TradeHub, HubNode, HubLink, FleetGroup, Static)


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
