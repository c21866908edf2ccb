"""Backup and restore (issue 32, item 8; reliability O3): the campaign database dumped with
``pg_dump -Fc`` and restored with ``pg_restore`` into a fresh database gives every campaign the
same export (``manage.py export_campaigns``: its state and every power's ledger), as
docs/operations.md says to check a restore."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from economy import services
from economy.models import LedgerLine, Round
from tests.helpers import postgresql_only
from tests.web.factories import make_campaign

pytestmark = [
    postgresql_only,
    pytest.mark.skipif(
        not (shutil.which("pg_dump") and shutil.which("pg_restore")),
        reason="pg_dump and pg_restore (the PostgreSQL client tools) are not installed",
    ),
    pytest.mark.django_db(transaction=True),
]

ROOT = Path(__file__).resolve().parents[2]


def _pg_args() -> list[str]:
    params = connection.get_connection_params()
    return [
        "--host",
        str(params.get("host") or "127.0.0.1"),
        "--port",
        str(params.get("port") or 5432),
        "--username",
        str(params.get("user") or "postgres"),
    ]


def _url(name: str) -> str:
    params = connection.get_connection_params()
    host, port = params.get("host") or "127.0.0.1", params.get("port") or 5432
    return f"postgres://{params.get('user') or 'postgres'}@{host}:{port}/{name}"


def _exports(database: str) -> dict[str, object]:
    env = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ.get("HOME", str(ROOT)),
        "SECRET_KEY": "restore-test",
        "DATABASE_URL": _url(database),
        "REDIS_URL": "",
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "export_campaigns"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    exports: dict[str, object] = json.loads(done.stdout)
    return exports


@pytest.fixture
def fresh_database() -> Iterator[str]:
    name = f"{connection.settings_dict['NAME']}_restored"[:63]
    admin = _url("postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    yield name
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_restored_dump_gives_every_campaign_the_same_export(
    fresh_database: str, tmp_path: Path
) -> None:
    played = make_campaign("Played", n_powers=3)
    make_campaign("Fresh", n_powers=2)
    services.add_order(
        power=played.powers[0], payload={"type": "gal_transfer", "to": "p1", "amount": 5}, actor="t"
    )
    for power in played.powers:
        services.submit_sheet(power=power, actor="t")
    rnd = Round.objects.get(campaign=played.campaign, number=1)
    services.resolve_round(round_id=rnd.pk)
    assert LedgerLine.objects.filter(campaign=played.campaign).exists()

    source = str(connection.settings_dict["NAME"])
    dump = tmp_path / "ftcamp.dump"
    subprocess.run(
        ["pg_dump", *_pg_args(), "--format=custom", "--file", str(dump), source],
        check=True,
        timeout=120,
    )
    restore = ["pg_restore", *_pg_args(), "--no-owner", "--exit-on-error", "--dbname"]
    subprocess.run(
        [*restore, fresh_database, str(dump)],
        check=True,
        timeout=120,
    )

    before, after = _exports(source), _exports(fresh_database)
    assert len(before) == 2
    assert before[str(played.campaign.pk)]["ledgers"]["p0"]  # type: ignore[index]
    assert after == before
