"""Contains all the data models used in inputs/outputs"""

from .creditor import Creditor
from .error_body import ErrorBody
from .error_tag import ErrorTag
from .execute_request import ExecuteRequest
from .execute_request_payer_id_type_type_0 import ExecuteRequestPayerIdTypeType0
from .execute_response import ExecuteResponse
from .get_open_api_document_response_200 import GetOpenApiDocumentResponse200
from .health import Health
from .health_status import HealthStatus
from .instruction import Instruction
from .instruction_response import InstructionResponse
from .list_sandbox_test_qrs_response_200 import ListSandboxTestQrsResponse200
from .list_sandbox_test_qrs_response_200_payer import ListSandboxTestQrsResponse200Payer
from .list_sandbox_test_qrs_response_200_test_amounts_item import (
    ListSandboxTestQrsResponse200TestAmountsItem,
)
from .list_sandbox_test_qrs_response_200_test_qrs_item import (
    ListSandboxTestQrsResponse200TestQrsItem,
)
from .list_sandbox_test_qrs_response_200_test_qrs_item_expected import (
    ListSandboxTestQrsResponse200TestQrsItemExpected,
)
from .list_sandbox_test_qrs_response_200_test_qrs_item_operation import (
    ListSandboxTestQrsResponse200TestQrsItemOperation,
)
from .partner_callback_rail import PartnerCallbackRail
from .partner_callback_response import PartnerCallbackResponse
from .partner_payout import PartnerPayout
from .partner_payout_amount import PartnerPayoutAmount
from .partner_payout_rail import PartnerPayoutRail
from .partner_payout_status import PartnerPayoutStatus
from .pay_request import PayRequest
from .pay_request_payer_id_type_type_0 import PayRequestPayerIdTypeType0
from .pay_response import PayResponse
from .payer_identity import PayerIdentity
from .payer_identity_documents_item import PayerIdentityDocumentsItem
from .payer_identity_documents_item_id_type import PayerIdentityDocumentsItemIdType
from .payer_identity_fields_item import PayerIdentityFieldsItem
from .quote import Quote
from .resolve_request import ResolveRequest
from .resolve_response import ResolveResponse
from .retry_strategy import RetryStrategy
from .scheme import Scheme
from .scheme_qr_types_item import SchemeQrTypesItem
from .schemes_response import SchemesResponse
from .status_change import StatusChange
from .transaction import Transaction
from .transaction_error import TransactionError
from .transaction_quote import TransactionQuote
from .transaction_response import TransactionResponse
from .transaction_result import TransactionResult
from .transaction_status import TransactionStatus
from .transactions_response import TransactionsResponse
from .trigger_sandbox_event_body import TriggerSandboxEventBody
from .trigger_sandbox_event_body_event import TriggerSandboxEventBodyEvent
from .wallet_currencies_response import WalletCurrenciesResponse
from .wallet_currency import WalletCurrency
from .wallet_currency_minor_units import WalletCurrencyMinorUnits
from .webhook_deliveries_response import WebhookDeliveriesResponse
from .webhook_delivery import WebhookDelivery
from .webhook_delivery_attempt import WebhookDeliveryAttempt
from .webhook_delivery_replay_request import WebhookDeliveryReplayRequest
from .webhook_delivery_replay_response import WebhookDeliveryReplayResponse
from .webhook_delivery_response import WebhookDeliveryResponse
from .webhook_delivery_status import WebhookDeliveryStatus
from .webhook_delivery_with_attempts import WebhookDeliveryWithAttempts
from .webhook_endpoint import WebhookEndpoint
from .webhook_endpoints_response import WebhookEndpointsResponse
from .webhook_ping_event import WebhookPingEvent
from .webhook_ping_event_data import WebhookPingEventData
from .webhook_transaction_completed_event import WebhookTransactionCompletedEvent
from .webhook_transaction_completed_event_data import (
    WebhookTransactionCompletedEventData,
)
from .webhook_transaction_failed_event import WebhookTransactionFailedEvent
from .webhook_transaction_failed_event_data import WebhookTransactionFailedEventData

__all__ = (
    "Creditor",
    "ErrorBody",
    "ErrorTag",
    "ExecuteRequest",
    "ExecuteRequestPayerIdTypeType0",
    "ExecuteResponse",
    "GetOpenApiDocumentResponse200",
    "Health",
    "HealthStatus",
    "Instruction",
    "InstructionResponse",
    "ListSandboxTestQrsResponse200",
    "ListSandboxTestQrsResponse200Payer",
    "ListSandboxTestQrsResponse200TestAmountsItem",
    "ListSandboxTestQrsResponse200TestQrsItem",
    "ListSandboxTestQrsResponse200TestQrsItemExpected",
    "ListSandboxTestQrsResponse200TestQrsItemOperation",
    "PartnerCallbackRail",
    "PartnerCallbackResponse",
    "PartnerPayout",
    "PartnerPayoutAmount",
    "PartnerPayoutRail",
    "PartnerPayoutStatus",
    "PayRequest",
    "PayRequestPayerIdTypeType0",
    "PayResponse",
    "PayerIdentity",
    "PayerIdentityDocumentsItem",
    "PayerIdentityDocumentsItemIdType",
    "PayerIdentityFieldsItem",
    "Quote",
    "ResolveRequest",
    "ResolveResponse",
    "RetryStrategy",
    "Scheme",
    "SchemeQrTypesItem",
    "SchemesResponse",
    "StatusChange",
    "Transaction",
    "TransactionError",
    "TransactionQuote",
    "TransactionResponse",
    "TransactionResult",
    "TransactionStatus",
    "TransactionsResponse",
    "TriggerSandboxEventBody",
    "TriggerSandboxEventBodyEvent",
    "WalletCurrenciesResponse",
    "WalletCurrency",
    "WalletCurrencyMinorUnits",
    "WebhookDeliveriesResponse",
    "WebhookDelivery",
    "WebhookDeliveryAttempt",
    "WebhookDeliveryReplayRequest",
    "WebhookDeliveryReplayResponse",
    "WebhookDeliveryResponse",
    "WebhookDeliveryStatus",
    "WebhookDeliveryWithAttempts",
    "WebhookEndpoint",
    "WebhookEndpointsResponse",
    "WebhookPingEvent",
    "WebhookPingEventData",
    "WebhookTransactionCompletedEvent",
    "WebhookTransactionCompletedEventData",
    "WebhookTransactionFailedEvent",
    "WebhookTransactionFailedEventData",
)
