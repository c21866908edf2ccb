"""A Celery app for crash tests and ``bench/recovery.py``: ftcamp's own app, run as
``celery -A tests.worker_hooks worker``, whose pool processes pause inside the first
resolution *after its partial writes* (state, ledger and round record written, not committed)
so the caller can SIGKILL the worker right there (reliability F1, F2; issue 11).

The pause is armed by ``FTCAMP_PAUSE_FILE``: the first resolution to reach it writes its pid
there and sleeps; later ones (the retry) find the file and go on. A paused process whose
parent (the worker's main process) dies exits too, as a pool process killed with its worker
does. Nothing of this is imported by the product."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from celery.signals import worker_process_init

from ftcamp.celery import app

__all__ = ["app"]


def _pause_here() -> None:
    marker = Path(os.environ["FTCAMP_PAUSE_FILE"])
    try:
        with marker.open("x") as f:  # only the first resolution pauses
            f.write(str(os.getpid()))
    except FileExistsError:
        return
    parent = os.getppid()
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        if os.getppid() != parent:
            os._exit(1)
        time.sleep(0.05)


@worker_process_init.connect
def _arm(**_: Any) -> None:
    if not os.environ.get("FTCAMP_PAUSE_FILE"):
        return
    import trade.services

    real = trade.services.record_round

    def record_round_then_pause(**kwargs: Any) -> None:
        real(**kwargs)
        _pause_here()

    trade.services.record_round = record_round_then_pause  # type: ignore[assignment]
