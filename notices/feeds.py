"""The private Atom feed of a player's notices (issue 18) and of what waits on the player
(issue 29): its address holds a secret token that opens that player's own notices and turn
and nothing else; regenerating it revokes the old one. The turn's items come first, from the
reader the pages and the API use (``notices.selectors.turns``), each an entry until it is
done."""

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

Entry = Notice | selectors.Item


class NoticeFeed(Feed[Entry, User]):
    feed_type = Atom1Feed
    title = "FTCamp: your notices"
    subtitle = (
        "What waits on you (orders, battle records, UN votes, offers, invitations), then rounds "
        "resolved, deadlines, agreements, UN motions and battle records."
    )

    def get_object(self, request: HttpRequest, token: str) -> User:
        user = selectors.owner_of_feed(token)
        if user is None:
            raise Http404("No such feed.")
        return user

    def link(self) -> str:
        return reverse("my-campaigns")

    def items(self, obj: User) -> list[Entry]:
        waiting: list[Entry] = list(selectors.turns(user=obj).items)
        return [*waiting, *selectors.recent_notices(user=obj)[:FEED_SIZE]]

    def item_title(self, item: Entry) -> str:
        if isinstance(item, selectors.Item):
            return f"{item.campaign}: your turn — {item.text}"
        return f"{item.campaign.name}: {item.title}"

    def item_description(self, item: Entry) -> str:
        if isinstance(item, selectors.Item):
            return f"{item.text}. This waits for you in {item.campaign}."
        return item.body

    def item_link(self, item: Entry) -> str:
        return item.url if isinstance(item, selectors.Item) else item.link

    def item_guid(self, item: Entry) -> str:
        if isinstance(item, selectors.Item):
            return f"ftcamp-turn-{item.ident}"
        return f"ftcamp-notice-{item.pk}"

    def item_pubdate(self, item: Entry) -> datetime | None:
        if isinstance(item, selectors.Item):
            return item.since
        return item.created_at

    def item_updateddate(self, item: Entry) -> datetime | None:
        """Atom's required ``updated``: when the item or notice came."""
        return self.item_pubdate(item)
