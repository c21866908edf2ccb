"""Template filters for words players read: ``{{ message|plain }}`` (a ``field: problem`` message,
economy.texts), ``{{ key|edge }}`` and ``{{ key|resource }}`` (economy.events)."""

from typing import Any

from django import template

from economy.events import EDGES, hub_name, numbered, resource_word, shipment_name
from economy.texts import plain as plain_text

register = template.Library()


@register.filter
def plain(text: str) -> str:
    return plain_text(str(text))


@register.filter
def edge(key: str) -> str:
    """A market edge in words: ``ore>bio`` -> "Ore → Bio" (R-6.1)."""
    return EDGES.get(str(key), str(key))


@register.filter
def resource(key: str) -> str:
    """A resource in words: ``pl`` -> "PL"."""
    return resource_word(str(key))


@register.filter
def hub(obj: Any, power_key: str) -> str:
    """A hub (a ``TradeHub`` of the power ``power_key``) by its name, never its key."""
    return hub_name(obj.key, obj.name, [power_key]) if obj else ""


@register.filter
def shipment(key: str) -> str:
    """A shipment by its number and round, never its key."""
    return shipment_name(str(key))


@register.filter
def number(key: str) -> str:
    """An agreement's or a motion's number (``agreement.7`` -> "7")."""
    return numbered(str(key))
