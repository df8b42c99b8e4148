"""Email a request asks for, sent by a worker once the request's transaction commits: the
message is built in the request (its language, its links), the mail server is talked to by
the worker, so a slow or unreachable server never keeps a person's page waiting or turns a
saved request into an error page."""

from __future__ import annotations

import logging
from typing import Any

from django.core.mail import EmailMessage
from django.db import transaction

logger = logging.getLogger(__name__)


def _payload(message: EmailMessage) -> dict[str, Any]:
    return {
        "subject": message.subject,
        "body": message.body,
        "from_email": message.from_email,
        "to": list(message.to),
        "reply_to": list(message.reply_to),
    }


def email_send_after_commit(*, message: EmailMessage) -> None:
    """Send `message` from a worker once the current transaction commits (nothing is sent when
    it rolls back). A broker that cannot be reached falls back to sending it here, so the
    message is not lost; a mail server that fails then is logged, not raised."""
    payload = _payload(message)
    transaction.on_commit(lambda: _enqueue(payload))


def _enqueue(payload: dict[str, Any]) -> None:
    from advisor.tasks import send_email

    try:
        send_email.apply_async(
            args=(payload,),
            retry=True,
            retry_policy={"max_retries": 1, "interval_start": 0, "interval_step": 0.2},
        )
    except Exception:  # kombu/redis raise transport-specific errors
        logger.warning("broker unreachable: sending %r in the request", payload["subject"])
        try:
            email_send(payload=payload)
        except OSError:
            logger.exception("email %r not sent", payload["subject"])


def email_send(*, payload: dict[str, Any]) -> None:
    """Send one message built by email_send_after_commit (the worker's task calls this)."""
    EmailMessage(**payload).send()
