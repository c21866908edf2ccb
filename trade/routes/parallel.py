"""The batches of sources shared between this process and one forked worker (speed only).

Every batch of sources (:func:`trade.routes.batch.run_batch`) is independent of the others: it
adds its pairs to a list and its trade to the T-7 edge flows, and both are combined by exact
sums (int64 flows, pairs sorted by id at the end). So two processes can take batches from one
queue and the parent add the worker's flows, pairs and count to its own: the result is the same,
bit for bit, whoever took which batch (``tests/routes/test_unchanged.py`` checks the output's
digest both ways).

- The queue is a pipe holding every batch's number (4 bytes each, written before the fork):
  each process reads the next number when it is free, so the two stay busy until the end
  whatever each batch costs.
- The worker is a :class:`Child`, a ``fork`` of this process after the graphs are built: it
  shares their pages (copy-on-write) and starts in a few milliseconds. It reports its progress
  through a shared page and sends its results back pickled through a second pipe.
- scipy's ``dijkstra`` holds the GIL, so threads would not help; only processes do.

Only the command asks for a worker (``RouteSettings.workers``, default 1): a library call, a
Celery task or a web request never forks. The command also writes its SVG in a :class:`Child`
while it writes the JSON itself.
"""

from __future__ import annotations

import gc
import mmap
import os
import pickle
import signal
import struct
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, cast

import numpy as np

from . import native
from .batch import BatchContext, Pairs, run_batch
from .paths import SMALL_MAP, IntArray, prepare

Batch = tuple[IntArray, int | None]  # the sources and the most parsecs their trade can travel
Results = tuple[list[Pairs], int, dict[str, list[IntArray]]]  # what the worker sends back
Done = Callable[[int], None]  # called with the number of sources finished so far
MIN_BATCHES = 4  # fewer than this, or
MIN_CELLS = 1_000_000  # fewer (source, world) cells than this, and a fork saves nothing


