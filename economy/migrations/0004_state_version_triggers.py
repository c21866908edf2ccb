"""Issue 13: every write to a table the campaign's state is read from bumps the state version
of the campaign's live round, in the same transaction, by PostgreSQL statement triggers (bulk
writes, the admin and raw SQL included). ``economy.snapshot.round_state`` caches the parsed
state under (round, version). Elsewhere than PostgreSQL nothing is installed and nothing is
cached."""

from __future__ import annotations

from typing import Any

from django.db import migrations

# The tables of these apps hold the state (economy.snapshot), but these few.
STATE_APPS = ("powers", "trade")
NOT_STATE = {
    "powers.membership",
    "powers.invitation",  # issue 18: who is asked to play, not the state
    "trade.routejob",
    "trade.agreementevent",
    "trade.ratehistory",
}
EVENTS = (("ins", "INSERT", "NEW"), ("upd", "UPDATE", "NEW"), ("del", "DELETE", "OLD"))

FUNCTION = """
CREATE OR REPLACE FUNCTION ftcamp_state_written() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- TG_ARGV: the campaign column of the changed rows, or (parent table, foreign key)
    IF TG_NARGS = 1 THEN
        EXECUTE format(
            'UPDATE economy_round SET state_version = state_version + 1 '
            'WHERE status IN (''open'', ''resolving'') '
            'AND campaign_id IN (SELECT %I FROM changed)', TG_ARGV[0]);
    ELSE
        EXECUTE format(
            'UPDATE economy_round SET state_version = state_version + 1 '
            'WHERE status IN (''open'', ''resolving'') AND campaign_id IN '
            '(SELECT p.campaign_id FROM %I p JOIN changed c ON p.id = c.%I)',
            TG_ARGV[0], TG_ARGV[1]);
    END IF;
    RETURN NULL;
END
$$;
"""


def state_tables(apps: Any) -> list[tuple[str, list[str]]]:
    """Each state table and the trigger's arguments: how to find its campaign."""
    out = []
    for label in STATE_APPS:
        for model in apps.get_app_config(label).get_models():
            if model._meta.label_lower in NOT_STATE:
                continue
            fields = {f.name: f for f in model._meta.concrete_fields}
            if model._meta.label_lower == "powers.campaign":
                args = ["id"]
            elif "campaign" in fields:
                args = [fields["campaign"].column]
            else:  # a child row: its parent's campaign (a hub's links, a design's systems)
                parent = next(
                    f
                    for f in model._meta.concrete_fields
                    if f.is_relation
                    and "campaign" in {g.name for g in f.related_model._meta.concrete_fields}
                )
                args = [parent.related_model._meta.db_table, parent.column]
            out.append((model._meta.db_table, args))
    return out


def install(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(FUNCTION, params=None)  # its % are format()'s, not parameters
    for table, args in state_tables(apps):
        quoted = ", ".join(f"'{a}'" for a in args)
        for suffix, event, which in EVENTS:
            schema_editor.execute(
                f'CREATE TRIGGER "ftcamp_state_{suffix}" AFTER {event} ON "{table}" '
                f"REFERENCING {which} TABLE AS changed FOR EACH STATEMENT "
                f"EXECUTE FUNCTION ftcamp_state_written({quoted})"
            )


def uninstall(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    for table, _ in state_tables(apps):
        for suffix, _, _ in EVENTS:
            schema_editor.execute(f'DROP TRIGGER IF EXISTS "ftcamp_state_{suffix}" ON "{table}"')
    schema_editor.execute("DROP FUNCTION IF EXISTS ftcamp_state_written()")


class Migration(migrations.Migration):
    dependencies = [
        ("economy", "0003_round_state_version"),
        ("powers", "0006_fleet_scoped_fks"),
        ("trade", "0010_tradehub_name"),
    ]

    operations = [migrations.RunPython(install, uninstall)]
