from django.urls import path

from campaigns import organiser_views

# who may see each route (tests/web/test_access.py): an invitation's link is for anyone holding
# it; a used, expired or unknown one answers 404
POLICY = {"guide": "public", "invitation": "public"}

urlpatterns = [
    path("guide/", organiser_views.guide, name="guide"),
    path("invitations/<str:token>/", organiser_views.invitation, name="invitation"),
]
