"""API routes for agreements, shipments, the market and the UN committee (R-5.5, R-6.3,
R-6.4); included by ``ftcamp/api_urls.py`` under ``api/``."""

from django.urls import path

from trade import api

C = "campaigns/<int:campaign_id>/"

urlpatterns = [
    path(C + "market/", api.Market.as_view(), name="api-market"),
    path(C + "agreements/", api.Agreements.as_view(), name="api-agreements"),
    path(C + "agreements/respond/", api.RespondAgreement.as_view(), name="api-agreement-respond"),
    path(C + "agreements/hubs/", api.AgreementHubs.as_view(), name="api-agreement-hubs"),
    path(C + "shipments/", api.MyShipments.as_view(), name="api-shipments"),
    path(C + "un/", api.Committee.as_view(), name="api-un"),
    path(C + "un/motions/", api.Motions.as_view(), name="api-motions"),
    path(C + "un/motions/submit/", api.SubmitMotion.as_view(), name="api-motion-submit"),
    path(C + "un/votes/", api.CastVote.as_view(), name="api-vote"),
]
