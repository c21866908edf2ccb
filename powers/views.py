"""The user's own account pages: the API token."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods
from rest_framework.authtoken.models import Token


@login_required
@require_http_methods(["GET", "POST"])
def api_token(request: HttpRequest) -> HttpResponse:
    """The user's API token for bots and scripts; POST makes a new one (the old one stops)."""
    if request.method == "POST":
        Token.objects.filter(user=request.user).delete()
        Token.objects.create(user=request.user)
        return redirect("api-token")
    token = Token.objects.filter(user=request.user).first()
    return render(request, "powers/api_token.html", {"token": token})
