"""Support §1.6: craft changing hands by agreement — loans (§1.6.1), transfers (§1.6.2) — and
design study (§1.6.3) (R-10.5, R-10.5a, R-10.7: a transfer takes effect in §1)."""

from __future__ import annotations

from typing import Any

from .designs import pl_per_cf
from .owners import end_work, entangled, give_carrier
from .pacts import Loan, Transfer
from .rules import hex_distance
from .state import Craft, Design, Group, Order, Static, System
from .validate import state_ids
from .world import World
from .yard import idle

STEP = "support.1.6"


def hand_over(world: World) -> None:
    """Support §1.6 at the end of §1: loans accepted take effect, transfers are made, and
    studied designs are registered (usable from the next round)."""
    world.books.step = STEP
    fleet = world.navy.fleet
    for loan in sorted(fleet.loans, key=lambda x: x.id):
        if not loan.active:
            _lend(world, loan)
    for transfer in sorted(fleet.transfers, key=lambda t: t.id):
        _transfer(world, transfer)
    fleet.transfers = []
    _study(world)
    world.navy.reindex()
    world.reindex_groups()


def _carriers(world: World, ids: list[str] | tuple[str, ...]) -> list[Group | Static]:
    return [c for i in ids if (c := world.groups.get(i) or world.statics.get(i)) is not None]


def _blocked(world: World, carriers: list[Group | Static], owner: str) -> str | None:
    """Why these carriers cannot change hands: not the owner's, or their craft entangled with
    work in progress or craft in orbit (they would be split between owners)."""
    for carrier in carriers:
        if carrier.power != owner:
            return f"{carrier.id} is not {owner}'s"
        for craft in world.navy.members(carrier):
            if why := entangled(world, craft):
                return why
    return None


def _failed(world: World, kind: str, ident: str, owner: str, other: str, why: str) -> None:
    """Why a loan or transfer was not made: the owner is told; the other party only that it
    was not (the owner's work in progress is none of its business)."""
    told: dict[str, Any] = {kind: ident, "why": why}
    world.books.event(f"{kind}.failed", powers=(owner,), **told)
    told["why"] = f"{owner} could not hand the craft over"
    world.books.event(f"{kind}.failed", powers=(other,), **told)


def _lend(world: World, loan: Loan) -> None:
    """Support 1.6.1, R-10.5a: the groups, their craft with the owner's crew aboard, and their
    EP pass to the borrower, who gives their orders until the loan ends."""
    groups = _carriers(world, loan.groups)
    why = _blocked(world, groups, loan.owner)
    if why:
        world.navy.fleet.loans.remove(loan)
        _failed(world, "loan", loan.id, loan.owner, loan.borrower, why)
        return
    for group in groups:
        give_carrier(world, group, loan.borrower, f"lent under {loan.id}", "R-10.5")
    loan.active = True
    world.books.event(
        "loan.started", powers=(loan.owner, loan.borrower), loan=loan.id, owner=loan.owner,
        borrower=loan.borrower, groups=list(loan.groups), last=loan.last,
    )  # fmt: skip


def end_loans(world: World) -> None:
    """R-10.5a: a loan ends at the end of the Support Phase of its last round: the groups and
    the craft still in them return to the owner; the borrower's work on them ends."""
    books = world.books
    books.step = "support.1.6.1"
    navy = world.navy
    for loan in sorted(navy.fleet.loans, key=lambda x: x.id):
        if not loan.active or loan.last > world.round:
            continue
        for group in _carriers(world, loan.groups):
            for craft in navy.members(group):
                end_work(world, craft, f"{loan.id} ended", "R-10.5a")
            give_carrier(world, group, loan.owner, f"{loan.id} ended", "R-10.5a")
        navy.fleet.loans.remove(loan)
        books.event(
            "loan.ended", powers=(loan.owner, loan.borrower), loan=loan.id, owner=loan.owner,
            groups=list(loan.groups),
        )  # fmt: skip
    navy.reindex()


def _crew_home(world: World, transfer: Transfer, hx: str) -> System | None:
    """R-10.5a: the system the transfer names when the owner holds it (effective LR > 0), else
    the owner's held system nearest to the craft (ties: lowest id)."""
    held = [
        s
        for s in world.systems_sorted
        if s.holder == transfer.owner and world.effective_loyalty(s) > 0
    ]
    named = next((s for s in held if s.id == transfer.crew_to), None)
    return named or min(held, key=lambda s: (hex_distance(s.hex, hx), s.id), default=None)


