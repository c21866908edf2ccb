from django.apps import AppConfig


class DiplomacyConfig(AppConfig):
    """Messages between powers (issue 31): conversations, the public press channel, deals."""

    name = "diplomacy"
