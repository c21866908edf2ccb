"""Told by Celery after commit (issue 18): a real worker on real Redis resolves the round the
last submission enqueues, then — after the resolution commits — delivers the notices: one per
player, each emailed once (the worker's console backend)."""

from __future__ import annotations

import pytest

from economy import services
from notices.models import EmailState, Kind, Notice
from tests.helpers import StartWorker, wait_for
from tests.web.factories import make_campaign

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_worker_tells_every_player_once(worker: StartWorker) -> None:
    proc = worker()
    world = make_campaign("By the worker", n_powers=3)
    for i, user in enumerate(world.users):
        user.email = f"w{i}@example.org"
        user.save()
    for power in world.powers:
        services.submit_sheet(power=power, actor="t")

    def sent() -> bool:
        return Notice.objects.filter(email=EmailState.SENT).count() == 3

    wait_for(sent, 30, "the worker to email the round's notices")
    rows = Notice.objects.order_by("user__username")
    assert [(n.user.email, n.kind, n.link) for n in rows] == [
        (
            f"w{i}@example.org",
            Kind.ROUND_RESOLVED,
            f"/campaigns/{world.campaign.pk}/powers/p{i}/rounds/1/",
        )
        for i in range(3)
    ]
    assert all(n.emailed_at for n in rows)
    assert proc.poll() is None
