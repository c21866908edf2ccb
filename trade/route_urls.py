from django.urls import path

from trade import route_views as views

urlpatterns = [
    path("trade-routes/", views.upload, name="route-upload"),
    path("trade-routes/<str:digest>/", views.job, name="route-job"),
    path("trade-routes/<str:digest>/status/", views.job_status, name="route-status"),
    path("trade-routes/<str:digest>/map.svg", views.job_svg, name="route-svg"),
    path("trade-routes/<str:digest>/routes.json", views.job_json, name="route-json"),
    path(
        "campaigns/<int:campaign_id>/trade-routes/",
        views.campaign_routes,
        name="campaign-routes",
    ),
]

# Who may see each route (tests/web/test_access.py): a job is reached by its input's hash;
# an upload only by its owner (404 for anyone else), a campaign map by anyone.
POLICY = {
    "route-upload": "auth",
    "route-job": "public",
    "route-status": "public",
    "route-svg": "public",
    "route-json": "public",
    "campaign-routes": "public",
}
