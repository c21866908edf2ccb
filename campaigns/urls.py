from django.urls import path

from campaigns import views

urlpatterns = [
    path("", views.home, name="home"),
    path("campaigns/", views.my_campaigns, name="my-campaigns"),
    path("campaigns/<int:campaign_id>/", views.campaign, name="campaign"),
    path(
        "campaigns/<int:campaign_id>/powers/<str:power_key>/",
        views.dashboard,
        name="dashboard",
    ),
]
