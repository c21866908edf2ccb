"""Refusals a service may raise, each with the HTTP answer it becomes (``ftcamp/http.py`` maps
them, once, for the API and the pages alike). A kernel module: it imports no app, so every
layer may raise them."""

from __future__ import annotations


class DomainError(Exception):
    """A service refused: nothing was written. ``errors`` are ``field: problem`` strings (or
    plain sentences); ``status`` is the HTTP answer."""

    status = 400

    def __init__(self, errors: list[str] | str) -> None:
        self.errors = [errors] if isinstance(errors, str) else list(errors)
        super().__init__("; ".join(self.errors))


class Refused(DomainError):
    """The input breaks a rule or an entry check: 400, naming the field."""

    status = 400


class Forbidden(DomainError):
    """The user may see this but not do it (e.g. vote without a committee seat): 403."""

    status = 403


class Missing(DomainError):
    """No such thing among what the user may see: 404 (existence never leaks)."""

    status = 404


class Conflict(DomainError):
    """The state moved on (the round is being resolved, or is over): 409. ``open_round`` is
    the round that takes writes now, if one does."""

    status = 409
    open_round: int | None = None
