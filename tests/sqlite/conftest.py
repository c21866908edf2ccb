"""The SQLite lane of `make test`: `make run`'s own settings (DEBUG=1, a SQLite file, tasks run
in-process). ``demo`` starts the demo exactly as `make run` does (tests/sqlite/server.py); the
browser fixtures are the e2e tests' (tests/chromium.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

from tests.chromium import browser, page
from tests.sqlite.server import demo

__all__ = ["browser", "demo", "page"]

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # the hook sees the whole session's items: only this directory's are the lane's own
    mine = [item for item in items if HERE in item.path.parents]
    on_sqlite = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
    skip = pytest.mark.skip(reason="runs in the SQLite lane of make test (DATABASE_URL=sqlite:///)")
    for item in mine:
        item.add_marker(pytest.mark.sqlite)  # picked by `-m sqlite` as the lane's other tests
        if not on_sqlite:
            item.add_marker(skip)
