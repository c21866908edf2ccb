"""Trade-route pages: upload sector files, or map a campaign's systems; watch the job's
progress; get the SVG map and the ``ftcamp-traderoutes/1`` JSON. A job's page is reached by
the hash of its input (unguessable, and the same input finds the cached result)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from powers.models import Campaign
from trade import routemaps
from trade.models import RouteJob
from trade.routes import SectorFormatError

SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'"


def _job(digest: str) -> RouteJob:
    job = RouteJob.objects.filter(input_hash=digest).first()
    if job is None:
        raise Http404("No such trade-route map.")
    return job


def _read(upload: object, field: str) -> str:
    size = getattr(upload, "size", 0)
    if size > routemaps.MAX_FILE_BYTES:
        raise ValidationError(f"{field}: {upload} is larger than 5 MB.")
    try:
        return upload.read().decode("utf-8-sig")  # type: ignore[attr-defined]
    except UnicodeDecodeError:
        raise ValidationError(f"{field}: {upload} is not UTF-8 text.") from None


@login_required
@require_http_methods(["GET", "POST"])
def upload(request: HttpRequest) -> HttpResponse:
    """Drop sector files (Traveller Map .tab with optional .xml, or .sec); get a map."""
    errors: list[str] = []
    variants = request.POST.get("variants", "")
    if request.method == "POST":
        sectors = request.FILES.getlist("sectors")
        xmls = {f.name.rsplit(".", 1)[0]: f for f in request.FILES.getlist("metadata")}
        try:
            if not sectors:
                raise ValidationError("sectors: choose at least one sector file.")
            uploads = []
            for f in sectors:
                stem = f.name.rsplit(".", 1)[0]
                xml = xmls.get(stem)
                uploads.append(
                    routemaps.Upload(
                        f.name, _read(f, "sectors"), _read(xml, "metadata") if xml else None
                    )
                )
            job = routemaps.job_for_uploads(uploads, variants.split())
        except ValidationError as exc:
            errors = exc.messages
        except (ValueError, SectorFormatError) as exc:
            errors = [f"variants: {exc}"]
        else:
            return redirect("route-job", digest=job.input_hash)
    recent = RouteJob.objects.filter(status=RouteJob.Status.DONE).only(
        "label", "input_hash", "finished_at"
    )[:10]
    return render(
        request,
        "trade/routes/upload.html",
        {"errors": errors, "variants": variants, "recent": recent},
        status=400 if errors else 200,
    )


@require_GET
def campaign_routes(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The campaign's trade routes from its systems' public statistics."""
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None:
        raise Http404("No such campaign.")
    job = routemaps.job_for_campaign(campaign, request.GET.get("variants", "").split())
    return render(request, "trade/routes/job.html", {"job": job, "campaign": campaign})


@require_GET
def job(request: HttpRequest, digest: str) -> HttpResponse:
    return render(request, "trade/routes/job.html", {"job": _job(digest)})


@require_GET
def job_status(request: HttpRequest, digest: str) -> HttpResponse:
    """The progress fragment htmx polls until the map is ready."""
    return render(request, "trade/routes/_status.html", {"job": _job(digest)})


@require_GET
def job_svg(request: HttpRequest, digest: str) -> HttpResponse:
    job = _job(digest)
    if job.status != RouteJob.Status.DONE:
        raise Http404("The map is not ready.")
    response = HttpResponse(job.result_svg, content_type="image/svg+xml")
    response["Content-Security-Policy"] = SVG_CSP
    return response


@require_GET
def job_json(request: HttpRequest, digest: str) -> HttpResponse:
    job = _job(digest)
    if job.status != RouteJob.Status.DONE:
        raise Http404("The map is not ready.")
    response = HttpResponse(job.result_json, content_type="application/json")
    response["Content-Disposition"] = 'attachment; filename="trade-routes.json"'
    return response
