"""Texts players read: the services' and the engine's ``field: problem`` messages with the
field named as the pages name it, never by its internal key (issue 10: no "a_amount: ...").
The API keeps the keys (they are its documented field names)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from economy.engine.orders import SPECS

# One label per field key across order types (the forms' own label where there is one).
ORDER_LABELS: dict[str, str] = {}
for _spec in SPECS.values():
    for _field in _spec.fields:
        ORDER_LABELS.setdefault(_field.name, _field.label)
ORDER_LABELS.update(
    {
        "id": "New id",
        "to": "To",
        "from": "From",
        "into": "Into",
        "at": "At",
        "order": "Order",
        "type": "Order type",
        "position": "Position",
        "round": "Round",
        # names several order types use, as the first form that had them labels them
        "group": "Group",
        "source": "From builder or cargo craft",
        "target": "Craft to restock",
    }
)

_PREFIX = re.compile(r"^([a-z][a-z_]*): ")
# field keys of two words, when a message names one in passing ("must differ from from_hub")
_KEY_WORDS = sorted({k for k in ORDER_LABELS if "_" in k} - set(SPECS), key=len)
_KEY_WORD = re.compile(
    r"(?<![\w'-])(" + "|".join(map(re.escape, _KEY_WORDS[::-1])) + r")(?![\w'-])"
)


def _spaced(match: re.Match[str]) -> str:
    return ORDER_LABELS[match.group(1)].lower()


def plain(text: str, labels: Mapping[str, str] = ORDER_LABELS) -> str:
    """One message with its leading field key as the field's label and any other
    ``snake_case`` key as words: ``to_hub: must differ from from_hub`` -> ``To hub: must
    differ from from hub``. A message about the whole order loses its prefix."""
    parts = []
    for part in text.split("; "):
        match = _PREFIX.match(part)
        if match and match.group(1) in labels:
            rest = part[match.end() :]
            label = labels[match.group(1)]
            part = rest if match.group(1) == "order" else f"{label}: {rest}"
        parts.append(_KEY_WORD.sub(_spaced, part))
    return "; ".join(parts)


def plain_all(errors: Iterable[str], labels: Mapping[str, str] = ORDER_LABELS) -> list[str]:
    return [plain(e, labels) for e in errors]


def labels_for(kind: str) -> dict[str, str]:
    """The labels of one order type's form, over the general ones."""
    spec = SPECS.get(kind)
    own = {f.name: f.label for f in spec.fields} if spec else {}
    return {**ORDER_LABELS, **own}
