"""The engine imports nothing from Django, DRF or Celery (style.md, "the boundary")."""

from __future__ import annotations

import json
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import economy.engine

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("django", "rest_framework", "celery")
MODULES = sorted(f"economy.engine.{m.name}" for m in pkgutil.iter_modules(economy.engine.__path__))


def test_engine_modules_import_no_framework() -> None:
    code = (
        "import importlib, json, sys\n"
        f"for name in {['economy.engine', *MODULES]!r}:\n"
        "    importlib.import_module(name)\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})\n"
        "print(json.dumps(bad))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == []


def test_every_module_is_checked() -> None:
    assert {"economy.engine.resolve", "economy.engine.loyalty", "economy.engine.case"} <= set(
        MODULES
    )
