"""The browser tests' fixtures (tests/chromium.py)."""

from tests.chromium import browser, page

__all__ = ["browser", "page"]
