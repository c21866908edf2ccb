"""Security headers for every response (reliability S11): a Content-Security-Policy that allows
only this site's own scripts, styles, images and frames, and no framing by others."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

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
