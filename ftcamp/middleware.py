"""Middleware: security headers for every response (reliability S11: a Content-Security-Policy
that allows only this site's own scripts, styles, images and frames, and no framing by others),
the input gate (issue 11), and no-store for private answers."""

from __future__ import annotations

import json
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.cache import add_never_cache_headers

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
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


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
    it. Forms are also bounded by ``DATA_UPLOAD_MAX_MEMORY_SIZE``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            self.check(request)
        except InputRefused as exc:
            return self.refuse(request, str(exc), exc.status)
        except RequestDataTooBig:
            return self.refuse(request, "the request body is too large", 413)
        except (TooManyFieldsSent, TooManyFilesSent):
            return self.refuse(request, "the form has too many fields", 400)
        return self.get_response(request)

    def check(self, request: HttpRequest) -> None:
        problem = _bad_text(request.path)
        for key, values in request.GET.lists():
            problem = problem or _bad_text(key) or next(filter(None, map(_bad_text, values)), None)
        if problem:
            raise InputRefused(f"the address: {problem}")
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return
        content_type = request.content_type or ""
        if content_type in JSON_TYPES or content_type.endswith("+json"):
            length = request.META.get("CONTENT_LENGTH") or "0"
            limit = settings.FTCAMP_MAX_JSON_BYTES
            if length.isdigit() and int(length) > max(limit, settings.DATA_UPLOAD_MAX_MEMORY_SIZE):
                raise InputRefused(f"the request body is larger than {limit:,} bytes", 413)
            check_json_body(request.body, limit)
        elif content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
            for key, values in request.POST.lists():
                for text in (key, *values):
                    problem = _bad_text(text)
                    if problem:
                        raise InputRefused(f"the form: {problem}")

    @staticmethod
    def refuse(request: HttpRequest, message: str, status: int) -> HttpResponse:
        text = f"Refused: {message}."
        wants_json = request.path.startswith("/api/") or "json" in (request.content_type or "")
        if wants_json:
            return JsonResponse({"detail": text}, status=status)
        return HttpResponse(text, status=status, content_type="text/plain; charset=utf-8")


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
