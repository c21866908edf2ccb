"""Container healthchecks (docker-compose.yml): ``python -m ftcamp.healthcheck web|beat``.

``web``: gunicorn answers a page below 500 on its own port. ``beat``: the one beat process sent
the round sweep within ``FTCAMP_BEAT_STALE_SECONDS`` (django-celery-beat records when it sent
each schedule entry). The worker's check is Celery's own ``inspect ping``. Exit 0 when healthy.
"""

from __future__ import annotations

import http.client
import os
import sys
from datetime import timedelta


def web() -> bool:
    """The login page through gunicorn, as the proxy would ask for it."""
    host = (os.environ.get("ALLOWED_HOSTS") or "localhost").split(",")[0].strip()
    conn = http.client.HTTPConnection("127.0.0.1", 8000, timeout=8)
    try:
        headers = {"Host": host, "X-Forwarded-Proto": "https"}
        conn.request("GET", "/accounts/login/", headers=headers)
        return conn.getresponse().status < 500
    except OSError:
        return False
    finally:
        conn.close()


def beat() -> bool:
    """The round sweep's schedule entry was sent lately (or beat has only just started)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ftcamp.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.utils import timezone
    from django_celery_beat.models import PeriodicTask

    stale = timedelta(seconds=int(os.environ.get("FTCAMP_BEAT_STALE_SECONDS") or 600))
    task = PeriodicTask.objects.filter(name="sweep-rounds").first()
    if task is None or task.last_run_at is None:
        return task is not None or not settings.CELERY_BEAT_SCHEDULE
    return bool(task.last_run_at >= timezone.now() - stale)


def main(argv: list[str]) -> int:
    checks = {"web": web, "beat": beat}
    if len(argv) != 1 or argv[0] not in checks:
        print(f"usage: python -m ftcamp.healthcheck {'|'.join(checks)}", file=sys.stderr)
        return 2
    return 0 if checks[argv[0]]() else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