def shares(workers: int, sources: int, worlds: int, step: int) -> bool:
    """Will :func:`run_batches` share ``sources`` in batches of ``step`` with a worker? Only with
    ``workers`` >= 2, fork available and work enough (not on one sector: its batches take
    0.05 s, less than a fork saves)."""
    return (
        workers >= 2
        and hasattr(os, "fork")
        and sources * worlds >= MIN_CELLS
        and -(-sources // max(step, 1)) >= MIN_BATCHES
    )


def run_batches(
    ctx: BatchContext, batches: Sequence[Batch], workers: int, done: Done | None = None
) -> tuple[list[Pairs], int]:
    """Run every batch, in this process alone or shared with one forked worker (when
    :func:`shares` says so); returns the pairs found and the count of pairs counted (T-7), and
    leaves the trade on ``ctx.flows``."""
    sources = sum(len(src) for src, _ in batches)
    step = max((len(src) for src, _ in batches), default=1)
    if not shares(workers, sources, ctx.g0.n, step):
        return _serial(ctx, batches, done)
    return _shared(ctx, batches, done)


def _serial(
    ctx: BatchContext, batches: Sequence[Batch], done: Done | None
) -> tuple[list[Pairs], int]:
    return _run(ctx, batches, range(len(batches)), done)


def _run(
    ctx: BatchContext, batches: Sequence[Batch], numbers: Iterable[int], done: Done | None
) -> tuple[list[Pairs], int]:
    """Run the batches of these ``numbers``: the pairs found and the count of pairs counted;
    ``done`` hears how many sources this process has finished after each batch."""
    found: list[Pairs] = []
    counted = sources = 0
    for i in numbers:
        src, reach = batches[i]
        pairs, n = run_batch(ctx, src, reach)
        found.extend(pairs)
        counted += n
        sources += len(src)
        if done:
            done(sources)
    return found, counted


def _queue(queue: int) -> Iterator[int]:
    """The batch numbers from the queue pipe, each when this process is free for it, until it
    is empty (every process reads whole 4-byte numbers: a pipe read of fewer bytes than are
    waiting takes just those)."""
    while raw := os.read(queue, 4):
        yield struct.unpack("<i", raw)[0]


def _shared(
    ctx: BatchContext, batches: Sequence[Batch], done: Done | None
) -> tuple[list[Pairs], int]:
    for _, graph in ctx.graphs():
        prepare(graph)  # imported and built once, before the fork, for both processes
    if not native.available() and any(graph.worlds > SMALL_MAP for _, graph in ctx.graphs()):
        import scipy.sparse.csgraph  # noqa: F401 - the same: the searches' module, loaded once
    queue_r, queue_w = os.pipe()
    os.write(queue_w, b"".join(struct.pack("<i", i) for i in range(len(batches))))
    os.close(queue_w)  # both processes see the end of the queue once it is empty
    progress = mmap.mmap(-1, 8)  # anonymous and shared: the worker's finished sources
    try:
        worker = Child.start(lambda: _worker(ctx, batches, queue_r, progress))
        if worker is None:  # no process to spare (a limit on processes or memory): alone
            return _serial(ctx, batches, done)

        def both(mine: int) -> None:  # this process's sources and the worker's, so far
            if done:
                done(mine + struct.unpack("<q", progress[:8])[0])

        try:
            found, counted = _run(ctx, batches, _queue(queue_r), both)
        except BaseException:
            worker.kill()  # the worker's work is lost anyway
            raise
        their_found, their_counted, their_flows = cast(Results, worker.join())
    finally:
        os.close(queue_r)
    for name, digits in their_flows.items():
        for flow, theirs in zip(ctx.flows[name], digits, strict=True):
            flow += theirs  # exact: int64 flows never overflow (mapper.INT64_SAFE)
    if done:
        done(sum(len(src) for src, _ in batches))
    return found + their_found, counted + their_counted


def _worker(
    ctx: BatchContext, batches: Sequence[Batch], queue: int, progress: mmap.mmap
) -> Results:
    """The forked worker: take batches until the queue is empty; what it found goes back."""

    def report(sources: int) -> None:
        progress[:8] = struct.pack("<q", sources)

    found, counted = _run(ctx, batches, _queue(queue), report)
    flows = {name: [np.asarray(f) for f in digits] for name, digits in ctx.flows.items()}
    return found, counted, flows


class Child:
    """Work running in a forked child of this process, sharing its memory (copy-on-write).

    :meth:`start` forks and runs ``work()`` in the child, which sends back what it returned,
    pickled, through a pipe only it holds, then leaves with ``os._exit`` (nothing of the
    parent's is flushed or closed twice). ``gc.freeze()`` around the fork keeps the child's
    collector from touching (and so copying) every object the parent holds.
    """

    def __init__(self, pid: int, pipe: int) -> None:
        self.pid, self.pipe = pid, pipe

    @classmethod
    def start(cls, work: Callable[[], Any]) -> Child | None:
        """Fork and run ``work`` in the child; None when no process can be forked."""
        read, write = os.pipe()
        gc.freeze()
        try:
            pid = os.fork()
        except OSError:
            gc.unfreeze()
            os.close(read)
            os.close(write)
            return None
        if pid == 0:  # the child: it keeps the parent's objects frozen until it leaves
            os.close(read)
            status = 1
            try:
                message = pickle.dumps(("ok", work()), protocol=pickle.HIGHEST_PROTOCOL)
                status = 0
            except BaseException:  # reported to the parent, which raises it
                message = pickle.dumps(("error", traceback.format_exc()))
            try:
                _write_all(write, message)
            finally:
                os._exit(status)
        gc.unfreeze()
        os.close(write)
        return cls(pid, read)

    def join(self) -> Any:
        """Wait for the child: what ``work`` returned, or a RuntimeError with its traceback."""
        try:
            payload = _read_all(self.pipe)
            _, status = os.waitpid(self.pid, 0)
        except BaseException:
            self.kill()
            raise
        finally:
            os.close(self.pipe)
        # The bytes come from our own forked child through a pipe only it holds: trusted.
        message: tuple[str, Any] = (
            pickle.loads(payload) if payload else ("error", "the child sent nothing")  # noqa: S301
        )
        kind, body = message
        if kind != "ok" or os.waitstatus_to_exitcode(status) != 0:
            raise RuntimeError(f"the mapper's worker process failed:\n{body}")
        return body

    def kill(self) -> None:
        """Stop the child at once and reap it (its work is not wanted)."""
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):  # gone and reaped already
            pass


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
    os.close(fd)


def _read_all(fd: int) -> bytes:
    parts = []
    while chunk := os.read(fd, 1 << 20):
        parts.append(chunk)
    return b"".join(parts)
