from django.apps import AppConfig


class TradeConfig(AppConfig):
    name = "trade"

    def ready(self) -> None:
        # Register the Celery tasks in every process: the services enqueue them by name
        # (they never import the tasks module, which imports them).
        from trade import tasks  # noqa: F401
