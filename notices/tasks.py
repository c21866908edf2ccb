"""Thin Celery tasks: the delivery the services enqueue by name, and beat's sweep."""

from celery import shared_task

from notices import announce, services


@shared_task(name=announce.DELIVER_TASK, acks_late=True, ignore_result=True)
def deliver_task(kind: str, payload: dict[str, object]) -> int:
    return services.deliver(kind, payload)


@shared_task(name="notices.sweep", ignore_result=True)
def sweep_notices_task() -> None:
    services.sweep()


@shared_task(name=announce.INVITE_TASK, acks_late=True, ignore_result=True)
def invite_task(invitation_id: int, origin: str = "") -> bool:
    return services.send_invitation(invitation_id, origin=origin)
