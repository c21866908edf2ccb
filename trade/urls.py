"""Routes of the market, agreements and UN committee pages. ``POLICY`` says who may see each
(see ``tests/web/test_access.py``): "public", "auth", "member" or "owner"."""

from django.urls import path

from trade import views

C = "campaigns/<int:campaign_id>/"
P = C + "powers/<str:power_key>/"

urlpatterns = [
    path(C + "market/", views.market, name="market"),
    path(P + "agreements/", views.agreements, name="agreements"),
    path(P + "agreements/propose/", views.agreement_propose, name="agreement-propose"),
    path(P + "agreements/act/", views.agreement_act, name="agreement-act"),
    path(P + "un/", views.un_committee, name="un-committee"),
    path(P + "un/motions/", views.motion_draft, name="motion-draft"),
    path(P + "un/motions/act/", views.motion_act, name="motion-act"),
    path(P + "un/vote/", views.un_vote, name="un-vote"),
]

POLICY = {
    "market": "public",
    "agreements": "owner",
    "agreement-propose": "owner",
    "agreement-act": "owner",
    "un-committee": "owner",
    "motion-draft": "owner",
    "motion-act": "owner",
    "un-vote": "owner",
    "api-market": "public",
    "api-agreements": "member",
    "api-agreement-respond": "member",
    "api-agreement-hubs": "member",
    "api-shipments": "member",
    "api-un": "member",
    "api-motions": "member",
    "api-motion-submit": "member",
    "api-vote": "member",
}
