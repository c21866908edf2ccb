from django.apps import AppConfig


class CommandConfig(AppConfig):
    """Command and intelligence's code; its models are ``powers.models.command``."""

    name = "command"
