"""Thin Celery tasks: fetch by id, call a service."""

from celery import shared_task

from economy import services


@shared_task(
    name=services.RESOLVE_TASK, acks_late=True, reject_on_worker_lost=True, ignore_result=True
)
def resolve_round_task(round_id: int) -> bool:
    return services.resolve_round(round_id=round_id)


@shared_task(ignore_result=True)
def sweep_rounds_task() -> list[int]:
    return services.sweep()
