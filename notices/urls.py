from django.urls import path

from notices import feeds, views

urlpatterns = [
    path("notices/settings/", views.notice_settings, name="notice-settings"),
    path("notices/feed/<str:token>/", feeds.NoticeFeed(), name="notice-feed"),
]
