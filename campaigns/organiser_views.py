"""The organiser's guide, and the page an invitation's link opens (issue 18). Thin: the
invitation service decides; the view only picks the form (a new account, or the one the
visitor is logged in with)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model, login
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from campaigns import invitations
from powers.models import Invitation


def guide(request: HttpRequest) -> HttpResponse:
    """How to set up and run a campaign, in the project's own words."""
    return render(request, "campaigns/guide.html", {"invite_days": settings.FTCAMP_INVITE_DAYS})


class SignUpForm(UserCreationForm[User]):
    class Meta:
        model = get_user_model()
        fields = ("username",)


def _joined(invitation: Invitation, user: User) -> HttpResponse:
    invitations.accept(token=invitation.token, user=user)
    return redirect("dashboard", campaign_id=invitation.campaign_id, power_key=invitation.power.key)


@require_http_methods(["GET", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    found = invitations.usable(token)
    if found is None:
        return render(request, "campaigns/invitation_gone.html", status=404)
    form: SignUpForm | None = None
    if not request.user.is_authenticated:
        form = SignUpForm(request.POST or None)
    if request.method == "POST":
        if request.user.is_authenticated:
            return _joined(found, request.user)
        assert form is not None  # made above for a visitor
        if form.is_valid():
            with transaction.atomic():
                user = form.save(commit=False)
                user.email = found.email
                user.save()
                response = _joined(found, user)
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return response
    return render(request, "campaigns/invitation.html", {"invitation": found, "form": form})
