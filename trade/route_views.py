"""Trade-route pages: upload sector files, or map a campaign's systems; watch the job's
progress; see the map on the page, download it as SVG and the ``ftcamp-traderoutes/1`` JSON.

A job's page is reached by the hash of its input. An upload is private: only its owner sees
it (404 for anyone else, as powers/access.py answers). A campaign map is drawn from public
statistics: anyone may read a cached one, only a logged-in user may start one, at most
``routemaps.JOBS_PER_HOUR`` new jobs an hour.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from powers.models import Campaign
from trade import routemaps
from trade.models import RouteJob

SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'"


def _job(request: HttpRequest, digest: str) -> RouteJob:
    """The job, if this user may see it (a private upload: its owner only)."""
    job = RouteJob.objects.filter(input_hash=digest).first()
    if job is None or (job.private and job.owner_id != request.user.pk):
        raise Http404("No such trade-route map.")
    return job


def _context(job: RouteJob, **extra: Any) -> dict[str, Any]:
    """The map drawn inline (so the page can zoom it) once the job is done."""
    svg = job.result_svg.split("\n", 1)[1] if job.status == RouteJob.Status.DONE else ""
    return {"job": job, "svg": svg, **extra}


def _read(upload: UploadedFile) -> str:
    if (upload.size or 0) > routemaps.MAX_FILE_BYTES:
        raise ValidationError(f"{upload.name} is larger than 5 MB.")
    try:
        return upload.read().decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValidationError(f"{upload.name} is not UTF-8 text.") from None


def _problem(request: HttpRequest, message: str, status: int, **extra: Any) -> HttpResponse:
    return render(
        request, "trade/routes/problem.html", {"message": message, **extra}, status=status
    )


@login_required
@require_http_methods(["GET", "POST"])
def upload(request: HttpRequest) -> HttpResponse:
    """Drop sector files (Traveller Map .tab with optional .xml, or .sec); get a map."""
    errors: list[str] = []
    status = 400
    variants = request.POST.get("variants", "")
    if request.method == "POST":
        sectors = request.FILES.getlist("sectors")
        xmls = {f.name.rsplit(".", 1)[0]: f for f in request.FILES.getlist("metadata")}
        try:
            if not sectors:
                raise ValidationError("Choose at least one sector file.")
            uploads = []
            for f in sectors:
                xml = xmls.get(f.name.rsplit(".", 1)[0])
                uploads.append(routemaps.Upload(f.name, _read(f), _read(xml) if xml else None))
            job = routemaps.job_for_uploads(uploads, variants.split(), owner=request.user)
        except ValidationError as exc:
            errors = exc.messages
        except routemaps.RateLimited as exc:
            errors, status = [str(exc)], 429
        except ValueError as exc:
            errors = [f"Bad variant: {exc}."]
        else:
            return redirect("route-job", digest=job.input_hash)
    recent = RouteJob.objects.filter(owner=request.user, status=RouteJob.Status.DONE).only(
        "label", "input_hash", "finished_at"
    )[:10]
    return render(
        request,
        "trade/routes/upload.html",
        {"errors": errors, "variants": variants, "recent": recent},
        status=status if errors else 200,
    )


@require_GET
def campaign_routes(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The campaign's trade routes from its systems' public statistics."""
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None:
        raise Http404("No such campaign.")
    variants = request.GET.get("variants", "").split()
    try:
        job = routemaps.job_for_campaign(campaign, variants, user=request.user)
    except routemaps.RateLimited as exc:
        return _problem(request, str(exc), 429, campaign=campaign)
    except ValueError as exc:
        return _problem(request, f"Bad variant: {exc}.", 400, campaign=campaign)
    if job is None:
        return _problem(
            request,
            "No trade-route map has been drawn for these settings yet. Log in to draw one.",
            200,
            campaign=campaign,
            login=True,
        )
    return render(request, "trade/routes/job.html", _context(job, campaign=campaign))


@require_GET
def job(request: HttpRequest, digest: str) -> HttpResponse:
    return render(request, "trade/routes/job.html", _context(_job(request, digest)))


@require_GET
def job_status(request: HttpRequest, digest: str) -> HttpResponse:
    """The progress fragment htmx polls until the map is ready."""
    return render(request, "trade/routes/_status.html", _context(_job(request, digest)))


@require_GET
def job_svg(request: HttpRequest, digest: str) -> HttpResponse:
    """The map as a standalone SVG file (the page shows it inline)."""
    job = _job(request, digest)
    if job.status != RouteJob.Status.DONE:
        raise Http404("The map is not ready.")
    response = HttpResponse(job.result_svg, content_type="image/svg+xml")
    response["Content-Security-Policy"] = SVG_CSP
    if "download" in request.GET:
        response["Content-Disposition"] = 'attachment; filename="trade-routes.svg"'
    return response


@require_GET
def job_json(request: HttpRequest, digest: str) -> HttpResponse:
    job = _job(request, digest)
    if job.status != RouteJob.Status.DONE:
        raise Http404("The map is not ready.")
    response = HttpResponse(job.result_json, content_type="application/json")
    response["Content-Disposition"] = 'attachment; filename="trade-routes.json"'
    return response
