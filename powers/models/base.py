"""What every campaign table shares: map positions on the 99 x 99 map, and stockpiles that
never go negative (R-0.2)."""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

COORD: list[MinValueValidator | MaxValueValidator] = [MinValueValidator(1), MaxValueValidator(99)]


def coord_checks(prefix: str, col: str = "col", row: str = "row") -> list[models.CheckConstraint]:
    """Map positions are 1-based column/row up to 99 × 99 (contracts §1)."""
    return [
        models.CheckConstraint(
            condition=Q(
                **{f"{col}__gte": 1, f"{col}__lte": 99, f"{row}__gte": 1, f"{row}__lte": 99}
            ),
            name=f"{prefix}_{col}_{row}_on_map",
            violation_error_message="Column and row must be between 01 and 99.",
        )
    ]


def non_negative(prefix: str, *fields: str) -> list[models.CheckConstraint]:
    """R-0.2: no stockpile or count is ever negative."""
    return [
        models.CheckConstraint(
            condition=Q(**{f"{f}__gte": 0}),
            name=f"{prefix}_{f}_non_negative",
            violation_error_message=f"{f.replace('_', ' ').capitalize()} cannot be negative.",
        )
        for f in fields
    ]
