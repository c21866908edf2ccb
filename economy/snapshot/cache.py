"""The per-process cache of parsed round states (issue 13): a live round's ``State`` and its
contract JSON, loaded once per process and state version and shared by the requests that read
it (the projected statement, the round's statements and notices), with what they derive from
it (``RoundState.remember``)."""

from __future__ import annotations

import gc
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.db import connection

from economy.engine.codec import dump_state
from economy.engine.state import State
from economy.models import Round
from economy.snapshot.load import load_state
from powers.models import Campaign

T = TypeVar("T")


@dataclass(frozen=True)
class RoundState:
    """A live round's parsed state and its contract JSON, shared by the requests of one
    process: never mutate it (the engine works on a copy, ``resolve``)."""

    state: State
    start: dict[str, Any]
    # what the requests derive from it, by key (a power's part of it, the names): as the state
    # itself, never mutated once stored; ``remember`` keeps the newest MEMO of them
    memo: OrderedDict[Any, Any] = field(default_factory=OrderedDict)

    def remember(self, key: Any, make: Callable[[], T]) -> T:
        """``make()``, computed once per key while the state is cached."""
        with _round_states_lock:
            if key in self.memo:
                self.memo.move_to_end(key)
                found: T = self.memo[key]
                return found
        value = make()
        with _round_states_lock:
            self.memo[key] = value
            while len(self.memo) > MEMO:
                self.memo.popitem(last=False)
        return value


MEMO = 64  # per cached state: a part and names for each power, with room to spare


ROUND_STATES = 2  # entries kept per process: the live rounds of the campaigns in play
_round_states: OrderedDict[tuple[int, int], RoundState] = OrderedDict()
_round_states_lock = threading.Lock()


def round_state(campaign: Campaign, rnd: Round) -> RoundState:
    """The campaign's state while ``rnd`` is live, parsed once per process and state version
    (issue 13). ``rnd`` as just read: every write to a table of the state bumps its
    ``state_version`` in the writer's transaction (PostgreSQL triggers, economy migration
    0004), and the version is read before the state, so what is cached under a version is
    never older than it. Without PostgreSQL (the SQLite demo) there are no triggers and the
    state is loaded every time."""
    if connection.vendor != "postgresql":
        state = load_state(campaign)
        return RoundState(state, dump_state(state))
    key = (rnd.pk, rnd.state_version)
    with _round_states_lock:
        hit = _round_states.get(key)
        if hit is not None:
            _round_states.move_to_end(key)
            return hit
    state = load_state(campaign)
    out = RoundState(state, dump_state(state))
    # Out of the garbage collector's sight from now on: at 5,000 systems the parsed state is
    # millions of objects, and each full collection walked them all, ~0.1 s at a time, on any
    # later request of the process (issue 13). Its objects hold no reference cycles; they are
    # freed by reference counting when the entry is dropped.
    gc.freeze()
    with _round_states_lock:
        _round_states[key] = out
        while len(_round_states) > ROUND_STATES:
            _round_states.popitem(last=False)
    return out


def forget_round_states() -> None:
    """Empty this process's cache (tests: a new database reuses round ids)."""
    with _round_states_lock:
        _round_states.clear()
