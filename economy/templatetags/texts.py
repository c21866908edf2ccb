"""``{{ message|plain }}``: a ``field: problem`` message as players read it (economy.texts)."""

from django import template

from economy.texts import plain as plain_text

register = template.Library()


@register.filter
def plain(text: str) -> str:
    return plain_text(str(text))
