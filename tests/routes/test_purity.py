"""The mapper imports nothing from Django, DRF or Celery, not even through another module
(style.md, "the boundary"; issue 12): every module is imported in a fresh interpreter and
``sys.modules`` is read afterwards, as tests/engine/test_purity.py does for the engine."""

from __future__ import annotations

import json
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import trade.routes

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("django", "rest_framework", "celery")
MODULES = sorted(
    f"trade.routes.{m.name}"
    for m in pkgutil.iter_modules(trade.routes.__path__)
    if m.name != "__main__"  # runs the command; its only import is cli, checked here
)


def imported_frameworks(modules: list[str]) -> list[str]:
    """The framework modules loaded after importing ``modules`` in a fresh interpreter."""
    code = (
        "import importlib, json, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})\n"
        "print(json.dumps(bad))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return list(json.loads(out.stdout))


def test_mapper_modules_import_no_framework_even_transitively() -> None:
    assert imported_frameworks(["trade.routes", *MODULES]) == []


def test_every_module_is_checked() -> None:
    assert {"trade.routes.mapper", "trade.routes.cli", "trade.routes.svg"} <= set(MODULES)


def test_the_check_sees_a_transitive_import() -> None:
    # The Django command is a shell around trade.routes.cli: importing it loads Django.
    assert "django" in imported_frameworks(["trade.management.commands.traderoutes"])
