"""Benchmark order entry over real HTTP: ``.venv/bin/python bench/orders.py [SIZES...]``.

For each size (500 and 5,000 systems by default) the engine benchmark's campaign (at 5,000
systems: 200 hubs, 2,000 groups of 5 craft, 200 builds; in proportion at other sizes) with 20
powers is stored in PostgreSQL, a player with an API
token and a browser session is made for each power, and a real server is started: gunicorn
(``ftcamp.wsgi``, 4 sync workers, persistent database connections, DEBUG off) on a loopback
port. Four client threads then write orders for the 20 powers (five powers each, every thread
on its own connection per request), each write one of:

- ``add``: ``POST /api/campaigns/C/orders/`` (the API's add_order, strict entry check);
- ``update``: ``PUT /api/campaigns/C/orders/N/`` (update_order);
- ``validate``: ``POST .../orders/validate/`` (the as-you-type validator, a page with the
  session cookie and CSRF token);

in the proportions 2 : 1 : 1. The orders are the engine benchmark's sheets, sent as a player
would type them. Printed per size: p50/p95 of the time each write took as the client saw it
(request sent to response read, over loopback), per kind and for all writes, the writes per
second of the whole run, the CPU time the server's workers and their PostgreSQL backends spent
per write (from ``/proc``: what other work on the machine inflates least), the share refused
(a refused order is still a full entry check), and the projected statement (``GET
/api/campaigns/C/projection/`` of a power with 50 orders): its first call, and the p50 of ten
once every worker has its own copy of the parsed state. Targets (issue 13): p95 <= 30 ms per
write at 5,000 systems and at most 1.2x the 500-system figure, >= 100 writes/s, projection
<= 150 ms.

Uses the database ``ftcamp_bench`` (dropped and created here) unless DATABASE_URL is set, and
refuses any database host but loopback.
"""

from __future__ import annotations

import http.client
import json
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ftcamp.settings")
os.environ.setdefault("SECRET_KEY", "bench-only")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ftcamp_bench")

if urlparse(os.environ["DATABASE_URL"]).hostname not in ("127.0.0.1", "localhost", "::1"):
    sys.exit("DATABASE_URL must point at loopback")

import logging  # noqa: E402

import django  # noqa: E402

django.setup()
logging.getLogger("axes").setLevel(logging.WARNING)  # a line per force_login otherwise

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connections, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from bench.engine import build  # noqa: E402
from bench.machine import describe  # noqa: E402
from bench.resolution import setup_database, storable  # noqa: E402
from campaigns import services as power_services  # noqa: E402
from economy.engine.codec import dump_state, parse_state  # noqa: E402
from economy.entry import player_order  # noqa: E402
from economy.snapshot import save_state  # noqa: E402
from powers.models import Campaign, Membership, Power  # noqa: E402

POWERS = 20
CLIENTS = 4
WORKERS = 4
WRITES_PER_POWER = 60
PROJECTION_ORDERS = 50
PROJECTION_CALLS = 10
# what the validator gets as form fields: orders whose fields a form sends as plain values
FORM_KINDS = {"research_project", "conscript", "hub_maintain", "market_sell", "gal_transfer"}


class Player:
    """One power's player: its API token, its browser session and what it will write."""

    def __init__(self, power: str, token: str, session: str, orders: list[dict[str, Any]]):
        self.power = power
        self.token = token
        self.session = session
        self.csrf = secrets.token_hex(16)  # a 32-character secret, as Django's cookie holds
        self.orders = orders
        self.written = 0


