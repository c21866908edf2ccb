"""A battle record's craft lines (R-10.6): their shape checked as entered, and the text
shortcut players may type them in (``craft_from_text``) and read them back in (``craft_text``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from powers.models import BattleParty, BattleRecord

MAX_CRAFT = 200  # craft lines in one record
MAX_UNITS = 10_000  # units of one system, CF lost
KEY_LENGTH = 64
REASON_LENGTH = 300
Answer = BattleParty.Answer
Status = BattleRecord.Status


@dataclass(frozen=True)
class Entry:
    """One craft line of a record, as entered (contract shape of R-10.6's ``craft`` items)."""

    craft: str
    destroyed: bool = False
    systems_destroyed: dict[str, int] | None = None
    systems_disabled: dict[str, int] | None = None
    cf_lost: int = 0
    captured_by: str | None = None
    into: str | None = None

    def as_contract(self) -> dict[str, Any]:
        """The line as a record's ``craft`` item in the contract (R-10.6)."""
        item: dict[str, Any] = {"craft": self.craft, "destroyed": self.destroyed}
        item["cf_lost"] = self.cf_lost
        if self.systems_destroyed is not None or self.systems_disabled is not None:
            item["systems_destroyed"] = self.systems_destroyed or {}
            item["systems_disabled"] = self.systems_disabled or {}
        if self.captured_by:
            item.update(captured_by=self.captured_by, into=self.into)
        return item


def _counts(where: str, value: Any) -> tuple[dict[str, int] | None, list[str]]:
    if value is None:
        return None, []
    if not isinstance(value, dict) or len(value) > MAX_CRAFT:
        return None, [f"{where}: expected {{system id: units}}"]
    out: dict[str, int] = {}
    for sid, n in value.items():
        ok = isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= MAX_UNITS
        if not (isinstance(sid, str) and 0 < len(sid) <= KEY_LENGTH) or not ok:
            return None, [f"{where}: expected {{system id: units 0..{MAX_UNITS}}}"]
        out[sid] = n
    return out, []


def parse_entries(raw: Any, powers: list[str]) -> tuple[list[Entry], list[str]]:
    """The craft lines of a record in the contract's shape, or ``craft[i].field: problem``."""
    if not isinstance(raw, list) or not raw or len(raw) > MAX_CRAFT:
        return [], [f"craft: expected a list of 1..{MAX_CRAFT} craft"]
    entries: list[Entry] = []
    errors: list[str] = []
    seen: set[str] = set()
    for i, item in enumerate(raw):
        at = f"craft: #{i + 1}"
        if not isinstance(item, dict):
            errors.append(f"{at}: expected an object")
            continue
        unknown = sorted(
            str(k)[:40]
            for k in item
            if k
            not in (
                "craft",
                "destroyed",
                "systems_destroyed",
                "systems_disabled",
                "cf_lost",
                "captured_by",
                "into",
            )
        )
        errors += [f"{at}, {k}: not a field of a battle record's craft" for k in unknown]
        key = item.get("craft")
        if not isinstance(key, str) or not 0 < len(key) <= KEY_LENGTH:
            errors.append(f"{at}, craft: expected a craft id")
            continue
        if key in seen:
            errors.append(f"{at}, craft: {key} is listed twice")
        seen.add(key)
        destroyed = item.get("destroyed", False)
        if not isinstance(destroyed, bool):
            errors.append(f"{at}, destroyed: expected true or false")
        lost, e1 = _counts(f"{at}, systems_destroyed", item.get("systems_destroyed"))
        disabled, e2 = _counts(f"{at}, systems_disabled", item.get("systems_disabled"))
        errors += e1 + e2
        cf = item.get("cf_lost", 0)
        if isinstance(cf, bool) or not isinstance(cf, int) or not 0 <= cf <= MAX_UNITS:
            errors.append(f"{at}, cf_lost: expected an integer 0..{MAX_UNITS}")
        captor, into = item.get("captured_by"), item.get("into")
        if captor is not None:
            if captor not in powers:
                errors.append(f"{at}, captured_by: one of the powers in the battle")
            elif destroyed is True:
                errors.append(f"{at}, captured_by: a destroyed craft is not captured")
            if not isinstance(into, str) or not 0 < len(into) <= KEY_LENGTH:
                errors.append(f"{at}, into: the captor's group or static (or a new id)")
        elif into is not None:
            errors.append(f"{at}, into: only for a captured craft")
        if not errors:
            entries.append(Entry(key, destroyed, lost, disabled, cf, captor, into))
    return entries, errors


CRAFT_HELP = (
    "one craft a line: its id, then any of 'destroyed', 'lost <system>=<units> …' (systems "
    "destroyed), 'disabled <system>=<units> …', 'cf <CF lost>', 'captured <power> into "
    "<group or static>'; e.g. 'p1-f2 lost b1=1 disabled hull=2 cf 1'"
)


def craft_from_text(text: str) -> list[Any]:
    """The page's craft lines in the contract's shape; what does not parse is passed on as
    typed, so ``parse_entries`` names the line and the field."""
    out: list[Any] = []
    for line in (x.strip() for x in text.splitlines()[: MAX_CRAFT + 1]):
        if not line:
            continue
        words = line.split()
        item: dict[str, Any] = {"craft": words[0]}
        field = ""
        i = 1
        while i < len(words):
            w = words[i]
            if w == "destroyed":
                item["destroyed"] = True
            elif w in ("lost", "disabled"):
                field = "systems_destroyed" if w == "lost" else "systems_disabled"
                item.setdefault(field, {})
            elif w == "cf" and i + 1 < len(words):
                i += 1
                item["cf_lost"] = int(words[i]) if words[i].isdigit() else words[i]
            elif w == "captured" and i + 3 < len(words) and words[i + 2] == "into":
                item["captured_by"], item["into"] = words[i + 1], words[i + 3]
                i += 3
            elif "=" in w and field:
                sid, _, n = w.partition("=")
                item[field][sid] = int(n) if n.isdigit() else n
            else:
                item[w[:40]] = True  # an unknown word: named as a field that does not exist
            i += 1
        out.append(item)
    return out


def craft_text(craft: list[dict[str, Any]]) -> str:
    """A record's craft lines as the page's text (to amend it)."""
    lines = []
    for c in craft:
        words = [c["craft"]] + (["destroyed"] if c["destroyed"] else [])
        for field, word in (("systems_destroyed", "lost"), ("systems_disabled", "disabled")):
            if c[field]:
                words += [word] + [f"{k}={n}" for k, n in c[field].items()]
        words += [f"cf {c['cf_lost']}"] if c["cf_lost"] else []
        if c["captured_by"]:
            words += ["captured", c["captured_by"], "into", c["into"]]
        lines.append(" ".join(words))
    return "\n".join(lines)
