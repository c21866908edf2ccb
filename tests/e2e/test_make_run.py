"""`make run` on its own (SQLite, in-process tasks) serves the login page and the demo logins
work, driven through a real browser."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from campaigns.demo import demo_password

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.browser


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def demo_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    workdir = tmp_path_factory.mktemp("make-run")
    env = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ.get("HOME", str(workdir)),
        # the demo's own SQLite file, so the developer's db.sqlite3 is left alone
        "DATABASE_URL": f"sqlite:///{workdir / 'demo.sqlite3'}",
    }
    log = (workdir / "server.log").open("w")
    proc = subprocess.Popen(
        ["make", "--no-print-directory", "run", f"PORT={port}"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    try:
        while True:
            try:
                with urllib.request.urlopen(base + "/accounts/login/", timeout=2) as r:  # noqa: S310
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.flush()
                pytest.fail("make run did not serve:\n" + (workdir / "server.log").read_text())
            time.sleep(0.5)
        yield base
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)
        log.close()


def test_make_run_serves_demo_and_logins_work(demo_server: str, page: Page) -> None:
    page.goto(demo_server + "/")
    expect(page.locator("#campaigns")).to_contain_text("The Outer Reaches")  # the public index
    page.get_by_role("link", name="Log in").first.click()
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    # served from static/, no CDN; the script is deferred, so wait for it to run
    page.wait_for_function("typeof htmx === 'object'", timeout=15_000)

    page.get_by_label("Username").fill("nac")
    page.get_by_label("Password").fill(demo_password("nac"))
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="My campaigns")).to_be_visible()

    page.get_by_role("link", name=re.compile("The Outer Reaches")).click()
    expect(page.get_by_role("heading", name="New Anglian Confederation")).to_be_visible()
    expect(page.locator("#systems")).to_contain_text("Avalon")
    expect(page.locator("#systems")).to_contain_text("0203")
    expect(page.locator("#hubs")).to_contain_text("Core")
    expect(page.locator('[data-testid="gal"]')).to_have_text("120")
    (ROOT / "out").mkdir(exist_ok=True)
    page.screenshot(path=str(ROOT / "out" / "dashboard.png"), full_page=True)

    other = page.url.replace("/powers/nac/", "/powers/esu/")
    response = page.goto(other)
    assert response is not None and response.status == 404
    assert "Eurasian" not in page.content()


def test_wrong_password_is_refused(demo_server: str, page: Page) -> None:
    page.goto(demo_server + "/accounts/login/")
    page.get_by_label("Username").fill("esu")
    page.get_by_label("Password").fill("not-the-password")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".error")).to_contain_text("didn't match")
