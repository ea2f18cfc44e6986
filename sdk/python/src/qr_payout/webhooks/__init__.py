"""Receiving QR Payout webhooks (docs/api/webhooks.md): verify the signature, parse, deduplicate."""

from .dedupe import EventDeduplicator, MemoryDeduplicator
from .event import ParseResult, WebhookEvent, parse_webhook_event
from .receive import ReceiveResult, receive_webhook
from .signature import (
    DEFAULT_TOLERANCE_SECONDS,
    SIGNATURE_HEADER,
    SignatureCheck,
    sign_webhook_body,
    verify_webhook_signature,
)

__all__ = [
    "DEFAULT_TOLERANCE_SECONDS",
    "SIGNATURE_HEADER",
    "EventDeduplicator",
    "MemoryDeduplicator",
    "ParseResult",
    "ReceiveResult",
    "SignatureCheck",
    "WebhookEvent",
    "parse_webhook_event",
    "receive_webhook",
    "sign_webhook_body",
    "verify_webhook_signature",
]
