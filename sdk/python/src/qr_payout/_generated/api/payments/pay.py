from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.pay_request import PayRequest
from ...models.pay_response import PayResponse
from ...types import Response


def _get_kwargs(
    *,
    body: PayRequest,
    idempotency_key: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/pay",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | PayResponse | None:
    if response.status_code == 200:
        response_200 = PayResponse.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 409:
        response_409 = ErrorBody.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = ErrorBody.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = ErrorBody.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = ErrorBody.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = ErrorBody.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorBody | PayResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: PayRequest,
    idempotency_key: str,
) -> Response[ErrorBody | PayResponse]:
    """Resolve a QR code and execute the payment in one call

     POST /v1/resolve and POST /v1/execute in one call: the body is the union of both, and the answer
    carries the transaction and the instruction the QR resolved to (with `wallet_amount` and `quote`
    when `wallet_currency` was sent). The Idempotency-Key covers both steps: a retry never resolves a
    second instruction nor pays twice. In the sandbox the last two digits of the amount pick the
    partner's answer: 51 failed `AC03` at once, 52 completed by polling, 53 failed `AM04` by polling, 54
    `processing` after the whole wait (8 s) then completed by a late callback, anything else completed
    by callback ([docs/api/sandbox.md "Test amounts"](/docs/api/sandbox#test-amounts); test QR codes:
    GET /v1/sandbox/test-qrs). Idempotency: a missing key is 400 `IdempotencyKeyMissing`; the same key
    and body while the first request is still running is 409 `IdempotencyInProgress` (retry shortly);
    the same key and body after it finished returns the first response with `Idempotent-Replayed: true`
    (with this request's `request_id`); the same key with another body is 400 `IdempotencyConflict`.
    Only outcomes are kept: a 5xx, or a refusal before anything ran (validation, QR or amount errors),
    is not stored, so the same key can be retried. The body fingerprint is the SHA-256 of the canonical
    JSON of the parsed body (key order and spacing do not matter).

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`IdempotencyKeyMissing`](/docs/errors#IdempotencyKeyMissing),
    [`IdempotencyConflict`](/docs/errors#IdempotencyConflict), [`AuthError`](/docs/errors#AuthError),
    [`IdempotencyInProgress`](/docs/errors#IdempotencyInProgress),
    [`ChargeAlreadyPaid`](/docs/errors#ChargeAlreadyPaid),
    [`PayloadTooLarge`](/docs/errors#PayloadTooLarge),
    [`UnsupportedMediaType`](/docs/errors#UnsupportedMediaType),
    [`QrDecodeError`](/docs/errors#QrDecodeError), [`AmountMismatch`](/docs/errors#AmountMismatch),
    [`AmountRequired`](/docs/errors#AmountRequired),
    [`AmountOutOfRange`](/docs/errors#AmountOutOfRange),
    [`RateLimitError`](/docs/errors#RateLimitError), [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable),
    [`QrLocationUnavailable`](/docs/errors#QrLocationUnavailable).

    Samples in curl, TypeScript, Python and Go: [/docs/samples#pay](/docs/samples#pay).

    Args:
        idempotency_key (str):
        body (PayRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | PayResponse]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: PayRequest,
    idempotency_key: str,
) -> ErrorBody | PayResponse | None:
    """Resolve a QR code and execute the payment in one call

     POST /v1/resolve and POST /v1/execute in one call: the body is the union of both, and the answer
    carries the transaction and the instruction the QR resolved to (with `wallet_amount` and `quote`
    when `wallet_currency` was sent). The Idempotency-Key covers both steps: a retry never resolves a
    second instruction nor pays twice. In the sandbox the last two digits of the amount pick the
    partner's answer: 51 failed `AC03` at once, 52 completed by polling, 53 failed `AM04` by polling, 54
    `processing` after the whole wait (8 s) then completed by a late callback, anything else completed
    by callback ([docs/api/sandbox.md "Test amounts"](/docs/api/sandbox#test-amounts); test QR codes:
    GET /v1/sandbox/test-qrs). Idempotency: a missing key is 400 `IdempotencyKeyMissing`; the same key
    and body while the first request is still running is 409 `IdempotencyInProgress` (retry shortly);
    the same key and body after it finished returns the first response with `Idempotent-Replayed: true`
    (with this request's `request_id`); the same key with another body is 400 `IdempotencyConflict`.
    Only outcomes are kept: a 5xx, or a refusal before anything ran (validation, QR or amount errors),
    is not stored, so the same key can be retried. The body fingerprint is the SHA-256 of the canonical
    JSON of the parsed body (key order and spacing do not matter).

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`IdempotencyKeyMissing`](/docs/errors#IdempotencyKeyMissing),
    [`IdempotencyConflict`](/docs/errors#IdempotencyConflict), [`AuthError`](/docs/errors#AuthError),
    [`IdempotencyInProgress`](/docs/errors#IdempotencyInProgress),
    [`ChargeAlreadyPaid`](/docs/errors#ChargeAlreadyPaid),
    [`PayloadTooLarge`](/docs/errors#PayloadTooLarge),
    [`UnsupportedMediaType`](/docs/errors#UnsupportedMediaType),
    [`QrDecodeError`](/docs/errors#QrDecodeError), [`AmountMismatch`](/docs/errors#AmountMismatch),
    [`AmountRequired`](/docs/errors#AmountRequired),
    [`AmountOutOfRange`](/docs/errors#AmountOutOfRange),
    [`RateLimitError`](/docs/errors#RateLimitError), [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable),
    [`QrLocationUnavailable`](/docs/errors#QrLocationUnavailable).

    Samples in curl, TypeScript, Python and Go: [/docs/samples#pay](/docs/samples#pay).

    Args:
        idempotency_key (str):
        body (PayRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | PayResponse
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: PayRequest,
    idempotency_key: str,
) -> Response[ErrorBody | PayResponse]:
    """Resolve a QR code and execute the payment in one call

     POST /v1/resolve and POST /v1/execute in one call: the body is the union of both, and the answer
    carries the transaction and the instruction the QR resolved to (with `wallet_amount` and `quote`
    when `wallet_currency` was sent). The Idempotency-Key covers both steps: a retry never resolves a
    second instruction nor pays twice. In the sandbox the last two digits of the amount pick the
    partner's answer: 51 failed `AC03` at once, 52 completed by polling, 53 failed `AM04` by polling, 54
    `processing` after the whole wait (8 s) then completed by a late callback, anything else completed
    by callback ([docs/api/sandbox.md "Test amounts"](/docs/api/sandbox#test-amounts); test QR codes:
    GET /v1/sandbox/test-qrs). Idempotency: a missing key is 400 `IdempotencyKeyMissing`; the same key
    and body while the first request is still running is 409 `IdempotencyInProgress` (retry shortly);
    the same key and body after it finished returns the first response with `Idempotent-Replayed: true`
    (with this request's `request_id`); the same key with another body is 400 `IdempotencyConflict`.
    Only outcomes are kept: a 5xx, or a refusal before anything ran (validation, QR or amount errors),
    is not stored, so the same key can be retried. The body fingerprint is the SHA-256 of the canonical
    JSON of the parsed body (key order and spacing do not matter).

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`IdempotencyKeyMissing`](/docs/errors#IdempotencyKeyMissing),
    [`IdempotencyConflict`](/docs/errors#IdempotencyConflict), [`AuthError`](/docs/errors#AuthError),
    [`IdempotencyInProgress`](/docs/errors#IdempotencyInProgress),
    [`ChargeAlreadyPaid`](/docs/errors#ChargeAlreadyPaid),
    [`PayloadTooLarge`](/docs/errors#PayloadTooLarge),
    [`UnsupportedMediaType`](/docs/errors#UnsupportedMediaType),
    [`QrDecodeError`](/docs/errors#QrDecodeError), [`AmountMismatch`](/docs/errors#AmountMismatch),
    [`AmountRequired`](/docs/errors#AmountRequired),
    [`AmountOutOfRange`](/docs/errors#AmountOutOfRange),
    [`RateLimitError`](/docs/errors#RateLimitError), [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable),
    [`QrLocationUnavailable`](/docs/errors#QrLocationUnavailable).

    Samples in curl, TypeScript, Python and Go: [/docs/samples#pay](/docs/samples#pay).

    Args:
        idempotency_key (str):
        body (PayRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | PayResponse]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: PayRequest,
    idempotency_key: str,
) -> ErrorBody | PayResponse | None:
    """Resolve a QR code and execute the payment in one call

     POST /v1/resolve and POST /v1/execute in one call: the body is the union of both, and the answer
    carries the transaction and the instruction the QR resolved to (with `wallet_amount` and `quote`
    when `wallet_currency` was sent). The Idempotency-Key covers both steps: a retry never resolves a
    second instruction nor pays twice. In the sandbox the last two digits of the amount pick the
    partner's answer: 51 failed `AC03` at once, 52 completed by polling, 53 failed `AM04` by polling, 54
    `processing` after the whole wait (8 s) then completed by a late callback, anything else completed
    by callback ([docs/api/sandbox.md "Test amounts"](/docs/api/sandbox#test-amounts); test QR codes:
    GET /v1/sandbox/test-qrs). Idempotency: a missing key is 400 `IdempotencyKeyMissing`; the same key
    and body while the first request is still running is 409 `IdempotencyInProgress` (retry shortly);
    the same key and body after it finished returns the first response with `Idempotent-Replayed: true`
    (with this request's `request_id`); the same key with another body is 400 `IdempotencyConflict`.
    Only outcomes are kept: a 5xx, or a refusal before anything ran (validation, QR or amount errors),
    is not stored, so the same key can be retried. The body fingerprint is the SHA-256 of the canonical
    JSON of the parsed body (key order and spacing do not matter).

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`IdempotencyKeyMissing`](/docs/errors#IdempotencyKeyMissing),
    [`IdempotencyConflict`](/docs/errors#IdempotencyConflict), [`AuthError`](/docs/errors#AuthError),
    [`IdempotencyInProgress`](/docs/errors#IdempotencyInProgress),
    [`ChargeAlreadyPaid`](/docs/errors#ChargeAlreadyPaid),
    [`PayloadTooLarge`](/docs/errors#PayloadTooLarge),
    [`UnsupportedMediaType`](/docs/errors#UnsupportedMediaType),
    [`QrDecodeError`](/docs/errors#QrDecodeError), [`AmountMismatch`](/docs/errors#AmountMismatch),
    [`AmountRequired`](/docs/errors#AmountRequired),
    [`AmountOutOfRange`](/docs/errors#AmountOutOfRange),
    [`RateLimitError`](/docs/errors#RateLimitError), [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable),
    [`QrLocationUnavailable`](/docs/errors#QrLocationUnavailable).

    Samples in curl, TypeScript, Python and Go: [/docs/samples#pay](/docs/samples#pay).

    Args:
        idempotency_key (str):
        body (PayRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | PayResponse
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