def make_campaign(n_systems: int) -> tuple[int, list[Player]]:
    """The engine benchmark's campaign in the database, with a player for each power."""
    setup_database()
    state, sheets = build(n_systems, n_powers=POWERS)
    state = parse_state(storable(dump_state(state)))
    with transaction.atomic():
        campaign = Campaign.objects.create(name=f"bench {n_systems}", seed=state.seed)
        save_state(campaign, state)
        power_services.setup_campaign(campaign=campaign)
    by_power: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for key, _, order in sheets:
        by_power[key].append(player_order(key, order))
    players = []
    user_model = get_user_model()
    for power in Power.objects.filter(campaign=campaign).order_by("key"):
        user = user_model.objects.create_user(f"bench-{power.key}", password=None)
        Membership.objects.create(campaign=campaign, user=user, power=power)
        token = Token.objects.create(user=user).key
        client = Client()  # one each: logging another user in would end this one's session
        client.force_login(user)
        session = client.cookies["sessionid"].value
        players.append(Player(power.key, token, session, by_power[power.key]))
    connections.close_all()
    return campaign.pk, players


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(port: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DB_CONN_MAX_AGE": "60",
        "STATIC_MANIFEST": "0",
        "SECURE_SSL_REDIRECT": "0",  # plain HTTP on loopback: no TLS proxy in front
        "PYTHONWARNINGS": "ignore",  # no collected static files: whitenoise says so per worker
        "PYTHONPATH": str(ROOT),
    }
    env.pop("REDIS_URL", None)  # writes enqueue nothing; no broker is needed
    cmd = [sys.executable, "-m", "gunicorn", "ftcamp.wsgi:application"]
    cmd += ["--bind", f"127.0.0.1:{port}", "--workers", str(WORKERS), "--log-level", "warning"]
    log = Path(tempfile.gettempdir()) / "ftcamp-bench-orders-server.log"  # its warnings
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stderr=log.open("wb"))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return proc
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit("the server did not start")


def request(
    port: int, method: str, path: str, body: bytes | None, headers: dict[str, str]
) -> tuple[int, bytes, float]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        start = time.perf_counter()
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        data = response.read()
        return response.status, data, time.perf_counter() - start
    finally:
        conn.close()


def api_headers(player: Player) -> dict[str, str]:
    return {"Authorization": f"Token {player.token}", "Content-Type": "application/json"}


def page_headers(player: Player) -> dict[str, str]:
    return {
        "Cookie": f"sessionid={player.session}; csrftoken={player.csrf}",
        "X-CSRFToken": player.csrf,
        "Content-Type": "application/x-www-form-urlencoded",
        "HX-Request": "true",
    }


def form_fields(order: dict[str, Any]) -> dict[str, Any]:
    return {k: " ".join(map(str, v)) if isinstance(v, list) else v for k, v in order.items()}


def write(port: int, campaign: int, player: Player, step: int) -> tuple[str, int, float]:
    """One write of the 2 : 1 : 1 mix: add, update, validate."""
    api = f"/api/campaigns/{campaign}/orders/"
    order = player.orders[step % len(player.orders)]
    kind = ("add", "update", "add", "validate")[step % 4]
    if kind == "update" and player.written == 0:
        kind = "add"
    if kind == "add":
        status, _, seconds = request(
            port, "POST", api, json.dumps(order).encode(), api_headers(player)
        )
        player.written += status == 201
    elif kind == "update":
        path = f"{api}{step % player.written}/"
        status, _, seconds = request(
            port, "PUT", path, json.dumps(order).encode(), api_headers(player)
        )
    else:
        shown = next((o for o in player.orders[step:] if o["type"] in FORM_KINDS), order)
        path = f"/campaigns/{campaign}/powers/{player.power}/orders/validate/"
        body = urlencode(form_fields(shown)).encode()
        status, _, seconds = request(port, "POST", path, body, page_headers(player))
    return kind, status, seconds


TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids: list[int]) -> dict[int, float]:
    """User + system CPU seconds each of these processes has used (``/proc``)."""
    out = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone
            continue
        out[pid] = (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime
    return out


def server_cpu(master: int) -> tuple[dict[int, float], dict[int, float]]:
    """CPU used so far by the gunicorn workers, and by the PostgreSQL backends serving them
    (every other session of the benchmark's database: the workers keep theirs open)."""
    workers = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    with connections["default"].cursor() as cur:
        cur.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid()"
        )
        backends = [pid for (pid,) in cur.fetchall()]
    connections.close_all()
    return cpu_seconds([int(w) for w in workers]), cpu_seconds(backends)


