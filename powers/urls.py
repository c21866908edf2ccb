from django.urls import path

from powers import views

urlpatterns = [
    path("", views.home, name="home"),
    path("campaigns/", views.my_campaigns, name="my-campaigns"),
    path("account/api-token/", views.api_token, name="api-token"),
    path("campaigns/<int:campaign_id>/", views.campaign, name="campaign"),
    path(
        "campaigns/<int:campaign_id>/powers/<str:power_key>/",
        views.dashboard,
        name="dashboard",
    ),
]
