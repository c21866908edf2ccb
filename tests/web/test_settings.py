"""Settings come from the environment with safe defaults; production settings pass Django's
deployment checks (reliability S9)."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from ftcamp.env import env_bool, env_int, env_list

ROOT = Path(__file__).resolve().parents[2]


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", str(ROOT))}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_settings_pass_check_deploy() -> None:
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS="ftcamp.example.org",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/ftcamp",
        REDIS_URL="redis://127.0.0.1:6379/0",
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_secret_key_without_debug_refuses_to_start() -> None:
    result = run_manage("check")
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_debug_defaults_to_sqlite_and_in_process_tasks() -> None:
    code = (
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER,"
        " s.SESSION_COOKIE_SECURE)"
    )
    result = run_manage("shell", "-c", code, DEBUG="1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1].split() == ["django.db.backends.sqlite3", "True", "False"]


def test_redis_url_switches_celery_to_the_broker() -> None:
    code = (
        "from django.conf import settings as s;"
        "print(s.CELERY_BROKER_URL, s.CELERY_TASK_ALWAYS_EAGER)"
    )
    result = run_manage("shell", "-c", code, DEBUG="1", REDIS_URL="redis://127.0.0.1:6379/3")
    assert result.stdout.splitlines()[-1].split() == ["redis://127.0.0.1:6379/3", "False"]


def test_env_helpers_are_strict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("X_BOOL", "maybe")
    with pytest.raises(ValueError, match="X_BOOL must be a boolean"):
        env_bool("X_BOOL")
    monkeypatch.setenv("X_INT", "ten")
    with pytest.raises(ValueError, match="X_INT must be an integer"):
        env_int("X_INT", 1)
    monkeypatch.setenv("X_LIST", "a, b,,c")
    assert env_list("X_LIST", []) == ["a", "b", "c"]
    monkeypatch.delenv("X_BOOL")
    assert env_bool("X_BOOL", default=True) is True
