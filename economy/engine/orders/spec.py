"""An order type in one declaration (issue 28): its name, the round step that applies it, its
fields (each of a kind, ``kinds``), the checks between its fields, and how players read it —
label, rules citation, what it does and costs, and the order as a sentence.

The entry check, the order forms, the API's JSON Schema, the engine's rules at entry and the
order sentences all derive from these; nothing else lists an order type's fields.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .kinds import OPTIONAL as OPTIONAL
from .kinds import REQUIRED as REQUIRED
from .kinds import Field, Words

if TYPE_CHECKING:
    from ..catalog import Catalog

#: (catalog, power, order) -> problems "field: ..." between the order's fields, or with what
#: the catalogue knows beyond one field (loans, captures); run once every field passes.
Checks = Callable[["Catalog", str, dict[str, Any]], Iterable[str]]
Sentence = str | Callable[[dict[str, str]], str]


@dataclass(frozen=True)
class OrderSpec:
    type: str
    label: str
    cite: str
    step: str  # the round step that applies it (economy.engine.resolve.STEPS)
    fields: tuple[Field, ...]
    help: str  # what it does, in one plain paragraph (issue 17)
    sentence: Sentence  # the order in words: a template over its fields in words, or a function
    pays: str = ""  # what it costs, where that is paid from and when (issue 14)
    checks: Checks | None = None
    creates: str = ""  # what its new id names, for orders later on the sheet (R-10.1a)

    @property
    def about(self) -> str:
        """The paragraph the form shows: what it does and what it costs."""
        return " ".join(p for p in (self.help, self.pays) if p)

    def field(self, name: str) -> Field | None:
        return next((f for f in self.fields if f.name == name), None)

    def schema(self) -> dict[str, Any]:
        """The JSON Schema of the order (one of the API's ``oneOf``, by ``type``)."""
        return {
            "type": "object",
            "title": self.label,
            "description": f"{self.label} ({self.cite}).",
            "properties": {
                "type": {"type": "string", "enum": [self.type]},
                **{f.name: f.kind.schema(f) for f in self.fields},
            },
            # a new thing's short name the shell fills when left out (issue 30)
            "required": [
                "type",
                *(f.name for f in self.fields if f.required and not f.kind.defaulted),
            ],
            "additionalProperties": False,
        }

    def words(self, payload: dict[str, Any], words: Words) -> str:
        """The order as a sentence: its ids as names, its choices in words, never its keys."""
        values: dict[str, str] = {}
        for f in self.fields:
            v = payload.get(f.name)
            if v is None or v == "" or v == [] or v is False:
                continue
            values[f.name] = f.kind.words(v, words)
        sentence = self.sentence
        return sentence(values) if callable(sentence) else sentence.format_map(Blanks(values))


# --- sentences -----------------------------------------------------------------------------


class Blanks(dict[str, str]):
    """A field the order lacks reads "?" (an order saved with its errors)."""

    def __missing__(self, key: str) -> str:
        return "?"


def with_parts(text: str, v: dict[str, str], *parts: tuple[str, str]) -> str:
    """``text`` with each ``(field, words)`` added when the order has that field."""
    extra = "".join(words for name, words in parts if name in v)
    return (text + extra).format_map(Blanks(v))


def shown(v: dict[str, str], field: str = "name") -> dict[str, str]:
    """The words with ``shown``: the thing's name if the order gives one, else its id."""
    return {**v, "shown": v.get(field, v.get("id", "?"))}
