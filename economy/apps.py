from django.apps import AppConfig


class EconomyConfig(AppConfig):
    name = "economy"

    def ready(self) -> None:
        # Register the Celery tasks in every process: the services enqueue them by name
        # (they never import the tasks module, which imports them).
        from economy import tasks  # noqa: F401
