"""Trade-route maps on the web (issue 5): uploads and campaign maps become jobs cached by their
input's hash; the task body maps them with progress; the map is shown on the page and the SVG
and JSON are served. Uploads are private (issue 11 item 9), variants are checked, anonymous
visitors only read cached maps and new jobs are rate-limited (issue 11 item 8)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from powers.models import StarSystem
from tests.routes.helpers import BIG, HEADER, row
from tests.web.factories import make_campaign, make_user
from trade import routemaps
from trade.models import RouteJob

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

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


def upload(client: Client, text: str = SECTOR, variants: str = "") -> TestResponse:
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
    # Issue 10 item 5: the map is drawn inline (an <object> of map.svg was refused by
    # X-Frame-Options: DENY), with its legend and an SVG download.
    assert (
        "<object" not in page and '<svg xmlns="http://www.w3.org/2000/svg" class="routemap"' in page
    )
    assert 'class="routemap-legend"' in page and "?download=1" in page
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)" in page
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
    assert "Bad variant: btn_cap must be one of" in response.content.decode()
    response = player.post(reverse("route-upload"), {})
    assert response.status_code == 400
    assert "Choose at least one sector file." in response.content.decode()
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
    client.force_login(make_user("viewer"))
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


def _other() -> Client:
    c = Client()
    c.force_login(make_user("someone-else"))
    return c


def test_uploads_are_private_to_their_owner(player: Client) -> None:
    """Issue 11 item 9: docs/decisions.md says uploads are private; the recent list and every
    URL of an upload answer its owner only (404 for anyone else, anonymous included)."""
    upload(player)
    job = RouteJob.objects.get()
    routemaps.run_job(job_id=job.pk)
    other, anonymous = _other(), Client()
    for name in ("route-job", "route-status", "route-svg", "route-json"):
        url = reverse(name, args=[job.input_hash])
        assert player.get(url).status_code == 200, name
        assert other.get(url).status_code == 404, name
        assert anonymous.get(url).status_code == 404, name
    assert job.label in player.get(reverse("route-upload")).content.decode()
    assert job.label not in other.get(reverse("route-upload")).content.decode()
    # The same file uploaded by someone else is their own job, not a look at the first one.
    upload(other)
    assert RouteJob.objects.count() == 2


def test_campaign_variants_are_checked_and_canonical(client: Client) -> None:
    """Issue 11 item 8: a bad variant is a 400 with a plain message (it was a 500); equal
    settings written differently find the same cached map; speed-only settings are refused."""
    world = make_campaign(n_powers=1, systems_per_power=2)
    client.force_login(make_user("viewer"))
    url = reverse("campaign-routes", args=[world.campaign.pk])
    bad = client.get(url, {"variants": "bogus"})
    assert bad.status_code == 400
    text = bad.content.decode()
    assert "Bad variant: unknown variant" in text and "Error" not in text.split("<main>")[-1]
    assert client.get(url, {"variants": "chunk=7"}).status_code == 400
    assert client.get(url, {"variants": "workers=2"}).status_code == 400  # a web job never forks
    assert not RouteJob.objects.exists()
    client.get(url)
    client.get(url, {"variants": "min_btn=6 btn_cap=2wtn+1"})  # the defaults, spelt out
    assert RouteJob.objects.count() == 1
    client.get(url, {"variants": "min_btn=7"})
    assert RouteJob.objects.count() == 2


def test_anonymous_visitors_only_read_cached_maps(client: Client) -> None:
    world = make_campaign(n_powers=1, systems_per_power=2)
    url = reverse("campaign-routes", args=[world.campaign.pk])
    response = client.get(url, {"variants": "min_btn=7"})
    assert response.status_code == 200 and "Log in to draw one" in response.content.decode()
    assert not RouteJob.objects.exists()  # no job, no task
    viewer = _other()
    viewer.get(url, {"variants": "min_btn=7"})
    job = RouteJob.objects.get()
    routemaps.run_job(job_id=job.pk)
    page = client.get(url, {"variants": "min_btn=7"}).content.decode()
    assert "worlds" in page and reverse("route-svg", args=[job.input_hash]) in page
    assert RouteJob.objects.count() == 1


def test_new_jobs_are_rate_limited_per_user(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(routemaps, "JOBS_PER_HOUR", 2)
    world = make_campaign(n_powers=1, systems_per_power=2)
    url = reverse("campaign-routes", args=[world.campaign.pk])
    client.force_login(make_user("eager"))
    for value in ("6.5", "7"):
        assert client.get(url, {"variants": f"min_btn={value}"}).status_code == 200
    limited = client.get(url, {"variants": "min_btn=7.5"})
    assert limited.status_code == 429 and "try again later" in limited.content.decode()
    assert client.get(url, {"variants": "min_btn=7"}).status_code == 200  # cached: free
    assert RouteJob.objects.count() == 2
    assert _other().get(url, {"variants": "min_btn=7.5"}).status_code == 200  # per user
    assert RouteJob.objects.count() == 3


def test_a_failed_map_says_why_without_exception_names(player: Client) -> None:
    """Issue 10 item 6: the page shows a plain sentence, never "SectorFormatError: ..."."""
    player.post(
        reverse("route-upload"),
        {"sectors": SimpleUploadedFile("notes.tab", b"hello\nworld\n")},
    )
    job = RouteJob.objects.get()
    routemaps.run_job(job_id=job.pk)
    job.refresh_from_db()
    assert job.status == "failed"
    fragment = player.get(reverse("route-status", args=[job.input_hash])).content.decode()
    assert "The sector files could not be read: notes.tab" in fragment
    assert "Error" not in fragment
