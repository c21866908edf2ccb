"""The trade-route mapper imports nothing from Django, DRF or Celery, even transitively
(style.md, "the boundary"; issue 12): every module is imported in a fresh interpreter and
``sys.modules`` is read afterwards, as for the engine."""

from __future__ import annotations

import pkgutil

import trade.routes
from tests.helpers import imported_frameworks

MODULES = sorted(
    f"trade.routes.{m.name}"
    for m in pkgutil.iter_modules(trade.routes.__path__)
    if m.name != "__main__"  # runs the command; its only import is cli, checked here
)


def test_mapper_modules_import_no_framework_even_transitively() -> None:
    assert imported_frameworks(["trade.routes", *MODULES]) == []


def test_every_module_is_checked() -> None:
    assert {"trade.routes.mapper", "trade.routes.cli", "trade.routes.svg"} <= set(MODULES)


def test_the_check_sees_a_transitive_import() -> None:
    # The Django command is a shell around trade.routes.cli: importing it loads Django.
    assert "django" in imported_frameworks(["trade.management.commands.traderoutes"])
