"""The engine imports nothing from Django, DRF or Celery, even transitively (style.md, "the
boundary")."""

from __future__ import annotations

import pkgutil

import economy.engine
from tests.helpers import imported_frameworks

MODULES = sorted(f"economy.engine.{m.name}" for m in pkgutil.iter_modules(economy.engine.__path__))


def test_engine_modules_import_no_framework() -> None:
    assert imported_frameworks(["economy.engine", *MODULES]) == []


def test_every_module_is_checked() -> None:
    assert {"economy.engine.resolve", "economy.engine.loyalty", "economy.engine.case"} <= set(
        MODULES
    )
