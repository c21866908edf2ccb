"""The admin's forms for the fleet in words (issue 30, item 7): a position is typed as a hex
``XXYY`` or a star system's name, never as a column and a row; a ``{name: count}`` JSON field
(a craft's damage, its consumables, a design's loadout, a repair's systems) is a number per
system or kind, by name; the powers a group engages are chosen by name. What is stored keeps
its shape (columns and rows, ``{id: count}`` objects, lists of power keys): the engine, the
snapshot and the cases read the same rows as before."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Model
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from economy.engine.hexgrid import Hex
from economy.engine.validate import hex_problem
from powers.db import hex_code
from powers.models import (
    BubbleOutpost,
    BubbleSensor,
    Build,
    Campaign,
    CommandBubble,
    Craft,
    Design,
    FleetGroup,
    Power,
    StarSystem,
    Static,
    catalogue_kinds,
)

Names = Sequence[tuple[str, str]]  # (stored key, what the organiser reads)


def fields_but(model: type[Model], *shown_otherwise: str) -> list[str]:
    """The model's editable fields but those a form shows otherwise (a column and a row as one
    hex): the admin lists any field added to the model later without a change here."""
    return [
        f.name
        for f in model._meta.concrete_fields
        if f.editable and not f.primary_key and f.name not in shown_otherwise
    ]


class CountsWidget(forms.Widget):
    """One number input per name, each labelled with it (``<field>.<key>`` in the POST)."""

    def __init__(self, names: Names = (), empty: str = "", attrs: dict[str, Any] | None = None):
        super().__init__(attrs)
        self.names = list(names)
        self.empty = empty

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        if not self.names:
            return format_html('<span class="help">{}</span>', self.empty)
        given = value if isinstance(value, Mapping) else {}
        return format_html_join(
            " ",
            '<label class="count">{} <input type="number" min="0" name="{}" value="{}" '
            'style="width: 5em"></label>',
            ((label, f"{name}.{key}", given.get(key, 0)) for key, label in self.names),
        )

    def value_from_datadict(self, data: Any, files: Any, name: str) -> dict[str, str]:
        return {key: data.get(f"{name}.{key}", "") for key, _ in self.names}

    def value_omitted_from_data(self, data: Any, files: Any, name: str) -> bool:
        return False  # an empty input is a count of 0, not an omitted field


class CountsField(forms.Field):
    """A ``{key: count}`` object typed as a count per name; zeros are left out, as stored."""

    widget = CountsWidget

    def __init__(self, *, names: Names, empty: str, **kwargs: Any) -> None:
        super().__init__(required=False, widget=CountsWidget(names, empty), **kwargs)
        self.names = list(names)

    def to_python(self, value: Any) -> dict[str, int]:
        if not isinstance(value, Mapping):
            return {}
        counts: dict[str, int] = {}
        for key, label in self.names:
            raw = str(value.get(key, "")).strip() or "0"
            if not raw.isdigit():
                raise ValidationError(f"{label}: give a whole number of at least 0, not {raw!r}.")
            if int(raw):
                counts[key] = int(raw)
        return counts

    def has_changed(self, initial: Any, data: Any) -> bool:
        try:
            return self.to_python(data) != {k: v for k, v in (initial or {}).items() if v}
        except ValidationError:
            return True


class HexField(forms.CharField):
    """A map position: ``XXYY`` (column, row), or the name of one of the campaign's systems."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 60)
        kwargs.setdefault("help_text", "The hex XXYY (e.g. 0310), or a star system's name.")
        super().__init__(**kwargs)


