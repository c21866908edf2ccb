"""A message's text in a small Markdown subset, made safe (issue 31): **bold**, *italic* or
_italic_, `code`, [links](https://…) (http, https and mailto only), line breaks, and lists
(``- item``, ``* item``, ``1. item``). The text is escaped first, the few tags of the subset are
made from the escaped text, and the result goes through nh3 (a maintained sanitizer) with an
allow-list of those tags, so a payload that slips past the subset's rules is still stripped."""

from __future__ import annotations

import re

import nh3
from django.utils.html import escape

TAGS = {"p", "br", "strong", "em", "code", "a", "ul", "ol", "li"}
ATTRIBUTES = {"a": {"href"}}
SCHEMES = {"http", "https", "mailto"}
LINK_REL = "nofollow noopener noreferrer"

_CODE = re.compile(r"`([^`\n]+)`")
_LINK = re.compile(r"\[([^\]\n]+)\]\(([^)\s]+)\)")
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_ITALIC = re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])|(?<!\w)_(?=\S)(.+?)(?<=\S)_(?!\w)")
_BULLET = re.compile(r"^\s*[-*+]\s+(.*)$")
_NUMBER = re.compile(r"^\s*\d{1,4}[.)]\s+(.*)$")
_SAFE_URL = re.compile(r"^(https?://|mailto:)[^\s\"'<>`]+$", re.IGNORECASE)


def _inline(line: str) -> str:
    """One line, escaped, with code spans, links, bold and italic."""
    text = str(escape(line))  # a plain str from here: tags are added to it
    codes: list[str] = []

    def keep(match: re.Match[str]) -> str:
        codes.append(f"<code>{match.group(1)}</code>")
        return f"\x00{len(codes) - 1}\x00"

    text = _CODE.sub(keep, text)

    def link(match: re.Match[str]) -> str:
        label, url = match.group(1), match.group(2)
        if not _SAFE_URL.match(url):
            return label  # not a web or mail address: the words only
        return f'<a href="{url}">{label}</a>'

    text = _LINK.sub(link, text)
    text = _BOLD.sub(r"<strong>\1</strong>", text)
    text = _ITALIC.sub(lambda m: f"<em>{m.group(1) or m.group(2)}</em>", text)
    return re.sub("\x00(\\d+)\x00", lambda m: codes[int(m.group(1))], text)


def _blocks(lines: list[str]) -> list[str]:
    """Paragraphs (lines joined by breaks) and lists, in order."""
    out: list[str] = []
    para: list[str] = []
    items: list[str] = []
    kind = ""

    def flush() -> None:
        nonlocal kind
        if para:
            out.append("<p>" + "<br>".join(_inline(p) for p in para) + "</p>")
            para.clear()
        if items:
            out.append(
                f"<{kind}>" + "".join(f"<li>{_inline(i)}</li>" for i in items) + f"</{kind}>"
            )
            items.clear()
            kind = ""

    for line in lines:
        bullet, number = _BULLET.match(line), _NUMBER.match(line)
        item = bullet or number
        if not line.strip():
            flush()
        elif item:
            this = "ul" if bullet else "ol"
            if para or (kind and kind != this):
                flush()
            kind = this
            items.append(item.group(1))
        else:
            if items:
                flush()
            para.append(line.strip())
    flush()
    return out


def render(text: str) -> str:
    """The message's HTML: the subset above, sanitized with nh3's allow-list."""
    lines = text.replace("\x00", "").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    html = "".join(_blocks(lines))
    return nh3.clean(html, tags=TAGS, attributes=ATTRIBUTES, url_schemes=SCHEMES, link_rel=LINK_REL)


def plain(text: str, limit: int = 140) -> str:
    """A short plain excerpt (for notices, emails and the feed): the text as written, cut."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"
