"""Recovery after a worker is killed mid-resolution: ``.venv/bin/python bench/recovery.py [N]``.

Runs the production shape on loopback — a real ``celery worker`` (prefork) and one ``celery
beat`` with the production schedule (the sweep every ``FTCAMP_SWEEP_SECONDS``, 10 s), on
Redis and PostgreSQL — and, N times each (default 3):

- **pool process**: the worker's pool process is SIGKILLed in the middle of a resolution's
  writes (after the state, the ledger lines and the round record, before commit; the pause
  comes from ``tests/worker_hooks.py``), and the worker carries on;
- **main process**: the worker's main process is SIGKILLed there (its pool process goes with
  it) and a new worker is started at once, as a supervisor would.

Prints the seconds from the kill to the round being resolved (issue 11: at most 30 s), and
checks it was resolved exactly once. Uses the database ``ftcamp_bench_recovery`` (created and
dropped here) and a queue of its own on Redis database 15; refuses any host but loopback.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ftcamp.settings")
os.environ.setdefault("SECRET_KEY", "bench-only")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ftcamp_bench_recovery")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")
os.environ.setdefault("CELERY_QUEUE", f"ftcamp-bench-recovery-{os.getpid()}")

LOOPBACK = {"127.0.0.1", "localhost", "::1"}
HARD_STOP = 90  # seconds any one scenario may take before the bench gives up
for variable in ("DATABASE_URL", "REDIS_URL"):
    host = urlparse(os.environ[variable]).hostname
    if host not in LOOPBACK:
        sys.exit(f"{variable} must point at loopback, not {host!r}")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connections  # noqa: E402

from economy import services  # noqa: E402
from economy.models import AuditEvent, LedgerLine, Round, RoundRecord  # noqa: E402
from tests.web.factories import make_campaign  # noqa: E402


def setup_database() -> None:
    name = connections["default"].settings_dict["NAME"]
    with connections["default"]._nodb_cursor() as cur:
        cur.execute(f'DROP DATABASE IF EXISTS "{name}"')
        cur.execute(f'CREATE DATABASE "{name}"')
    call_command("migrate", verbosity=0)


def drop_database() -> None:
    name = connections["default"].settings_dict["NAME"]
    connections.close_all()
    with connections["default"]._nodb_cursor() as cur:
        cur.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def pool_of(pid: int) -> list[int]:
    kids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            kids.append(int(stat.parent.name))
    return kids


def wait(check, seconds: float, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise SystemExit(f"gave up waiting for {what}")
        time.sleep(0.05)


class Processes:
    def __init__(self, logs: Path) -> None:
        self.logs = logs
        self.procs: list[subprocess.Popen[bytes]] = []

    def start(self, *args: str, **env: str) -> subprocess.Popen[bytes]:
        log = (self.logs / f"{len(self.procs)}-{args[0]}.log").open("wb")
        proc = subprocess.Popen(
            [sys.executable, "-m", "celery", *args],
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        self.procs.append(proc)
        return proc

    def worker(self, app: str = "ftcamp", **env: str) -> subprocess.Popen[bytes]:
        queue = os.environ["CELERY_QUEUE"]
        proc = self.start(
            "-A", app, "worker", "-P", "prefork", "-c", "1", "-Q", queue,
            "--without-mingle", "--without-gossip", "-l", "info", **env,
        )  # fmt: skip
        wait(lambda: bool(pool_of(proc.pid)), 30, "the worker's pool process")
        return proc

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
        self.procs.clear()


def paused_resolution(procs: Processes, marker: Path, n: int):  # type: ignore[no-untyped-def]
    """A worker whose first resolution pauses after its partial writes, and that round."""
    worker = procs.worker(app="tests.worker_hooks", FTCAMP_PAUSE_FILE=str(marker))
    world = make_campaign(f"recovery {marker.name} {n}")
    services.add_order(
        power=world.powers[0], payload={"type": "gal_transfer", "to": "p1", "amount": 5}, actor="b"
    )
    rnd = Round.objects.get(campaign=world.campaign, status="open")
    for power in world.powers:
        services.submit_sheet(power=power, actor="bench")
    wait(lambda: marker.exists() and marker.read_text() != "", 30, "the paused resolution")
    return worker, rnd, int(marker.read_text())


def resolved_after(rnd: Round, killed: float) -> float:
    wait(lambda: Round.objects.get(pk=rnd.pk).status == "resolved", HARD_STOP, "the resolution")
    seconds = time.monotonic() - killed
    finished = AuditEvent.objects.filter(
        action="resolution_finished", campaign_id=rnd.campaign_id
    ).count()
    records = RoundRecord.objects.filter(round=rnd).count()
    lines = LedgerLine.objects.filter(campaign_id=rnd.campaign_id, round_number=rnd.number)
    spent = lines.filter(power__key="p0", resource="gal", amount=-5).count()
    if (finished, records, spent) != (1, 1, 1):
        raise SystemExit(f"not exactly once: {finished} finished, {records} records, {spent}")
    return seconds


def main(trials: int) -> None:
    setup_database()
    logs = Path(tempfile.mkdtemp(prefix="ftcamp-recovery-"))
    beat, workers = Processes(logs), Processes(logs)
    interval = django.conf.settings.CELERY_BEAT_SCHEDULE["sweep-rounds"]["schedule"]
    print(f"sweep every {interval} s (production default); {trials} trials each; logs in {logs}")
    results: dict[str, list[float]] = {"pool process": [], "main process": []}
    try:
        beat.start("-A", "ftcamp", "beat", "-l", "info", "-s", str(logs / "beat-schedule"))
        for n in range(trials):
            _, rnd, child = paused_resolution(workers, logs / f"child-{n}", n)
            os.kill(child, signal.SIGKILL)
            results["pool process"].append(resolved_after(rnd, time.monotonic()))
            workers.stop()

            worker, rnd, child = paused_resolution(workers, logs / f"main-{n}", n)
            os.kill(worker.pid, signal.SIGKILL)
            killed = time.monotonic()
            workers.worker()  # restarted, as a supervisor would
            results["main process"].append(resolved_after(rnd, killed))
            workers.stop()
    finally:
        workers.stop()
        beat.stop()
        drop_database()
    print("seconds from SIGKILL mid-write to the round resolved (exactly once):")
    for what, seconds in results.items():
        shown = ", ".join(f"{s:.1f}" for s in seconds)
        print(f"  {what:<13} {shown}   (worst {max(seconds):.1f} s; target <= 30 s)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
