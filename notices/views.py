"""A player's notice settings and private feed. Thin: login, form, service, template."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from notices import selectors, services
from notices.forms import NoticeSettingsForm
from powers.access import AuthenticatedHttpRequest


@login_required
@require_http_methods(["GET", "POST"])
def notice_settings(request: AuthenticatedHttpRequest) -> HttpResponse:
    row = services.settings_of(request.user)
    form = NoticeSettingsForm(instance=row)
    if request.method == "POST":
        if request.POST.get("action") == "new-feed":
            services.new_feed_address(request.user)
            messages.success(request, "Your feed has a new address; the old one no longer works.")
            return redirect("notice-settings")
        form = NoticeSettingsForm(request.POST, instance=row)
        if form.is_valid():
            form.save()
            messages.success(request, "Your notice settings are saved.")
            return redirect("notice-settings")
    notices = selectors.recent_notices(user=request.user)[: selectors.RECENT]
    return render(
        request,
        "notices/settings.html",
        {
            "form": form,
            "feed_url": request.build_absolute_uri(reverse("notice-feed", args=[row.feed_token])),
            "email": request.user.email,
            "notices": notices,
            "on_settings": True,
        },
    )
