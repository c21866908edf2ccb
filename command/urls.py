from django.urls import path

from command import views

P = "campaigns/<int:campaign_id>/powers/<str:power_key>/"

urlpatterns = [
    path(P + "command/", views.command, name="command"),
]
