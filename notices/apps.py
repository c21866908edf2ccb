from django.apps import AppConfig


class NoticesConfig(AppConfig):
    """Being told: in-app notices, emails and the Atom feed of what concerns a player."""

    name = "notices"

    def ready(self) -> None:
        # The services below enqueue the delivery task by name: register it in every process.
        from notices import tasks  # noqa: F401
