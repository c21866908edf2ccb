from django.apps import AppConfig


class FleetConfig(AppConfig):
    """The fleet's code; its models are ``powers.models.fleet`` and ``powers.models.pacts``."""

    name = "fleet"
