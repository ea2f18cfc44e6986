"""Schemathesis hooks of the `schemathesis` stage (docs/testing.md "Schemathesis").

A positive case is one the document accepts; the API also applies rules a JSON Schema cannot state
(docs/api/idempotency.md, docs/api/resources.md). Right before a positive case is sent, it is made
to follow them, so that a refusal of it is a real finding:

- Idempotency-Key: a fresh UUID per request. A key is scoped to one body (docs/api/idempotency.md
  "The Idempotency-Key"): a generated key reused with another body is 400 IdempotencyConflict.
- GET /v1/transactions: `created_lt` must be later than `created_gte`; one that is not is dropped.
- Paged lists: `cursor` is an opaque value only a previous page gives; a generated one is dropped.
- `amount`: at most the payment currency's decimals (2 for the Pix QR of the examples; the document
  cannot say which currency a QR has) and 15 significant digits, what a JSON number holds exactly.

- `wallet_currency`: one fx quotes (GET /v1/fx/currencies lists them; the list is fx's, not the
  document's): a generated code is replaced by one of the sandbox's.
- `payer_tax_id` is checked against the documents of `payer_country` (docs/payer-identity.md): a
  generated id rarely has valid check digits, so the case declares no document (no `payer_country`,
  no `payer_id_type`) and the id is sent as an undeclared foreign one.

Negative cases are sent as generated.

One hook is not about the API: the interpreter's `ast.parse` may fail spuriously (docs/testing.md
"A CPython bug"), so Hypothesis' description of a lambda falls back to the one it
gives a lambda whose source it cannot read.
"""

import uuid
from datetime import datetime

import schemathesis
from hypothesis.internal import lambda_sources

_describe_lambda = lambda_sources._lambda_description


def _lambda_description_or_unknown(f, *args, **kwargs):
    try:
        return _describe_lambda(f, *args, **kwargs)
    except SystemError:
        return "lambda *args: <unknown>"


# Only a strategy's repr is at stake; a run stopped by it tested nothing of the API.
lambda_sources._lambda_description = _lambda_description_or_unknown

IDEMPOTENCY_KEY = "Idempotency-Key"
SANDBOX_WALLET_CURRENCIES = ("ARS", "BOB", "BRL", "COP", "EUR", "PEN", "USD")


def _instant(value):
    if not isinstance(value, str):
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else None


def _is_positive(case) -> bool:
    meta = getattr(case, "meta", None)
    return meta is not None and meta.generation.mode.is_positive


@schemathesis.hook
def before_call(context, case, kwargs):
    if not _is_positive(case):
        return
    if case.headers and IDEMPOTENCY_KEY in case.headers:
        case.headers[IDEMPOTENCY_KEY] = str(uuid.uuid4())
    if isinstance(case.query, dict):
        case.query.pop("cursor", None)
        gte, lt = _instant(case.query.get("created_gte")), _instant(case.query.get("created_lt"))
        if gte is not None and lt is not None and lt <= gte:
            case.query.pop("created_lt")
    if isinstance(case.body, dict):
        currency = case.body.get("wallet_currency")
        if isinstance(currency, str) and currency not in SANDBOX_WALLET_CURRENCIES:
            case.body["wallet_currency"] = SANDBOX_WALLET_CURRENCIES[sum(map(ord, currency)) % 7]
        if case.body.get("payer_country") is not None or case.body.get("payer_id_type") is not None:
            case.body.pop("payer_country", None)
            case.body.pop("payer_id_type", None)
        amount = case.body.get("amount")
        if isinstance(amount, (int, float)) and not isinstance(amount, bool) and amount > 0:
            case.body["amount"] = max(round(float(f"{amount:.15g}"), 2), 0.01)
