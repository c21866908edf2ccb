"""Retry-safe API writes (issue 32): a write sent with an ``Idempotency-Key`` header is done at
most once per user and key. The key is stored with the answer in the same transaction as the
write, so a retry — after a lost answer, from any web process — gets the first answer again
(its status and body, with ``Idempotent-Replayed: true``) and changes nothing; the same key
with a different request (method, path or body) is a 422. A refused write (an exception: 400,
409, ...) rolls back with its key, so nothing is remembered and a retry is judged afresh.
Keys are kept ``FTCAMP_IDEMPOTENCY_HOURS`` (24 by default); older ones are ignored and deleted
when the user next sends a key. Without the header a write is taken as before."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import timedelta
from functools import wraps
from typing import Any, TypeVar

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from economy.models import IdempotencyKey

HEADER = "Idempotency-Key"
V = TypeVar("V", bound=Callable[..., Response])


class KeyReused(APIException):
    status_code = 422
    default_detail = (
        "This Idempotency-Key was used for a different request: use a new key for a new request."
    )
    default_code = "idempotency_key_reused"


def _fingerprint(request: Request) -> str:
    data = json.dumps(request.data, sort_keys=True, default=str)
    text = f"{request.method} {request.path}\n{data}"
    return hashlib.sha256(text.encode()).hexdigest()


def _key(request: Request) -> str | None:
    key = request.headers.get(HEADER)
    if key is None:
        return None
    if not (0 < len(key) <= 255 and key.isascii() and key.isprintable()):
        raise ValidationError({HEADER: ["Expected 1 to 255 printable ASCII characters."]})
    return key


def _replay(stored: IdempotencyKey, fingerprint: str) -> Response:
    if stored.fingerprint != fingerprint:
        raise KeyReused()
    return Response(stored.body, status=stored.status, headers={"Idempotent-Replayed": "true"})


def idempotent(view: V) -> V:
    """An API view method made retry-safe by its ``Idempotency-Key`` header (module doc)."""

    @wraps(view)
    def wrapper(self: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = _key(request)
        if key is None:
            return view(self, request, *args, **kwargs)
        user_id = request.user.pk  # the API's writes are for signed-in users only
        assert user_id is not None
        fingerprint = _fingerprint(request)
        since = timezone.now() - timedelta(hours=settings.FTCAMP_IDEMPOTENCY_HOURS)
        IdempotencyKey.objects.filter(user_id=user_id, created_at__lt=since).delete()
        stored = IdempotencyKey.objects.filter(user_id=user_id, key=key).first()
        if stored is None:
            with transaction.atomic():
                try:
                    # taken first: a concurrent retry waits on this row's unique index, then
                    # finds the answer stored (PostgreSQL), or waits for the write lock (SQLite)
                    with transaction.atomic():
                        row = IdempotencyKey.objects.create(
                            user_id=user_id, key=key, fingerprint=fingerprint, status=0
                        )
                except IntegrityError:
                    stored = IdempotencyKey.objects.get(user_id=user_id, key=key)
                else:
                    response = view(self, request, *args, **kwargs)
                    row.status = response.status_code
                    # as the client read it (the API's JSON), so a replay answers the same
                    row.body = json.loads(JSONRenderer().render(response.data) or b"null")
                    row.save(update_fields=["status", "body"])
                    return response
        return _replay(stored, fingerprint)

    return wrapper  # type: ignore[return-value]
