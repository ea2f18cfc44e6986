"""The QR Payout API for Python: a client generated from the API's OpenAPI document
(`qr_payout._generated`, never edited) under a hand-written layer (idempotency keys, retries,
QrPayoutError), and webhook verification (`qr_payout.webhooks`). README.md of sdk/python."""

from . import models
from .client import QrPayoutClient
from .errors import QrPayoutError
from .transport import RetryInfo, RetryPolicy
from .webhooks import MemoryDeduplicator, receive_webhook, verify_webhook_signature

__version__ = "0.1.0"

__all__ = [
    "MemoryDeduplicator",
    "QrPayoutClient",
    "QrPayoutError",
    "RetryInfo",
    "RetryPolicy",
    "__version__",
    "models",
    "receive_webhook",
    "verify_webhook_signature",
]
