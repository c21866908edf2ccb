"""What a player is told (issue 18): one ``Notice`` per (user, event), whatever delivers it —
the dashboard, the email and the Atom feed all read the same rows — and each player's choices."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models

from powers.models import Campaign


class Kind(models.TextChoices):
    ROUND_RESOLVED = "round_resolved", "A round is resolved (with my statement's summary)"
    DEADLINE_SOON = "deadline_soon", "The deadline is 24 hours away and I have not submitted"
    AGREEMENT_PROPOSED = "agreement_proposed", "An agreement is proposed to me"
    BATTLE_RECORD = "battle_record", "A battle record awaits my confirmation"
    BATTLE_DECLINED = "battle_declined", "A battle record my power entered is declined"
    MOTION_OPENED = "motion_opened", "A UN motion is put before the committee"
    MISSION_RESOLVED = (
        "mission_resolved",
        "A diplomatic mission of mine, or against my power, is resolved by the organiser",
    )
    # issue 31 (diplomacy): emailed in a digest, never one email per message
    MESSAGE = "message", "New messages to my power (one digest email, not one per message)"


class EmailState(models.TextChoices):
    PENDING = "pending", "To send"
    SENT = "sent", "Sent"
    SKIPPED = "skipped", "Not emailed (turned off, or no address)"
    DIGEST = "digest", "To send in the next digest"  # issue 31: messages, grouped


class Notice(models.Model):
    """One event told to one user. The unique constraint on (user, event) is what makes
    delivery idempotent: a task run twice, or a backstop sweep, finds the row and adds none."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices"
    )
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    event = models.CharField(max_length=120, help_text="The event's identity, e.g. round:7:…")
    title = models.CharField(max_length=200)
    body = models.TextField()
    link = models.CharField(max_length=300, help_text="A path on this site.")
    email = models.CharField(max_length=10, choices=EmailState.choices)
    created_at = models.DateTimeField(auto_now_add=True)
    emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "event"], name="notice_once_per_user_event")
        ]
        indexes = [models.Index(fields=["user", "-created_at"], name="notice_user_recent")]

    def __str__(self) -> str:
        return f"{self.user}: {self.title}"


def new_feed_token() -> str:
    return secrets.token_urlsafe(32)


class NoticeSettings(models.Model):
    """A player's choices: which kinds are emailed, and the secret of the private feed
    (regenerating it revokes the old address)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notice_settings"
    )
    email_round_resolved = models.BooleanField(default=True)
    email_deadline_soon = models.BooleanField(default=True)
    email_agreement_proposed = models.BooleanField(default=True)
    email_battle_record = models.BooleanField(default=True)
    email_battle_declined = models.BooleanField(default=True)
    email_motion_opened = models.BooleanField(default=True)
    email_mission_resolved = models.BooleanField(default=True)
    email_message = models.BooleanField(default=True)  # issue 31: the messages' digest
    feed_token = models.CharField(max_length=64, unique=True, default=new_feed_token)

    class Meta:
        verbose_name_plural = "notice settings"

    def __str__(self) -> str:
        return f"notice settings of {self.user}"

    def emails(self, kind: str) -> bool:
        return bool(getattr(self, f"email_{kind}"))
