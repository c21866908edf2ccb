"""The private Atom feed of a player's notices (issue 18): its address holds a secret token
that opens that player's own notices and nothing else; regenerating it revokes the old one."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.contrib.syndication.views import Feed
from django.http import Http404, HttpRequest
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed

from notices import selectors
from notices.models import Notice

FEED_SIZE = 50


class NoticeFeed(Feed[Notice, User]):
    feed_type = Atom1Feed
    title = "FTCamp: your notices"
    subtitle = "Rounds resolved, deadlines, agreements, UN motions and battle records."

    def get_object(self, request: HttpRequest, token: str) -> User:
        user = selectors.owner_of_feed(token)
        if user is None:
            raise Http404("No such feed.")
        return user

    def link(self) -> str:
        return reverse("my-campaigns")

    def items(self, obj: User) -> list[Notice]:
        return list(selectors.recent_notices(user=obj)[:FEED_SIZE])

    def item_title(self, item: Notice) -> str:
        return f"{item.campaign.name}: {item.title}"

    def item_description(self, item: Notice) -> str:
        return item.body

    def item_link(self, item: Notice) -> str:
        return item.link

    def item_guid(self, item: Notice) -> str:
        return f"ftcamp-notice-{item.pk}"

    def item_pubdate(self, item: Notice) -> datetime:
        return item.created_at