class WordsForm(forms.ModelForm[Any]):
    """Positions as hexes (``positions``: form field -> the model's column and row fields)
    and the counts and choices by name, scoped to the object's campaign."""

    positions: ClassVar[dict[str, tuple[str, str]]] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, (col, row) in self.positions.items():
            if name in self.fields:
                code = hex_code(getattr(self.instance, col), getattr(self.instance, row))
                self.fields[name].initial = code

    def campaign_id(self) -> int | None:
        """The object's campaign; adding one, the campaign chosen (or given as ``?campaign=``)."""
        cid = getattr(self.instance, "campaign_id", None)
        if cid:
            return int(cid)
        raw = self.data.get(self.add_prefix("campaign")) if self.is_bound else None
        raw = str(raw or self.initial.get("campaign") or "")
        return int(raw) if raw.isdigit() else None

    def counts(self, name: str, names: Names, empty: str) -> None:
        """Show model field ``name`` (a ``{key: count}`` object) as a count per name."""
        if name in self.fields:
            old = self.fields[name]
            self.fields[name] = CountsField(
                names=names, empty=empty, label=old.label, help_text=old.help_text
            )

    def catalogue(self, *fields: str) -> None:
        """R-10.1a: counts of the campaign's consumables, by kind."""
        cid = self.campaign_id()
        kinds = [(k, k) for k in catalogue_kinds(cid)] if cid else []
        for name in fields:
            self.counts(name, kinds, "The campaign's consumables catalogue is empty.")

    def design_systems(self, design: Design | None, *fields: str) -> None:
        """Counts of units of the design's systems, by name (their stored key: its id)."""
        names = (
            [(s.key, f"{s.name} (of {s.count})") for s in design.systems.all()] if design else []
        )
        for name in fields:
            self.counts(name, names, "Choose the design and save: then its systems show here.")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for name, (col, row) in self.positions.items():
            code = data.get(name)
            if name in self.errors or name not in self.fields:
                continue
            if not code:
                setattr(self.instance, col, None)
                setattr(self.instance, row, None)
                continue
            try:
                place = self._hex(str(code))
            except ValidationError as exc:
                self.add_error(name, exc)
                continue
            setattr(self.instance, col, place.col)
            setattr(self.instance, row, place.row)
        return data

    def _hex(self, text: str) -> Hex:
        """R-0.5: the hex typed or the system named, on the campaign's map."""
        cid = self._scope_campaign()
        campaign = Campaign.objects.filter(pk=cid).first() if cid else None
        code = text.strip()
        if not code.isdigit() and campaign is not None:  # digits: a hex, right or wrong
            found = list(
                StarSystem.objects.filter(campaign=campaign, name__iexact=code)
                .select_related("hex")
                .order_by("hex__col", "hex__row")
            )
            if len(found) > 1:
                hexes = ", ".join(s.hex.code for s in found)
                raise ValidationError(
                    f"Several systems are called {code!r}: give the hex ({hexes})."
                )
            if not found:
                raise ValidationError(
                    f"{code!r} is neither a hex XXYY nor the name of a system of {campaign}."
                )
            code = found[0].hex.code
        problem = hex_problem(code, campaign.map_bounds() if campaign else None)
        if problem:
            raise ValidationError(problem[0].upper() + problem[1:] + ".")
        return Hex.parse(code)

    def _scope_campaign(self) -> int | None:
        return self.campaign_id()


class CarriedCraftForm(forms.ModelForm[Craft]):
    """A craft added on its group's or static's page: it takes its carrier's power."""

    class Meta:
        model = Craft
        fields = ("key", "design", "crew", "fatigue")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        craft = self.instance
        carrier = craft.group if craft.group_id else craft.static if craft.static_id else None
        if carrier is not None and not craft.power_id:
            craft.power_id = carrier.power_id  # the inline sets the carrier before validation
        return data


class FleetGroupForm(WordsForm):
    hex = HexField(label="Hex")
    positions = {"hex": ("col", "row")}

    class Meta:
        model = FleetGroup
        fields = fields_but(FleetGroup, "col", "row")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "engages" in self.fields:
            cid = self.campaign_id()
            others = Power.objects.filter(campaign_id=cid or 0).exclude(pk=self.instance.power_id)
            old = self.fields["engages"]
            # R-2a: stored as the powers' keys, chosen by name
            self.fields["engages"] = forms.MultipleChoiceField(
                choices=[(p.key, p.name) for p in others],
                required=False,
                label=old.label,
                help_text="The powers it engages this round (R-2a).",
            )


class StaticForm(WordsForm):
    hex = HexField(label="Hex")
    positions = {"hex": ("col", "row")}

    class Meta:
        model = Static
        fields = fields_but(Static, "col", "row")


class CraftForm(WordsForm):
    gantry = HexField(
        label="Gantry hex", required=False, help_text="Empty for none; else XXYY or a system."
    )
    positions = {"gantry": ("gantry_col", "gantry_row")}

    class Meta:
        model = Craft
        fields = fields_but(Craft, "gantry_col", "gantry_row")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        design = self.instance.design if self.instance.design_id else None
        self.design_systems(design, "destroyed", "disabled")
        self.catalogue("consumables", "workshop", "unready")


class DesignForm(WordsForm):
    class Meta:
        model = Design
        fields = fields_but(Design)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.catalogue("loadout")


class BuildForm(WordsForm):
    hex = HexField(
        label="Hex", required=False, help_text="An external build's hex (XXYY or a system)."
    )
    positions = {"hex": ("col", "row")}

    class Meta:
        model = Build
        fields = fields_but(Build, "col", "row", "builders")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.design_systems(self.instance.design if self.instance.design_id else None, "systems")


class CommandBubbleForm(WordsForm):
    hq = HexField(label="HQ hex")
    positions = {"hq": ("hq_col", "hq_row")}

    class Meta:
        model = CommandBubble
        fields = fields_but(CommandBubble, "hq_col", "hq_row")


class _BubbleHexForm(WordsForm):
    """An outpost's or a sensor's hex, on its bubble's campaign's map."""

    hex = HexField(label="Hex")
    positions = {"hex": ("col", "row")}

    def _scope_campaign(self) -> int | None:
        bubble: Model | None = getattr(self.instance, "bubble", None)
        return getattr(bubble, "campaign_id", None)


class OutpostForm(_BubbleHexForm):
    class Meta:
        model = BubbleOutpost
        fields = fields_but(BubbleOutpost, "col", "row")


class SensorForm(_BubbleHexForm):
    class Meta:
        model = BubbleSensor
        fields = fields_but(BubbleSensor, "col", "row")
