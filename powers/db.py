"""Campaign scoping shared by every game model.

Every game object belongs to one campaign and carries a campaign-scoped string ``key`` (its id
in the ``ftcamp-case/1`` JSON, contracts §1). A foreign key between two game objects must stay
inside one campaign: model validation says so with a clear message, and on PostgreSQL a
composite foreign key ``(campaign_id, x_id) -> (campaign_id, id)`` makes it impossible.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar, cast

from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import connection, models

M = TypeVar("M", bound=models.Model)

key_validator = RegexValidator(
    r"^[A-Za-z0-9_.-]+$", "Use letters, digits, '_', '.' or '-' only (no spaces)."
)


def hex_code(col: int | None, row: int | None) -> str:
    """Integer column/row shown as Traveller ``XXYY``."""
    if col is None or row is None:
        return ""
    return f"{col:02d}{row:02d}"


def scoped_unique_id(model_name: str) -> models.UniqueConstraint:
    """The target of composite foreign keys: (campaign, id) is unique."""
    return models.UniqueConstraint(fields=["campaign", "id"], name=f"{model_name}_campaign_id_uniq")


class CampaignScoped(models.Model):
    """Base for game objects: validation keeps every relation inside the object's campaign."""

    class Meta:
        abstract = True

    def _exclude_without_campaign(self, exclude: Iterable[str] | None) -> set[str] | None:
        # Admin inlines leave `campaign` out of the form but set it from the parent; keep
        # validating the campaign-scoped unique constraints (key, hex) against it.
        if exclude is None:
            return None
        exclude = set(exclude)
        if getattr(self, "campaign_id", None) is not None:
            exclude.discard("campaign")
        return exclude

    def validate_unique(self, exclude: Iterable[str] | None = None) -> None:
        super().validate_unique(self._exclude_without_campaign(exclude))

    def validate_constraints(self, exclude: Iterable[str] | None = None) -> None:
        super().validate_constraints(self._exclude_without_campaign(exclude))

    def _scoped_relations(self) -> list[tuple[str, Any]]:
        """(field name, related object) for each set relation to another campaign object."""
        related = []
        for field in self._meta.concrete_fields:
            if not field.is_relation or field.name == "campaign":
                continue
            assert field.related_model is not None  # a relation's
            if not any(f.name == "campaign" for f in field.related_model._meta.concrete_fields):
                continue
            if getattr(self, field.attname) is not None:
                related.append((field.name, getattr(self, field.name)))
        return related

    def clean(self) -> None:
        super().clean()
        relations = self._scoped_relations()
        # An object added inline (a power's system, a hub's node) takes its parent's campaign.
        if getattr(self, "campaign_id", None) is None and relations:
            self.campaign_id = relations[0][1].campaign_id
        errors = {
            name: f"{obj} belongs to another campaign."
            for name, obj in relations
            if obj.campaign_id != self.campaign_id
        }
        if errors:
            raise ValidationError(errors)


def composite_fks(
    *specs: tuple[str, str, str], reverse: bool = False
) -> Callable[[Any, Any], None]:
    """A RunPython function adding composite FKs on PostgreSQL (a no-op on SQLite).

    Each spec is ``(app_label.Model, fk_field, scope_field)``: the pair
    ``(scope_field, fk_field)`` must match ``(scope_field, id)`` of the related row.
    """

    def run(apps: Any, schema_editor: Any) -> None:
        if schema_editor.connection.vendor != "postgresql":
            return
        for label, fk_name, scope in specs:
            model = apps.get_model(label)
            fk = model._meta.get_field(fk_name)
            scope_col = model._meta.get_field(scope).column
            table = model._meta.db_table
            ref = fk.related_model
            ref_scope = ref._meta.get_field(scope).column
            name = f"{table}_{fk.column}_scoped_fk"[:63]
            q = schema_editor.quote_name
            if reverse:
                schema_editor.execute(f"ALTER TABLE {q(table)} DROP CONSTRAINT {q(name)}")
                continue
            schema_editor.execute(
                f"ALTER TABLE {q(table)} ADD CONSTRAINT {q(name)} "
                f"FOREIGN KEY ({q(scope_col)}, {q(fk.column)}) "
                f"REFERENCES {q(ref._meta.db_table)} ({q(ref_scope)}, {q('id')}) "
                "DEFERRABLE INITIALLY DEFERRED"
            )

    return run


#: Field types whose Python values the database driver takes as they are.
_PLAIN = {
    "AutoField",
    "BigAutoField",
    "BigIntegerField",
    "BooleanField",
    "CharField",
    "DecimalField",
    "ForeignKey",
    "IntegerField",
    "OneToOneField",
    "PositiveIntegerField",
    "PositiveSmallIntegerField",
    "SmallIntegerField",
    "TextField",
}


def bulk_update(model: type[M], objs: list[M], fields: list[str]) -> None:
    """``bulk_update`` that stays linear on PostgreSQL: the rows are COPYed into a temporary
    table and applied with one ``UPDATE ... FROM`` (Django's CASE expressions, and even one big
    VALUES list, grow much faster than the rows)."""
    if not objs:
        return
    if connection.vendor != "postgresql":
        model._default_manager.bulk_update(objs, fields, batch_size=500)
        return
    meta = model._meta
    # the fields updated are concrete: each a Field with a column
    cols = [cast("models.Field[Any, Any]", meta.get_field(f)) for f in fields]
    q = connection.ops.quote_name
    table, tmp = q(meta.db_table), q(f"bulk_{meta.db_table}")
    columns = [q(cast(str, c.column)) for c in cols]
    names = ", ".join(columns)
    sets = ", ".join(f"{c} = s.{c}" for c in columns)
    plain = [c.get_internal_type() in _PLAIN for c in cols]
    with connection.cursor() as cur:
        cur.execute(f"DROP TABLE IF EXISTS {tmp}")
        # every name below comes from the model's metadata, quoted: no user input
        cur.execute(f"CREATE TEMP TABLE {tmp} AS SELECT id, {names} FROM {table} WITH NO DATA")  # noqa: S608
        with cur.cursor.copy(f"COPY {tmp} (id, {names}) FROM STDIN") as copy:
            for obj in objs:
                copy.write_row(
                    (
                        obj.pk,
                        *(
                            getattr(obj, c.attname)
                            if fast
                            else c.get_db_prep_save(getattr(obj, c.attname), connection)
                            for c, fast in zip(cols, plain, strict=True)
                        ),
                    )
                )
        cur.execute(f"UPDATE {table} AS t SET {sets} FROM {tmp} AS s WHERE t.id = s.id")  # noqa: S608
        cur.execute(f"DROP TABLE {tmp}")


# --- prepared reads (issue 13): a hot query's text built once from model metadata ---------


def attnames(model: type[models.Model]) -> list[str]:
    """The attribute names of ``model``'s columns, in the order ``select_columns`` lists them
    (what ``Model.from_db`` takes with a row)."""
    return [f.attname for f in model._meta.concrete_fields]


def select_columns(model: type[models.Model], alias: str) -> str:
    """``alias."col", ...`` for every column of ``model``, quoted, in ``attnames`` order."""
    q = connection.ops.quote_name
    return ", ".join(f"{alias}.{q(str(f.column))}" for f in model._meta.concrete_fields)