def used(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds between the two readings (a process started since counts whole)."""
    return sum(t - before.get(pid, 0.0) for pid, t in after.items())


def run_writes(port: int, campaign: int, players: list[Player]) -> dict[str, Any]:
    timings: dict[str, list[float]] = defaultdict(list)
    statuses: dict[int, int] = defaultdict(int)
    lock = threading.Lock()

    def client(mine: list[Player]) -> None:
        for step in range(WRITES_PER_POWER):
            for player in mine:
                kind, status, seconds = write(port, campaign, player, step)
                with lock:
                    timings[kind].append(seconds)
                    statuses[status] += 1

    groups = [players[i::CLIENTS] for i in range(CLIENTS)]
    threads = [threading.Thread(target=client, args=(g,)) for g in groups]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    every = [s for values in timings.values() for s in values]
    return {"timings": dict(timings), "all": every, "wall": wall, "statuses": dict(statuses)}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] * 1000


def projection(port: int, campaign: int, player: Player) -> tuple[float, float]:
    """The first call (ms: the state loaded and parsed), then, once every worker has parsed it
    (each caches its own), the p50 of ten more; each must answer 200."""
    path = f"/api/campaigns/{campaign}/projection/"

    def call() -> float:
        status, _, seconds = request(port, "GET", path, None, api_headers(player))
        if status != 200:
            raise SystemExit(f"projection answered {status}")
        return seconds * 1000

    first = call()
    warm = [threading.Thread(target=call) for _ in range(2 * WORKERS)]
    for t in warm:
        t.start()
    for t in warm:
        t.join()
    return first, statistics.median(call() for _ in range(PROJECTION_CALLS))


def fill(port: int, campaign: int, player: Player, n: int) -> None:
    """Bring the player's sheet to ``n`` orders (the projection's sheet)."""
    api = f"/api/campaigns/{campaign}/orders/"
    for order in player.orders[:n]:
        if player.written >= n:
            return
        status, _, _ = request(port, "POST", api, json.dumps(order).encode(), api_headers(player))
        player.written += status == 201


def measure(n_systems: int) -> dict[str, Any]:
    campaign, players = make_campaign(n_systems)
    port = free_port()
    server = start_server(port)
    try:
        warm = [threading.Thread(target=fill, args=(port, campaign, p, 2)) for p in players[:8]]
        for t in warm:  # the workers import everything and connect
            t.start()
        for t in warm:
            t.join()
        workers, backends = server_cpu(server.pid)
        writes = run_writes(port, campaign, players)
        workers_after, backends_after = server_cpu(server.pid)
        writes["cpu"] = (used(workers, workers_after), used(backends, backends_after))
        fill(port, campaign, players[0], PROJECTION_ORDERS)
        first, p50 = projection(port, campaign, players[0])
    finally:
        server.terminate()
        server.wait(30)
    return {**writes, "projection": (first, p50), "orders": players[0].written}


def report(n_systems: int, m: dict[str, Any]) -> float:
    n = len(m["all"])
    refused = sum(v for k, v in m["statuses"].items() if k == 400)
    print(f"{n_systems} systems: {n} writes in {m['wall']:.2f} s = {n / m['wall']:.0f} writes/s")
    for kind in ("add", "update", "validate"):
        values = m["timings"].get(kind, [])
        if values:
            print(
                f"  {kind:<9} {len(values):4d}  p50 {pct(values, 0.5):6.1f} ms"
                f"  p95 {pct(values, 0.95):6.1f} ms"
            )
    p95 = pct(m["all"], 0.95)
    print(f"  all       {n:4d}  p50 {pct(m['all'], 0.5):6.1f} ms  p95 {p95:6.1f} ms")
    app, database = m["cpu"]
    print(
        f"  CPU per write: {1000 * app / n:.1f} ms in the server, {1000 * database / n:.1f} ms"
        f" in PostgreSQL ({1000 * (app + database) / n:.1f} ms; what the load does not inflate)"
    )
    print(
        f"  statuses {dict(sorted(m['statuses'].items()))}"
        f" ({100 * refused / n:.0f}% refused by the entry check)"
    )
    first, p50 = m["projection"]
    print(
        f"  projected statement ({m['orders']} orders): first {first:.0f} ms, then p50 {p50:.0f} ms"
    )
    return p95


def main(sizes: list[int]) -> None:
    load = os.getloadavg()
    print(describe())
    print(
        f"{CLIENTS} clients, {WORKERS} gunicorn workers,"
        f" {POWERS} powers x {WRITES_PER_POWER} writes;"
        f" load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    results = {}
    for n in sizes:
        results[n] = measure(n)
    p95s = {n: report(n, m) for n, m in results.items()}
    if len(sizes) >= 2:
        small, large = sizes[0], sizes[-1]
        m = results[large]
        rate = len(m["all"]) / m["wall"]
        growth = p95s[large] / p95s[small]
        ok = p95s[large] <= 30 and growth <= 1.2 and rate >= 100 and m["projection"][1] <= 150
        print(
            f"p95 growth {small} -> {large} systems: x{growth:.2f}; target (p95 <= 30 ms,"
            f" <= x1.2, >= 100 writes/s, projection <= 150 ms): {'meets' if ok else 'misses'}"
        )


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [500, 5000])
