"""Thin Celery tasks: fetch by id, call a service."""

from celery import shared_task

from trade import routemaps


@shared_task(
    name=routemaps.MAP_TASK, acks_late=True, reject_on_worker_lost=True, ignore_result=True
)
def map_routes_task(job_id: int) -> None:
    routemaps.run_job(job_id=job_id)
