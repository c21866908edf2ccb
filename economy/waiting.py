"""What a live round waits for before it may resolve ahead of its deadline (issue 29): the
powers that have not submitted their orders and the battle records awaiting confirmation
(R-10.6). The one reader the services decide by (``economy.services``: early resolution after
the last submission or confirmation, the sweep's "is it due", the last-to-submit nudge) and
the one the players and the organiser are told from (``notices.selectors``), so what they read
can never disagree with what the server does.

A fixed number of queries for any number of rounds and powers: the powers with whether each
has submitted (one), the records awaiting confirmation (one) and their parties (one, only when
there are any). Only a record whose status is ``proposed`` awaits anyone: any other status
(confirmed, applied, or one that is withdrawn or void) waits for nobody.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Exists, OuterRef, Prefetch

from economy.models import OrderSheet, Round, SheetStatus
from powers.models import BattleParty, BattleRecord, Power


@dataclass(frozen=True)
class RecordWait:
    """A battle record awaiting confirmation, with its parties in listed order."""

    record: BattleRecord
    parties: list[BattleParty]

    @property
    def powers(self) -> list[Power]:
        return [p.power for p in self.parties]

    @property
    def pending(self) -> list[Power]:
        """The powers that have not answered yet."""
        return [p.power for p in self.parties if p.answer == BattleParty.Answer.PENDING]

    @property
    def declined(self) -> list[Power]:
        """The powers that declined it: it cannot take effect until the entering power amends
        it (which asks them again) or the organiser settles it."""
        return [p.power for p in self.parties if p.answer == BattleParty.Answer.DECLINED]

    def involves(self, power_id: int) -> bool:
        return any(p.power_id == power_id for p in self.parties)


@dataclass(frozen=True)
class Waits:
    """One live round and what it waits for."""

    round: Round
    powers: list[Power]  # every power of the campaign, by name
    submitted: frozenset[int]  # the ids of those whose sheet is submitted
    records: list[RecordWait]  # the campaign's records awaiting confirmation

    @property
    def not_submitted(self) -> list[Power]:
        return [p for p in self.powers if p.pk not in self.submitted]

    @property
    def all_in(self) -> bool:
        """Every power has submitted and no battle record awaits confirmation."""
        return not self.not_submitted and not self.records

    @property
    def complete(self) -> bool:
        """The round may resolve before its deadline: all is in and it is not paused."""
        return not self.round.paused and self.all_in

    def due(self, now: datetime) -> bool:
        """Its deadline has passed, or all is in (the sweep checks ``paused`` itself)."""
        deadline = self.round.deadline
        return bool(deadline and deadline <= now) or self.all_in


def of_rounds(rounds: Iterable[Round]) -> dict[int, Waits]:
    """What each round waits for, by round id; each round its campaign's one live round."""
    rounds = list(rounds)
    if not rounds:
        return {}
    campaigns = [r.campaign_id for r in rounds]
    sheets = OrderSheet.objects.filter(
        power_id=OuterRef("pk"),
        round_id__in=[r.pk for r in rounds],
        status=SheetStatus.SUBMITTED,
    )
    powers: dict[int, list[Power]] = {c: [] for c in campaigns}
    done: set[int] = set()
    for p in (
        Power.objects.filter(campaign_id__in=campaigns)
        .annotate(done=Exists(sheets))
        .order_by("name", "pk")
    ):
        powers[p.campaign_id].append(p)
        if p.done:
            done.add(p.pk)
    parties = BattleParty.objects.select_related("power").order_by("position")
    records: dict[int, list[RecordWait]] = {c: [] for c in campaigns}
    for record in (
        BattleRecord.objects.filter(campaign_id__in=campaigns, status=BattleRecord.Status.PROPOSED)
        .select_related("entered_by")
        .prefetch_related(Prefetch("parties", queryset=parties))
        .order_by("created_at", "pk")
    ):
        records[record.campaign_id].append(RecordWait(record, list(record.parties.all())))
    return {
        r.pk: Waits(
            round=r,
            powers=powers[r.campaign_id],
            submitted=frozenset(p.pk for p in powers[r.campaign_id] if p.pk in done),
            records=records[r.campaign_id],
        )
        for r in rounds
    }


def of_round(rnd: Round) -> Waits:
    return of_rounds([rnd])[rnd.pk]
