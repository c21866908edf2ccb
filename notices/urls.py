from django.urls import path

from notices import feeds, views

# who may see each route (tests/web/test_access.py): the feed is public to whoever holds its
# secret token, and an unknown token answers 404; whose turn it is over the API (routed in
# ftcamp/api_urls.py) is the user's own, in every campaign or in one the user plays
POLICY = {
    "notice-settings": "auth",
    "notice-feed": "public",
    "api-turn": "auth",
    "api-campaign-turn": "member",
}

urlpatterns = [
    path("notices/settings/", views.notice_settings, name="notice-settings"),
    path("notices/feed/<str:token>/", feeds.NoticeFeed(), name="notice-feed"),
]
