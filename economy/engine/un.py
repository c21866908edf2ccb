"""The UN Meeting, the last step of a round (R-2): the Common Market Report (Resource §4.1,
R-6.3) and the UN Monetary Committee's motions (R-6.4).

The committee is every power with ``un_member``. A motion passes with more yes votes than half
of all members; a motion aimed at one power (a tax on it, a market ban) instead needs a yes from
every member except that power. A rate motion passes only at a report round (3, 6, 9, …).
Passed motions change the market of the resulting state, so they take effect from the next
round; they apply in motion id order (a later one on the same edge wins).
"""

from __future__ import annotations

from decimal import ROUND_DOWN, Decimal
from typing import Any

from .codec import dump_motion, parse_decimal
from .state import EDGES, Market, Motion
from .world import World

STEP = "un"
REPORT_EVERY = 3  # Resource §4.1: a Common Market Report every three rounds
PERIOD = REPORT_EVERY  # rounds of production a report's supply counts
REFERENCE_SHARE = Decimal("0.1")  # demand share at which the suggested rate stays put
BAND = Decimal("0.25")  # the suggestion moves at most ±25 % per report
PLACES = Decimal("0.0001")
MAX_RATE = 10_000  # an entry bound: the database keeps rates below 10^8
BOUGHT = {"ore>bio": "bio", "bio>gal": "gal", "gal>ore": "ore"}  # what an edge buys


def is_report_round(round_number: int) -> bool:
    """R-6.3: the UN Meeting of rounds 3, 6, 9, … holds a Common Market Report."""
    return round_number % REPORT_EVERY == 0


