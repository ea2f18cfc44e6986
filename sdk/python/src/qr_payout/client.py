"""QrPayoutClient: one method per public operation over the generated code (qr_payout._generated,
never edited), each returning the 2xx body as the generated model or raising QrPayoutError.

Pay and execute carry an Idempotency-Key (docs/api/idempotency.md "The Idempotency-Key"): the
caller's, or a new UUID per call; the transport resends the same request, so every retry of one
call reuses that key and the payment happens at most once.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import httpx

from ._generated.api.fx import list_fx_currencies
from ._generated.api.instructions import get_instruction
from ._generated.api.payments import execute, pay, resolve
from ._generated.api.sandbox import list_sandbox_test_qrs, trigger_sandbox_event
from ._generated.api.schemes import list_schemes
from ._generated.api.transactions import get_transaction, list_transactions
from ._generated.api.webhook_deliveries import get_webhook_delivery, list_webhook_deliveries, replay_webhook_delivery
from ._generated.api.webhook_endpoints import list_webhook_endpoints
from ._generated.client import AuthenticatedClient
from ._generated.models import (
    ExecuteRequest,
    ExecuteResponse,
    InstructionResponse,
    ListSandboxTestQrsResponse200,
    PayRequest,
    PayResponse,
    ResolveRequest,
    ResolveResponse,
    SchemesResponse,
    TransactionResponse,
    TransactionsResponse,
    TriggerSandboxEventBody,
    WalletCurrenciesResponse,
    WebhookDeliveriesResponse,
    WebhookDeliveryReplayRequest,
    WebhookDeliveryReplayResponse,
    WebhookDeliveryResponse,
    WebhookEndpointsResponse,
)
from ._generated.types import UNSET, Response
from .transport import RetryInfo, RetryingTransport, RetryPolicy

T = TypeVar("T")
Body = TypeVar("Body")


class QrPayoutClient:
    """The QR Payout API for one API key. Use it as a context manager, or call `close()`."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        retry: RetryPolicy | None = None,
        on_retry: Callable[[RetryInfo], None] | None = None,
        timeout: float = 30.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        """`base_url` e.g. `http://127.0.0.1:8080` for the sandbox; `api_key` your `x-api-key`;
        `timeout` seconds per attempt (the sandbox's pay waits up to 8 s); `transport` the httpx
        transport under the retries (tests)."""
        if not base_url:
            raise ValueError("QrPayoutClient: base_url is required")
        if not api_key:
            raise ValueError("QrPayoutClient: api_key is required")
        retrying = RetryingTransport(transport, retry, on_retry)
        self.generated = AuthenticatedClient(
            base_url=base_url,
            token=api_key,
            prefix="",
            auth_header_name="x-api-key",
            timeout=httpx.Timeout(timeout),
            httpx_args={"transport": retrying},
        )
        """The generated client: pass it as `client=` to any operation of `qr_payout._generated.api`."""

    def __enter__(self) -> QrPayoutClient:
        return self

    def __exit__(self, *args: object) -> None:
        self.close()

    def close(self) -> None:
        self.generated.get_httpx_client().close()

    def list_schemes(self) -> SchemesResponse:
        return _success(list_schemes.sync_detailed(client=self.generated), SchemesResponse)

    def list_fx_currencies(self) -> WalletCurrenciesResponse:
        """The wallet currencies fx quotes (`wallet_currency` of resolve and pay)."""
        return _success(list_fx_currencies.sync_detailed(client=self.generated), WalletCurrenciesResponse)

    def list_sandbox_test_qrs(self) -> ListSandboxTestQrsResponse200:
        """The sandbox's test QR codes and amounts (docs/sandbox-test-qrs.md); no key needed."""
        return _success(list_sandbox_test_qrs.sync_detailed(client=self.generated), ListSandboxTestQrsResponse200)

    def trigger_sandbox_event(
        self, body: TriggerSandboxEventBody | Mapping[str, Any], *, idempotency_key: str | None = None
    ) -> ExecuteResponse:
        """Sandbox only (docs/api/sandbox.md "Triggers"): a terminal transaction and its webhook event."""
        request = _model(body, TriggerSandboxEventBody)
        key = idempotency_key or str(uuid.uuid4())
        answer = trigger_sandbox_event.sync_detailed(client=self.generated, body=request, idempotency_key=key)
        return _success(answer, ExecuteResponse)

    def resolve(self, body: ResolveRequest | Mapping[str, Any]) -> ResolveResponse:
        request = _model(body, ResolveRequest)
        return _success(resolve.sync_detailed(client=self.generated, body=request), ResolveResponse)

    def execute(
        self, body: ExecuteRequest | Mapping[str, Any], *, idempotency_key: str | None = None
    ) -> ExecuteResponse:
        request = _model(body, ExecuteRequest)
        key = idempotency_key or str(uuid.uuid4())
        answer = execute.sync_detailed(client=self.generated, body=request, idempotency_key=key)
        return _success(answer, ExecuteResponse)

    def pay(self, body: PayRequest | Mapping[str, Any], *, idempotency_key: str | None = None) -> PayResponse:
        request = _model(body, PayRequest)
        key = idempotency_key or str(uuid.uuid4())
        return _success(pay.sync_detailed(client=self.generated, body=request, idempotency_key=key), PayResponse)

    def get_instruction(self, id: str) -> InstructionResponse:
        return _success(get_instruction.sync_detailed(id, client=self.generated), InstructionResponse)

    def get_transaction(self, id: str) -> TransactionResponse:
        return _success(get_transaction.sync_detailed(id, client=self.generated), TransactionResponse)

    def list_transactions(self, **params: Any) -> TransactionsResponse:
        """Keyword arguments as the generated operation: status, created_gte, created_lt, limit, cursor."""
        return _success(list_transactions.sync_detailed(client=self.generated, **params), TransactionsResponse)

    def list_webhook_endpoints(self) -> WebhookEndpointsResponse:
        return _success(list_webhook_endpoints.sync_detailed(client=self.generated), WebhookEndpointsResponse)

    def list_webhook_deliveries(self, **params: Any) -> WebhookDeliveriesResponse:
        """Keyword arguments as the generated operation: transaction_id, status, limit, cursor."""
        answer = list_webhook_deliveries.sync_detailed(client=self.generated, **params)
        return _success(answer, WebhookDeliveriesResponse)

    def get_webhook_delivery(self, id: str) -> WebhookDeliveryResponse:
        return _success(get_webhook_delivery.sync_detailed(id, client=self.generated), WebhookDeliveryResponse)

    def replay_webhook_delivery(
        self, id: str, body: WebhookDeliveryReplayRequest | Mapping[str, Any] | None = None
    ) -> WebhookDeliveryReplayResponse:
        request = UNSET if body is None else _model(body, WebhookDeliveryReplayRequest)
        answer = replay_webhook_delivery.sync_detailed(id, client=self.generated, body=request)
        return _success(answer, WebhookDeliveryReplayResponse)


def _model(body: Body | Mapping[str, Any], model: type[Body]) -> Body:
    """A request body given as the generated model, or as a dict of its JSON fields."""
    if isinstance(body, model):
        return body
    if isinstance(body, Mapping):
        return model.from_dict(dict(body))  # type: ignore[attr-defined, no-any-return]
    raise TypeError(f"body must be a {model.__name__} or a dict, not {type(body).__name__}")


def _success(response: Response[Any], model: type[T]) -> T:
    """The parsed 2xx body (the transport has raised QrPayoutError for every other status)."""
    if not isinstance(response.parsed, model):
        raise TypeError(f"expected a {model.__name__} in the {int(response.status_code)} answer")
    return response.parsed
