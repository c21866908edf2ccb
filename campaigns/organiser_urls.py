from django.urls import path

from campaigns import organiser_views

urlpatterns = [
    path("guide/", organiser_views.guide, name="guide"),
    path("invitations/<str:token>/", organiser_views.invitation, name="invitation"),
]