def next_report_round(round_number: int) -> int:
    """R-6.3: this round if it holds a report, else the next that does."""
    return -(-round_number // REPORT_EVERY) * REPORT_EVERY


def suggested_rate(rate: Decimal, volume: int, production: int) -> Decimal:
    """R-6.3: the supply-demand rule for one edge.

    ``volume`` units were sold along the edge since the last report, so about
    ``volume x rate`` units of the bought resource were demanded; ``production`` is that
    resource's total production across all systems in one round, so the supply over the
    period is ``production x 3``. With the demand share ``s = volume x rate / max(1, supply)``
    the suggestion is ``rate x (1 + 0.1) / (1 + s)``: demand above a tenth of the supply makes
    the bought resource dearer (fewer units per unit sold), less demand makes it cheaper. The
    result is kept within ``rate x [0.75, 1.25]`` and rounded down to 4 places; a zero rate
    stays zero (only a motion can reopen an edge).
    """
    if rate <= 0:
        return Decimal("0.0000")
    supply = Decimal(max(1, production * PERIOD))
    share = Decimal(volume) * rate / supply
    raw = rate * (1 + REFERENCE_SHARE) / (1 + share)
    low, high = rate * (1 - BAND), rate * (1 + BAND)
    return min(high, max(low, raw)).quantize(PLACES, rounding=ROUND_DOWN)


def production_totals(world: World) -> dict[str, int]:
    """R-6.3: this round's production of Ore, Bio and Gal across all systems (R-4.1 lines)."""
    totals = {"ore": 0, "bio": 0, "gal": 0}
    for line in world.books.lines:
        if line.rule == "R-4.1" and line.resource in totals and line.amount > 0:
            totals[line.resource] += line.amount
    return totals


def market_report(market: Market, round_number: int, production: dict[str, int]) -> dict[str, Any]:
    """R-6.3: per edge the volume since the last report, the rate, tax and suggested rate."""
    return {
        "round": round_number,
        "production": dict(production),
        "edges": {
            e: {
                "volume": market.volume.get(e, 0),
                "rate": f"{market.rates[e]:.4f}",
                "tax": f"{market.tax[e]:.4f}",
                "suggested": str(
                    suggested_rate(market.rates[e], market.volume.get(e, 0), production[BOUGHT[e]])
                ),
            }
            for e in EDGES
        },
    }


def tally(motion: Motion, members: list[str]) -> dict[str, int]:
    """Counted votes: one per member (R-6.4); a non-member's vote is not counted."""
    counted = [motion.votes.get(m) for m in members]
    return {v: counted.count(v) for v in ("yes", "no", "abstain")}


def decide(motion: Motion, members: list[str], round_number: int) -> tuple[bool, str]:
    """R-6.4: whether the motion passes, and why (or why not)."""
    if motion.by not in members:
        return False, f"{motion.by} is not a member of the committee"
    if motion.kind == "rate" and not is_report_round(round_number):
        return False, (
            f"round {round_number} is not a Common Market Report round; rate motions pass only "
            f"at rounds 3, 6, 9, … (R-6.3)"
        )
    votes = tally(motion, members)
    if motion.kind in ("tax", "ban") and motion.power is not None:
        needed = [m for m in members if m != motion.power]
        missing = [m for m in needed if motion.votes.get(m) != "yes"]
        if not needed or missing:
            return False, (
                f"aimed at {motion.power}: needs a yes from every other member; "
                f"{', '.join(missing) or 'there are none'} did not vote yes (R-6.4)"
            )
        return True, f"every member except {motion.power} voted yes (R-6.4)"
    if votes["yes"] * 2 > len(members):
        return True, f"{votes['yes']} of {len(members)} members voted yes (R-6.4)"
    return False, f"{votes['yes']} of {len(members)} members voted yes, more than half needed"


def apply(market: Market, motion: Motion) -> str:
    """Change the market as a passed motion says; returns what changed, for the event."""
    edges = list(EDGES) if motion.edge == "all" else [str(motion.edge)]
    if motion.kind == "rate":
        market.rates[str(motion.edge)] = Decimal(str(motion.value))
        return f"rate {motion.edge} = {motion.value}"
    if motion.kind == "tax":
        value = Decimal(str(motion.value))
        for e in edges:
            if motion.power is None:
                market.tax[e] = value
            else:
                market.power_tax.setdefault(motion.power, {})[e] = value
        whom = f" on {motion.power}" if motion.power else ""
        return f"tax{whom} {', '.join(edges)} = {value}"
    if motion.kind == "lift_tax":
        for e in edges:
            if motion.power is None:
                market.tax[e] = Decimal(0)
            else:
                market.power_tax.get(motion.power, {}).pop(e, None)
        if motion.power is not None and not market.power_tax.get(motion.power, True):
            del market.power_tax[motion.power]
        whom = f" on {motion.power}" if motion.power else ""
        return f"tax{whom} {', '.join(edges)} lifted"
    if motion.kind == "ban":
        market.banned = sorted({*market.banned, str(motion.power)})
        return f"{motion.power} banned from the Common Market"
    market.banned = [p for p in market.banned if p != motion.power]
    return f"{motion.power} may use the Common Market again"


def meeting(world: World) -> None:
    """R-2, R-6.3, R-6.4: the report (volumes reset), then every motion in id order."""
    world.books.step = STEP
    market = world.state.market
    members = sorted(p.id for p in world.state.powers if p.un_member)
    report = None
    if is_report_round(world.round):
        report = market_report(market, world.round, production_totals(world))
        market.volume = dict.fromkeys(EDGES, 0)
        world.books.event("un.market_report", step=STEP, public=True, round=world.round)
    decided = []
    for motion in sorted(world.state.motions, key=lambda m: m.id):
        passed, reason = decide(motion, members, world.round)
        entry = {**dump_motion(motion), **tally(motion, members), "passed": passed}
        entry["reason"] = reason
        if passed:
            entry["effect"] = apply(market, motion)
        decided.append(entry)
        world.books.event(
            "un.motion",
            step=STEP,
            public=True,
            motion=motion.id,
            motion_kind=motion.kind,
            passed=passed,
            effect=entry.get("effect", ""),
            reason=reason,
        )
    world.state.motions = []
    world.un_meeting = {
        "round": world.round,
        "members": members,
        "motions": decided,
        "report": report,
    }


def motion_errors(fields: dict[str, Any], powers: set[str]) -> list[str]:
    """Entry checks of a motion (R-6.4), each naming its field; empty when it may be put to
    the committee. The same rules as the codec's, for forms and the API."""
    errors = []
    kind = fields.get("kind")
    if kind not in ("rate", "tax", "lift_tax", "ban", "unban"):
        return [f"kind: expected one of rate, tax, lift_tax, ban, unban, got {kind!r}"]
    edge, power = fields.get("edge"), fields.get("power")
    if kind == "rate":
        if edge not in EDGES:
            errors.append(f"edge: expected one of {', '.join(EDGES)}, got {edge!r}")
        value = parse_decimal(fields.get("rate"))
        if value is None or not 0 <= value <= MAX_RATE:
            errors.append(
                f"rate: expected a decimal 0..{MAX_RATE} with at most 4 places, "
                f"got {fields.get('rate')!r}"
            )
    elif kind in ("tax", "lift_tax"):
        if edge not in (*EDGES, "all"):
            errors.append(f"edge: expected one of {', '.join(EDGES)}, all, got {edge!r}")
        if power is not None and power not in powers:
            errors.append(f"power: unknown power {power!r}")
        if kind == "tax":
            value = parse_decimal(fields.get("tax"))
            if value is None or not 0 <= value <= 1:
                errors.append(
                    f"tax: expected a decimal 0..1 with at most 4 places, got {fields.get('tax')!r}"
                )
    elif power not in powers:
        errors.append(f"power: unknown power {power!r}")
    return errors
