"""Environment defaults for test runs, loaded with ``pytest -p`` before Django reads its
settings: the same settings module as production, pointed at local PostgreSQL and Redis, over
plain http on loopback."""

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ftcamp")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("SECURE_COOKIES", "0")
os.environ.setdefault("STATIC_MANIFEST", "0")
os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
# A real broker, as in production; a queue of this run's own so no other worker takes its tasks.
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")
# Each pytest-xdist worker a queue of its own too: they inherit the controller's environment,
# and a worker process started by one of them must never take the other's tasks.
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ["CELERY_QUEUE"] = f"ftcamp-test-{os.getpid()}"
os.environ.setdefault("CELERY_QUEUE", f"ftcamp-test-{os.getpid()}")
# No worker runs in the suite except where a test starts one, so the pages' watchdog would call
# every late round "overdue" (economy/watchdog.py); its own tests set a threshold of their own.
os.environ.setdefault("FTCAMP_WATCHDOG_SECONDS", str(10 * 365 * 24 * 3600))
# Playwright's sync API runs an event loop in the test thread (stack.md).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
