"""Every schema of the OpenAPI document as the generator made it (qr_payout._generated.models)."""

from ._generated.models import *  # noqa: F403
from ._generated.models import __all__ as __all__
