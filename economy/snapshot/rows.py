"""Writing rows in bulk, for the saving side of the snapshot (``save.py``, ``command.py``): make
a campaign's rows of one model equal what the state wants (``sync``), delete rows in a number
of statements that does not grow with them (``delete_rows``, ``drop``), rows by their
campaign-scoped key (``by_key``), and a hex code as its column and row (``xy``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from django.db import models
from django.db.models import signals
from django.db.models.deletion import Collector
from django.db.models.fields.reverse_related import ManyToOneRel

from powers.db import bulk_update
from powers.models import Campaign

M = TypeVar("M", bound=models.Model)


def xy(code: str) -> tuple[int, int]:
    """A hex code as its column and row: ``"0304"`` -> ``(3, 4)``."""
    return int(code[:2]), int(code[2:])


def sync(
    model: type[M],
    campaign: Campaign,
    desired: dict[Any, dict[str, Any]],
    existing: dict[Any, M],
    *,
    delete: bool = True,
) -> dict[Any, M]:
    """Make the campaign's rows of ``model`` equal ``desired`` (by identity); returns all rows
    by identity. Deletes first, so unique positions can move between rows."""
    stale = [obj.pk for ident, obj in existing.items() if ident not in desired]
    if delete:
        delete_rows(model, stale)
    fields = sorted({f for values in desired.values() for f in values})
    changed, created, out = [], [], {}
    for ident, values in desired.items():
        obj = existing.get(ident)
        if obj is None:
            obj = model(campaign=campaign, **values)
            created.append(obj)
        elif any(getattr(obj, f) != v for f, v in values.items()):
            for f, v in values.items():
                setattr(obj, f, v)
            changed.append(obj)
        out[ident] = obj
    if changed:
        bulk_update(model, changed, fields)
    if created:
        model._default_manager.bulk_create(created, batch_size=1000)
    return out


def drop(model: type[models.Model], stale: list[Any]) -> None:
    """Delete these rows (no query when there are none)."""
    delete_rows(model, [obj.pk for obj in stale])


def delete_rows(model: type[models.Model], pks: list[Any]) -> None:
    """Delete these rows by primary key, in a number of statements that does not grow with
    them (none when there are none). Django's ``delete()`` collects rows that other rows
    reference and deletes them 100 keys per statement, so a large round took more queries to
    save than a small one (issue 13). Where every reference is a cascade from rows that nothing
    references in turn (a hub's links, a build's builders), those go first, one statement
    each, then the rows in one; anything else (PROTECT, SET_NULL, deeper cascades, delete
    signals, inheritance) keeps Django's ``delete()``, as do rows that nothing references (one
    statement already)."""
    if not pks:
        return
    rows = model._default_manager.filter(pk__in=pks)
    # every foreign key to the model, one-to-one included, hidden ones too (related_name="+")
    refs = [r for r in model._meta.get_fields(include_hidden=True) if isinstance(r, ManyToOneRel)]
    dependents = [
        r.related_model._base_manager.filter(**{f"{r.field.name}__in": pks})
        for r in refs
        if r.on_delete is models.CASCADE
    ]
    collector = Collector(rows.db)
    plain = (
        dependents
        and len(dependents) == len(refs)
        and all(r.field_name == model._meta.pk.name for r in refs)  # keys are primary keys
        and all(collector.can_fast_delete(d) for d in dependents)
        and not (model._meta.parents or model._meta.private_fields)
        and not signals.pre_delete.has_listeners(model)
        and not signals.post_delete.has_listeners(model)
    )
    if not plain:
        rows.delete()
        return
    for dependent in dependents:
        dependent.delete()  # one statement: nothing references it, no signal
    rows._raw_delete(rows.db)


def by_key(qs: Iterable[Any]) -> dict[str, Any]:
    return {obj.key: obj for obj in qs}
