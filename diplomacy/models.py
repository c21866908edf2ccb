"""Messages between powers (issue 31): conversations of two or more powers of a campaign, one
public press channel per campaign, the messages (kept for the campaign's history) and each
member's read marker; the campaign's press settings; and the deals proposed from a thread."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from powers.models import Campaign, Power


class Press(models.TextChoices):
    ALL = "all", "All press: private conversations and the public channel"
    PUBLIC = "public", "Public press only: the public channel"
    NONE = "none", "No press"


class PressSettings(models.Model):
    """The organiser's choices for a campaign's press (shown inline on the campaign's admin
    page). A campaign without a row has the defaults."""

    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE, related_name="press")
    press = models.CharField(
        "press allowed", max_length=10, choices=Press.choices, default=Press.ALL
    )
    while_resolving = models.BooleanField(
        "press while a round resolves",
        default=True,
        help_text="Whether players may write while the round is being resolved.",
    )

    class Meta:
        verbose_name = "press settings"
        verbose_name_plural = "press settings"

    def __str__(self) -> str:
        return f"press settings of {self.campaign}"


class Conversation(models.Model):
    """Two or more powers of one campaign, or (``public``) the campaign's press channel.
    ``version`` is bumped by every change a reader sees (a message, a hidden one): with the
    member it is the thread's ETag, so a poll with nothing new costs one indexed read."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    public = models.BooleanField(default=False)
    started_by = models.ForeignKey(
        Power, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_at = models.DateTimeField(auto_now_add=True, db_index=True)
    version = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["campaign"], condition=Q(public=True), name="one_press_channel"
            )
        ]

    def __str__(self) -> str:
        return f"{'press channel' if self.public else 'conversation'} {self.pk}"


class Member(models.Model):
    """A power in a conversation (every power is a member of the public channel), with where
    it has read to and how many messages of others it has not read (kept by the writes, so
    the navigation bar's count is one sum)."""

    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="members")
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="+")
    last_read = models.PositiveBigIntegerField(default=0)
    unread = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["conversation", "power"], name="member_once")
        ]
        indexes = [models.Index(fields=["power", "conversation"], name="member_power")]

    def __str__(self) -> str:
        return f"{self.power} in {self.conversation}"


class Message(models.Model):
    """One message: its Markdown text as written and its HTML, rendered and sanitized once
    when written. A system line (a deal offered or answered) has ``system`` set instead: its
    words are made from it with the powers' names when shown. Hiding (the organiser, public
    channel only) keeps the text and leaves a trace: who, when, why."""

    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="messages"
    )
    power = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="+")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    text = models.TextField(blank=True)
    html = models.TextField(blank=True)
    system = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    hidden_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["id"]
        indexes = [
            models.Index(fields=["conversation", "id"], name="message_thread"),
            models.Index(fields=["author", "created_at"], name="message_rate"),
        ]

    def __str__(self) -> str:
        return f"message {self.pk} in {self.conversation_id}"


class Deal(models.Model):
    """A deal proposed from a thread: asked for there (``key`` empty) and then linked to the
    agreement, loan or transfer the power offered, so its outcome is told in the thread."""

    class Kind(models.TextChoices):
        AGREEMENT = "agreement", "trade agreement"
        LOAN = "loan", "loan"
        TRANSFER = "transfer", "transfer"

    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    proposer = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="+")
    other = models.ForeignKey(Power, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=64, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.kind} {self.key or '(asked)'} in {self.conversation_id}"