def _transfer(world: World, transfer: Transfer) -> None:
    """Support 1.6.2, R-10.5a: the carriers pass to the receiver for good; the owner's crew
    leaves and returns as PL (5 per military CF, 2 per civilian) to a system the owner holds,
    where it is spent or lost at tidy up like any PL; the receiver crews them (R-7.5)."""
    books = world.books
    navy = world.navy
    parties = (transfer.owner, transfer.receiver)
    carriers = _carriers(world, transfer.carriers)
    why = _blocked(world, carriers, transfer.owner)
    if why:
        _failed(world, "transfer", transfer.id, transfer.owner, transfer.receiver, why)
        return
    for carrier in carriers:
        home = _crew_home(world, transfer, carrier.hex)
        place = world.place_of(home) if home else None
        for craft in navy.members(carrier):
            crew = craft.crew
            reason = f"crew of {craft.id} returns ({transfer.id})"
            books.change(transfer.owner, craft, "cf", -crew, reason, "R-10.5a")
            if place is not None:
                pl = crew * pl_per_cf(navy.design(craft))
                books.change(transfer.owner, place, "pl", pl, reason, "R-10.5a")
        give_carrier(world, carrier, transfer.receiver, f"given under {transfer.id}", "R-10.5a")
        books.event(
            "transfer.done", powers=parties, transfer=transfer.id, carrier=carrier.id,
            receiver=transfer.receiver, system=home.id if home else None,
        )  # fmt: skip


def _knows(world: World, power: str, design: Design) -> bool:
    return any(
        d.power == power and design.id in (d.id, d.studied_from) for d in world.navy.fleet.designs
    )


def _study(world: World) -> None:
    """Support 1.6.3, R-10.5: a craft received from another power (lent or given), of a design
    the receiver lacks, kept this round at one of its builders acting on Hold-Build in its hex,
    gives the receiver that design, registered free (``studied_from``); captured craft never."""
    books = world.books
    navy = world.navy
    ids: set[str] | None = None
    for order in world.orders.get("study_design", ()):
        craft = navy.craft.get(order["craft"])
        builder = navy.craft.get(order["builder"])
        design = navy.design(craft) if craft else None
        problem = (
            f"craft: no craft {order['craft']} of {order.power}"
            if craft is None or design is None or craft.power != order.power
            else f"craft: {craft.id} was captured: captured craft can never be studied"
            " (Support 1.6.3)"
            if craft.captured
            else f"craft: {craft.id} is of {order.power}'s own design"
            if design.power == order.power
            else f"craft: {order.power} knows design {design.id} already"
            if _knows(world, order.power, design)
            else _builder_problem(world, order, builder, craft)
        )
        if ids is None:
            ids = state_ids(world.state)
        if problem is None and order["id"] in ids:
            problem = f"id: {order['id']!r} is already used"
        if problem or design is None:
            world.reject(order, problem or "craft: unknown")
            continue
        ids.add(order["id"])
        copy = design.copy()
        copy.id, copy.power, copy.completed, copy.studied_from = (
            order["id"], order.power, False, design.id
        )  # fmt: skip
        navy.fleet.designs.append(copy)
        navy.designs[copy.id] = copy
        books.event(
            "design.studied", powers=(order.power,), design=copy.id, design_name=copy.name,
            craft=order["craft"],
        )  # fmt: skip


def _builder_problem(world: World, order: Order, builder: Craft | None, craft: Craft) -> str | None:
    """Support 1.6.3: the study needs the receiver's builder acting on Hold-Build in its hex."""
    navy = world.navy
    if builder is None or builder.power != order.power:
        return f"builder: no craft {order['builder']} of {order.power}"
    if not navy.capacity(builder, "construction"):
        return f"builder: {builder.id} has no working construction system"
    if why := idle(world, builder):
        return f"builder: {why}"
    if navy.hex_of(builder) != navy.hex_of(craft):
        return f"craft: {craft.id} is not at {builder.id}'s hex"
    return None
