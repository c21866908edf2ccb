"""The rules a message is checked against (issue 31), as plain functions over plain values:
its size, the writer's rate, and the campaign's press settings. Each refusal names the field
or the setting that forbids what, in words a player reads."""

from __future__ import annotations

MAX_CHARS = 4000  # a message's text
MAX_REASON = 300  # the organiser's reason for hiding a message
RATE_COUNT = 10  # messages a user may write ...
RATE_SECONDS = 60  # ... in this many seconds, in all campaigns together
MAX_MEMBERS = 20  # powers in one conversation

PRESS_WORDS = {
    "all": "all press",
    "public": "public press only",
    "none": "no press",
}


def text_problem(text: str) -> str:
    """The message's text: not empty, at most ``MAX_CHARS`` characters."""
    if not text.strip():
        return "text: write something first"
    if len(text) > MAX_CHARS:
        return f"text: at most {MAX_CHARS:,} characters, this one has {len(text):,}"
    return ""


def rate_problem(recent: int) -> str:
    """``recent`` messages written by the user in the last ``RATE_SECONDS`` seconds."""
    if recent >= RATE_COUNT:
        return (
            f"text: you may write at most {RATE_COUNT} messages a minute; "
            "wait a moment and send it again"
        )
    return ""


def press_problem(*, press: str, while_resolving: bool, public: bool, resolving: bool) -> str:
    """The campaign's press settings against a message (or a new conversation) in the public
    channel (``public``) or a private conversation, while the round resolves or not."""
    setting = PRESS_WORDS.get(press, press)
    if press == "none":
        return f"The campaign's setting \u201cpress allowed\u201d is {setting}: nobody may write."
    if press == "public" and not public:
        return (
            f"The campaign's setting \u201cpress allowed\u201d is {setting}: private "
            "conversations are closed; write in the public channel."
        )
    if resolving and not while_resolving:
        return (
            "The campaign's setting \u201cpress while a round resolves\u201d is off: "
            "wait until the round is resolved."
        )
    return ""


def members_problem(count: int) -> str:
    """A conversation's powers besides the writer's: at least one, at most ``MAX_MEMBERS``."""
    if count < 1:
        return "powers: choose at least one other power"
    if count + 1 > MAX_MEMBERS:
        return f"powers: at most {MAX_MEMBERS} powers in a conversation"
    return ""
