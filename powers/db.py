"""Campaign scoping shared by every game model.

Every game object belongs to one campaign and carries a campaign-scoped string ``key`` (its id
in the ``ftcamp-case/1`` JSON, contracts §1). A foreign key between two game objects must stay
inside one campaign: model validation says so with a clear message, and on PostgreSQL a
composite foreign key ``(campaign_id, x_id) -> (campaign_id, id)`` makes it impossible.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from django.core.exceptions import EmptyResultSet, ValidationError
from django.core.validators import RegexValidator
from django.db import connection, models
from django.db.models import Expression
from django.db.models.sql.compiler import SQLCompiler

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


# --- prepared reads (issues 13 and 27) ------------------------------------------------------


class Param(Expression):
    """A named value of a ``Prepared`` query: one placeholder in the SQL, given at each run."""

    def __init__(self, name: str, output_field: models.Field[Any, Any] | None = None) -> None:
        super().__init__(output_field=output_field or models.BigIntegerField())
        self.name = name

    def as_sql(self, compiler: Any, connection: Any) -> Any:
        return "%s", (self,)  # the Param itself stands for its value until a run gives it

    def prepare(self, value: Any) -> Any:
        """``value`` as the database takes it; ``EmptyResultSet`` for an integer no column of
        its type can hold, as the ORM's lookups answer it (SQLite's driver would overflow)."""
        field = self.output_field
        value = field.get_db_prep_value(value, connection)
        if isinstance(value, int):
            low, high = connection.ops.integer_field_range(field.get_internal_type())
            if (low is not None and value < low) or (high is not None and value > high):
                raise EmptyResultSet
        return value


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple[Any, ...]  # a Param where a run's value goes, else the value itself
    compiler: SQLCompiler  # what turns the rows into values and instances, as the ORM does


class Prepared(Generic[M]):
    """A hot query said with the ORM and compiled to SQL once per database, then run with new
    values for its ``Param``s. The ORM writes the SQL, so it is right on SQLite and on
    PostgreSQL alike (issue 27); compiling once saves what the ORM spends building it on every
    call, the larger part of a small query's cost (issue 13: 0.4-0.6 ms for the gate's join or
    the round lock, 1.5 ms for the four EXISTS of ``_any_pact``, against 0.04-0.17 ms to run
    them; ``bench/orders.py``)."""

    def __init__(self, build: Callable[[], models.QuerySet[M, Any]]) -> None:
        self._build = build
        self._compiled: dict[tuple[str, str], _Compiled] = {}

    def _compile(self) -> _Compiled:
        key = (connection.alias, connection.vendor)
        hit = self._compiled.get(key)
        if hit is None:
            compiler = self._build().query.get_compiler(using=connection.alias)
            sql, params = compiler.as_sql()
            hit = self._compiled[key] = _Compiled(sql, tuple(params), compiler)
        return hit

    def _fetch(self, values: dict[str, Any]) -> tuple[_Compiled, list[tuple[Any, ...]]]:
        c = self._compile()
        try:
            params = [p.prepare(values[p.name]) if isinstance(p, Param) else p for p in c.params]
        except EmptyResultSet:
            return c, []
        with connection.cursor() as cur:
            cur.execute(c.sql, params)
            rows = cur.fetchall()
        return c, [tuple(row) for row in c.compiler.results_iter(results=[rows])]

    def rows(self, **values: Any) -> list[tuple[Any, ...]]:
        """The rows of a ``values_list`` query, each value converted as the ORM converts it."""
        return self._fetch(values)[1]

    def first(self, **values: Any) -> M | None:
        """The first row as a model instance, with its ``select_related`` objects cached on it
        (as ``QuerySet.first()`` gives it)."""
        c, rows = self._fetch(values)
        if not rows:
            return None
        info = c.compiler.klass_info
        assert info is not None  # a query of model instances
        return cast(M, _instance(info, c.compiler.select, rows[0]))


def _instance(info: dict[str, Any], select: Any, row: tuple[Any, ...]) -> models.Model | None:
    """One object of a compiled query's row, and its related objects (Django's ModelIterable and
    RelatedPopulator, for a prepared row)."""
    fields = info["select_fields"]
    start, end = fields[0], fields[-1] + 1
    names = [col[0].target.attname for col in select[start:end]]
    obj = cast(models.Model, info["model"]).from_db(connection.alias, names, row[start:end])
    if obj.pk is None:  # a nullable relation with nothing at its end
        return None
    for rel in info.get("related_klass_infos", []):
        related = _instance(rel, select, row)
        rel["local_setter"](obj, related)
        if related is not None:
            rel["remote_setter"](related, obj)
    return obj
