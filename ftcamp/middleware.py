"""Middleware: security headers for every response (reliability S11: a Content-Security-Policy
that allows only this site's own scripts, styles, images and frames, and no framing by others),
the input gate (issue 11; sizes from Content-Length, issue 32), the API writes' round
(If-Match, issue 32), and no-store for private answers."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.cache import add_never_cache_headers

from economy.rounds import writes_for_round

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; object-src 'self'; frame-ancestors 'none'; base-uri 'self'; "
    "form-action 'self'"
)
# The admin and the API docs page (Swagger UI) run inline scripts of their own.
CSP_INLINE_SCRIPTS = CSP.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
INLINE_PREFIXES = ("/admin/", "/api/docs/")


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        policy = CSP_INLINE_SCRIPTS if request.path.startswith(INLINE_PREFIXES) else CSP
        # a view may set a stricter policy of its own (the SVG maps do)
        response.headers.setdefault("Content-Security-Policy", policy)
        response.headers.setdefault(
            "Permissions-Policy", "camera=(), microphone=(), geolocation=()"
        )
        return response


# --- the input gate (issue 11) ---------------------------------------------------------------

MAX_JSON_DEPTH = 32
JSON_TYPES = ("application/json", "application/merge-patch+json")


class InputRefused(Exception):
    def __init__(self, message: str, status: int = 400, field: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.field = field  # the query parameter refused, named in the API's answer


def _bad_text(value: str) -> str | None:
    if "\x00" in value:
        return "NUL characters are not allowed"
    if any("\ud800" <= c <= "\udfff" for c in value):
        return "the text is not valid Unicode (a lone surrogate)"
    return None


def _json_depth(text: str) -> int:
    """How deeply the JSON text nests, counted without parsing it (strings skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_JSON_DEPTH:
                return deepest
        elif c in "]}":
            depth -= 1
    return deepest


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise InputRefused("numbers must be finite")
    return value


def _no_constants(name: str) -> float:
    raise InputRefused(f"{name} is not a JSON number")


def _walk(value: object) -> str | None:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            problem = _bad_text(item)
            if problem:
                return problem
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


def check_json_body(body: bytes, limit: int) -> None:
    """``InputRefused`` for a JSON body that is too large, not UTF-8, nested deeper than
    ``MAX_JSON_DEPTH``, or holding NUL characters, lone surrogates or non-finite numbers. A
    body that is not JSON at all is left for the API to answer."""
    if _json_depth(body[:limit].decode("utf-8", errors="replace")) > MAX_JSON_DEPTH:
        raise InputRefused(f"the JSON nests deeper than {MAX_JSON_DEPTH} levels")
    if len(body) > limit:
        raise InputRefused(f"the request body is larger than {limit:,} bytes", 413)
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise InputRefused("the request body is not UTF-8") from None
    try:
        data = json.loads(text, parse_float=_finite, parse_constant=_no_constants)
    except ValueError:
        return
    problem = _walk(data)
    if problem:
        raise InputRefused(problem)


class InputGateMiddleware:
    """One gate for what every request brings (issue 11): a path, query, form or JSON body
    with NUL characters or lone surrogates, JSON nested too deeply, or a body over the limit
    is answered 400 (413 for size) with a clear message, before any view or the database sees
    it. The size is judged from ``Content-Length`` before the body is read (``check_length``);
    what is within it is bounded again as it is read (``DATA_UPLOAD_MAX_MEMORY_SIZE``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            self.check(request)
        except InputRefused as exc:
            return self.refuse(request, str(exc), exc.status, exc.field)
        except RequestDataTooBig:
            return self.refuse(request, "the request body is too large", 413)
        except (TooManyFieldsSent, TooManyFilesSent):
            return self.refuse(request, "the form has too many fields", 400)
        return self.get_response(request)

    def check(self, request: HttpRequest) -> None:
        self.check_length(request)
        problem = _bad_text(request.path)
        for key, values in request.GET.lists():
            problem = problem or _bad_text(key) or next(filter(None, map(_bad_text, values)), None)
        if problem:
            raise InputRefused(f"the address: {problem}")
        if request.path.startswith("/api/"):
            # the API takes each query parameter once (lists are comma-separated): a repeated
            # one is not silently read as its last value (issue 32)
            for key, values in request.GET.lists():
                if len(values) > 1:
                    raise InputRefused(
                        f"the query parameter {key!r} is given more than once", field=key
                    )
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return
        content_type = request.content_type or ""
        if content_type in JSON_TYPES or content_type.endswith("+json"):
            check_json_body(request.body, settings.FTCAMP_MAX_JSON_BYTES)
        elif content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
            for key, values in request.POST.lists():
                for text in (key, *values):
                    problem = _bad_text(text)
                    if problem:
                        raise InputRefused(f"the form: {problem}")

    @staticmethod
    def check_length(request: HttpRequest) -> None:
        """A body larger than its kind may be is refused (413) from its ``Content-Length``,
        before anything reads, parses or spools it (issue 32): a form's fields at
        ``DATA_UPLOAD_MAX_MEMORY_SIZE``, JSON at the larger of that and
        ``FTCAMP_MAX_JSON_BYTES``, anything else (uploads) at ``FTCAMP_MAX_UPLOAD_BYTES``."""
        length = str(request.META.get("CONTENT_LENGTH") or "0")
        if not length.isdigit():
            raise InputRefused("the Content-Length is not a number")
        content_type = request.content_type or ""
        if content_type == "application/x-www-form-urlencoded":
            limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        elif content_type in JSON_TYPES or content_type.endswith("+json"):
            limit = max(settings.FTCAMP_MAX_JSON_BYTES, settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
        else:
            limit = settings.FTCAMP_MAX_UPLOAD_BYTES
        if int(length) > limit:
            raise InputRefused(f"the request body is larger than {limit:,} bytes", 413)

    @staticmethod
    def refuse(request: HttpRequest, message: str, status: int, field: str = "") -> HttpResponse:
        text = f"Refused: {message}."
        wants_json = request.path.startswith("/api/") or "json" in (request.content_type or "")
        if wants_json:
            answer: dict[str, object] = {"detail": text}
            if field and field != "detail":
                answer[field] = [text]
            return JsonResponse(answer, status=status)
        return HttpResponse(text, status=status, content_type="text/plain; charset=utf-8")


IF_MATCH_ROUND = re.compile(r'^"round-([0-9]{1,9})"$')


class RoundMatchMiddleware:
    """An API write that says its round (``If-Match: "round-N"``, the sheet's ETag) is for that
    round only: every round lock it takes refuses with 409 if round N is over (issue 32), by
    ``economy.rounds.writes_for_round``. A write without If-Match (or ``*``) is taken as before;
    the sheet's own views refuse a malformed one (400)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        match = None
        if request.method not in ("GET", "HEAD", "OPTIONS") and request.path.startswith("/api/"):
            match = IF_MATCH_ROUND.match(request.headers.get("If-Match", ""))
        with writes_for_round(int(match.group(1)) if match else None):
            return self.get_response(request)


class PrivateNoStoreMiddleware:
    """Pages and API answers for a signed-in user (private by nature, and the token page) are
    never stored by a browser or proxy cache: ``Cache-Control: no-store`` (issue 11)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and "Cache-Control" not in response:
            add_never_cache_headers(response)
        return response
