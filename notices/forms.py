from __future__ import annotations

from typing import Any

from django import forms

from notices.models import Kind, NoticeSettings


class NoticeSettingsForm(forms.ModelForm[NoticeSettings]):
    """One checkbox per kind of email, labelled in words."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")  # the labels are sentences, not field names
        super().__init__(*args, **kwargs)

    class Meta:
        model = NoticeSettings
        fields = [f"email_{kind}" for kind in Kind.values]
        labels = {f"email_{kind}": label for kind, label in Kind.choices}
