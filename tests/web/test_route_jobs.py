"""Trade-route maps on the web (issue 5): uploads and campaign maps become jobs cached by their
input's hash; the task body maps them with progress; the SVG and JSON are served."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from powers.models import StarSystem
from tests.routes.helpers import BIG, HEADER, row
from tests.web.factories import make_campaign, make_user
from trade import routemaps
from trade.models import RouteJob

pytestmark = pytest.mark.django_db

# Three big worlds a jump apart and one out of reach: 0101-0102-0103 trade, 0110 does not.
SECTOR = "\n".join(
    [
        HEADER,
        row("0101", "Alpha", BIG),
        row("0102", "Beta", BIG),
        row("0103", "Gamma", BIG),
        row("0110", "<script>alert(1)</script>", BIG),
        row("0111", "Anomaly", "???????-?"),
    ]
)


@pytest.fixture
def player(client: Client) -> Client:
    client.force_login(make_user("mapper"))
    return client


def upload(client: Client, text: str = SECTOR, variants: str = "") -> object:
    return client.post(
        reverse("route-upload"),
        {"sectors": SimpleUploadedFile("test.tab", text.encode()), "variants": variants},
    )


def test_upload_creates_a_cached_job_that_the_task_maps(player: Client) -> None:
    response = upload(player)
    job = RouteJob.objects.get()
    assert response["Location"] == reverse("route-job", args=[job.input_hash])
    assert job.status == "queued"
    routemaps.run_job(job_id=job.pk)  # the Celery task's body
    job.refresh_from_db()
    assert job.status == "done" and job.progress == 100
    assert job.summary["worlds"] == 4
    assert job.summary["skipped_count"] == 1  # the anomaly row
    data = json.loads(job.result_json)
    assert data["format"] == "ftcamp-traderoutes/1"
    assert {(p["a"], p["b"]) for p in data["pairs"]} >= {("test 0101", "test 0102")}

    upload(player)  # the same input finds the same job: no second run
    assert RouteJob.objects.count() == 1

    page = player.get(reverse("route-job", args=[job.input_hash])).content.decode()
    assert "worlds" in page and reverse("route-svg", args=[job.input_hash]) in page
    svg = player.get(reverse("route-svg", args=[job.input_hash]))
    assert svg["Content-Type"] == "image/svg+xml"
    assert "default-src 'none'" in svg["Content-Security-Policy"]
    body = svg.content.decode()
    assert 'class="leg' in body or "class='leg" in body
    assert "<script>" not in body and "&lt;script&gt;" in body
    assert player.get(reverse("route-json", args=[job.input_hash])).status_code == 200


def test_progress_is_shown_until_the_map_is_ready(player: Client) -> None:
    upload(player)
    job = RouteJob.objects.get()
    fragment = player.get(reverse("route-status", args=[job.input_hash])).content.decode()
    assert "<progress" in fragment and 'hx-trigger="every 1s"' in fragment
    assert player.get(reverse("route-svg", args=[job.input_hash])).status_code == 404


def test_bad_variant_and_missing_files_are_form_errors(player: Client) -> None:
    response = upload(player, variants="btn_cap=bogus")
    assert response.status_code == 400
    assert "variants:" in response.content.decode()
    response = player.post(reverse("route-upload"), {})
    assert response.status_code == 400
    assert "sectors: choose at least one sector file." in response.content.decode()
    assert not RouteJob.objects.exists()


def test_upload_needs_a_login(client: Client) -> None:
    assert client.get(reverse("route-upload")).status_code == 302


def test_campaign_routes_from_its_systems(client: Client) -> None:
    world = make_campaign(n_powers=1, systems_per_power=3)
    StarSystem.objects.filter(campaign=world.campaign).update(
        starport="A",
        size=7,
        atmosphere=8,
        hydrographics=8,
        population=8,
        government=9,
        law=9,
        tech_level=12,
    )
    client.get(reverse("campaign-routes", args=[world.campaign.pk]))
    job = RouteJob.objects.get()
    routemaps.run_job(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == "done" and job.summary["worlds"] == 3
    client.get(reverse("campaign-routes", args=[world.campaign.pk]))
    assert RouteJob.objects.count() == 1  # unchanged statistics: the cached map
    StarSystem.objects.filter(campaign=world.campaign, key="s0-0").update(population=9)
    client.get(reverse("campaign-routes", args=[world.campaign.pk]))
    assert RouteJob.objects.count() == 2  # changed statistics: a new map
