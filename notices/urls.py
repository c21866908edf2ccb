from django.urls import path

from notices import feeds, views

# who may see each route (tests/web/test_access.py): the feed is public to whoever holds its
# secret token, and an unknown token answers 404
POLICY = {"notice-settings": "auth", "notice-feed": "public"}

urlpatterns = [
    path("notices/settings/", views.notice_settings, name="notice-settings"),
    path("notices/feed/<str:token>/", feeds.NoticeFeed(), name="notice-feed"),
]
