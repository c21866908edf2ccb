from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    """What reads across powers, economy and trade: set-up, dashboard, maps, demo."""

    name = "campaigns"
