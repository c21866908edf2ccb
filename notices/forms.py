from __future__ import annotations

from django import forms

from notices.models import Kind, NoticeSettings


class NoticeSettingsForm(forms.ModelForm[NoticeSettings]):
    """One checkbox per kind of email, labelled in words."""

    class Meta:
        model = NoticeSettings
        fields = [f"email_{kind}" for kind in Kind.values]
        labels = {f"email_{kind}": label for kind, label in Kind.choices}
