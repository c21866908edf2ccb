"""The order chooser (issue 30): the order types grouped by the part of the round that applies
them, in the rules' order (R-2, R-2c), those a power cannot use now set apart with the reason.

Pure: each type's group comes from its declared step (``OrderSpec.step``), and the groups'
and types' order from the engine's own ``STEPS``, so a new order type needs no line here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from economy.engine.orders import SPECS, OrderSpec
from economy.engine.resolve import STEPS

#: the chooser's groups, each a title and the engine steps it covers by section ("support.4.1"
#: covers "support.4.1.1" and "support.4.1.2"), in the round's order: the fleet declarations,
#: the Resource Phase (seed 000 §1-§5), then the Support Phase's sections (seed 001 §1-§7)
PHASES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Fleet Orders", ("fleet",)),
    ("Resource Phase: loyalty and production", ("resource.1", "resource.2", "resource.3")),
    ("Resource Phase: the market and trade", ("resource.4", "resource.5")),
    ("Support Phase: construction and restocking", ("support.1", "support.2")),
    ("Support Phase: troops, crew and supply", ("support.3",)),
    ("Support Phase: trade hubs and the guild", ("support.4.1", "support.4.2")),
    ("Support Phase: Primary systems", ("support.4 primaries",)),
    ("Support Phase: research", ("support.4.3",)),
    ("Support Phase: diplomats", ("support.4.4",)),
    ("Support Phase: command", ("support.5",)),
    ("Support Phase: planetary projects and tidying up", ("support.6", "support.7")),
)

_ORDER = {name: i for i, (name, _) in enumerate(STEPS)}


def covers(section: str, step: str) -> bool:
    """Whether ``step`` is ``section`` or one of its parts ("support.1 aboard", "support.4.1.1");
    "support.4 primaries" is not part of "support.4.1"."""
    return step == section or step.startswith((section + ".", section + " "))


def phase_of(step: str) -> str:
    """The title of the one group an engine step falls in."""
    found = [title for title, sections in PHASES if any(covers(s, step) for s in sections)]
    if len(found) != 1:
        raise LookupError(f"step {step!r} falls in {len(found)} of the chooser's groups")
    return found[0]


@dataclass(frozen=True)
class Choice:
    spec: OrderSpec
    why: str = ""  # why the power cannot use it now ("" when it can)
    group: str = ""

    @property
    def words(self) -> str:
        """What the search box matches: the group, the label and the paragraph, in words."""
        return f"{self.group} {self.spec.label} {self.spec.about}"


@dataclass(frozen=True)
class Group:
    title: str
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class Chooser:
    groups: tuple[Group, ...]  # what the select offers, by phase (empty groups left out)
    unavailable: tuple[Choice, ...]  # listed apart, in the same order, each with its reason


def grouped(specs: Iterable[OrderSpec] | None = None) -> tuple[tuple[str, list[OrderSpec]], ...]:
    """Every order type in its group, groups and types in the order the round applies them
    (types of one step keep the table's order)."""
    by_phase: dict[str, list[OrderSpec]] = {title: [] for title, _ in PHASES}
    for spec in sorted(SPECS.values() if specs is None else specs, key=lambda s: _ORDER[s.step]):
        by_phase[phase_of(spec.step)].append(spec)
    return tuple(by_phase.items())


def choose(why: Mapping[str, str], current: str = "") -> Chooser:
    """The chooser for a power: ``why`` names the types it cannot use now with the reason
    (``economy.selectors.unavailable``). The ``current`` type (an order being edited) stays in
    the select, with its reason, so saving the order keeps its type."""
    groups: list[Group] = []
    apart: list[Choice] = []
    for title, specs in grouped():
        offered: list[Choice] = []
        for spec in specs:
            choice = Choice(spec, why.get(spec.type, ""), title)
            if choice.why and spec.type != current:
                apart.append(choice)
            else:
                offered.append(choice)
        if offered:
            groups.append(Group(title, tuple(offered)))
    return Chooser(tuple(groups), tuple(apart))
