from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.execute_response import ExecuteResponse
from ...models.trigger_sandbox_event_body import TriggerSandboxEventBody
from ...types import Response


def _get_kwargs(
    *,
    body: TriggerSandboxEventBody,
    idempotency_key: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/sandbox/triggers",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | ExecuteResponse | None:
    if response.status_code == 201:
        response_201 = ExecuteResponse.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())

        return response_403

    if response.status_code == 409:
        response_409 = ErrorBody.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = ErrorBody.from_dict(response.json())

        return response_415

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
) -> Response[ErrorBody | ExecuteResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: TriggerSandboxEventBody,
    idempotency_key: str,
) -> Response[ErrorBody | ExecuteResponse]:
    """Make a terminal transaction and its webhook event happen (sandbox only)

     A test helper ([docs/api/sandbox.md "Triggers"](/docs/api/sandbox#triggers)): pays a sandbox test QR
    for your tenant through the normal pay path, with the test amount that ends in the `event` asked for
    (`transaction.completed`: `br-static-amount`; `transaction.failed`: `br-outcome-51`, refused
    `AC03`), and answers 201 with the transaction, already terminal. Its webhook event goes to your
    registered endpoints and to `callback_url`, signed like any other. Only the sandbox (`npm start`)
    runs it: every other deployment lists it in its reference too and answers 403 `SandboxOnly`,
    whatever the body. An unknown `event` is 400 `ValidationError` naming `event`. Idempotency: a
    missing key is 400 `IdempotencyKeyMissing`; the same key and body while the first request is still
    running is 409 `IdempotencyInProgress` (retry shortly); the same key and body after it finished
    returns the first response with `Idempotent-Replayed: true` (with this request's `request_id`); the
    same key with another body is 400 `IdempotencyConflict`. Only outcomes are kept: a 5xx, or a refusal
    before anything ran (validation, QR or amount errors), is not stored, so the same key can be
    retried. The body fingerprint is the SHA-256 of the canonical JSON of the parsed body (key order and
    spacing do not matter).

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`IdempotencyKeyMissing`](/docs/errors#IdempotencyKeyMissing),
    [`IdempotencyConflict`](/docs/errors#IdempotencyConflict), [`AuthError`](/docs/errors#AuthError),
    [`SandboxOnly`](/docs/errors#SandboxOnly),
    [`IdempotencyInProgress`](/docs/errors#IdempotencyInProgress),
    [`PayloadTooLarge`](/docs/errors#PayloadTooLarge),
    [`UnsupportedMediaType`](/docs/errors#UnsupportedMediaType),
    [`RateLimitError`](/docs/errors#RateLimitError), [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#triggerSandboxEvent](/docs/samples#triggerSandboxEvent).

    Args:
        idempotency_key (str):
        body (TriggerSandboxEventBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ExecuteResponse]
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
    body: TriggerSandboxEventBody,
    idempotency_key: str,
) -> ErrorBody | ExecuteResponse | None:
    """Make a terminal transaction and its webhook event happen (sandbox only)

     A test helper ([docs/api/sandbox.md "Triggers"](/docs/api/sandbox#triggers)): pays a sandbox test QR
    for your tenant through the normal pay path, with the test amount that ends in the `event` asked for
    (`transaction.completed`: `br-static-amount`; `transaction.failed`: `br-outcome-51`, refused
    `AC03`), and answers 201 with the transaction, already terminal. Its webhook event goes to your
    registered endpoints and to `callback_url`, signed like any other. Only the sandbox (`npm start`)
    runs it: every other deployment lists it in its reference too and answers 403 `SandboxOnly`,
    whatever the body. An unknown `event` is 400 `ValidationError` naming `event`. Idempotency: a
    missing key is 400 `IdempotencyKeyMissing`; the same key and body while the first request is still
    running is 409 `IdempotencyInProgress` (retry shortly); the same key and body after it finished
    returns the first response with `Idempotent-Replayed: true` (with this request's `request_id`); the
    same key with another body is 400 `IdempotencyConflict`. Only outcomes are kept: a 5xx, or a refusal
    before anything ran (validation, QR or amount errors), is not stored, so the same key can be
    retried. The body fingerprint is the SHA-256 of the canonical JSON of the parsed body (key order and
    spacing do not matter).

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`IdempotencyKeyMissing`](/docs/errors#IdempotencyKeyMissing),
    [`IdempotencyConflict`](/docs/errors#IdempotencyConflict), [`AuthError`](/docs/errors#AuthError),
    [`SandboxOnly`](/docs/errors#SandboxOnly),
    [`IdempotencyInProgress`](/docs/errors#IdempotencyInProgress),
    [`PayloadTooLarge`](/docs/errors#PayloadTooLarge),
    [`UnsupportedMediaType`](/docs/errors#UnsupportedMediaType),
    [`RateLimitError`](/docs/errors#RateLimitError), [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#triggerSandboxEvent](/docs/samples#triggerSandboxEvent).

    Args:
        idempotency_key (str):
        body (TriggerSandboxEventBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ExecuteResponse
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: TriggerSandboxEventBody,
    idempotency_key: str,
) -> Response[ErrorBody | ExecuteResponse]:
    """Make a terminal transaction and its webhook event happen (sandbox only)

     A test helper ([docs/api/sandbox.md "Triggers"](/docs/api/sandbox#triggers)): pays a sandbox test QR
    for your tenant through the normal pay path, with the test amount that ends in the `event` asked for
    (`transaction.completed`: `br-static-amount`; `transaction.failed`: `br-outcome-51`, refused
    `AC03`), and answers 201 with the transaction, already terminal. Its webhook event goes to your
    registered endpoints and to `callback_url`, signed like any other. Only the sandbox (`npm start`)
    runs it: every other deployment lists it in its reference too and answers 403 `SandboxOnly`,
    whatever the body. An unknown `event` is 400 `ValidationError` naming `event`. Idempotency: a
    missing key is 400 `IdempotencyKeyMissing`; the same key and body while the first request is still
    running is 409 `IdempotencyInProgress` (retry shortly); the same key and body after it finished
    returns the first response with `Idempotent-Replayed: true` (with this request's `request_id`); the
    same key with another body is 400 `IdempotencyConflict`. Only outcomes are kept: a 5xx, or a refusal
    before anything ran (validation, QR or amount errors), is not stored, so the same key can be
    retried. The body fingerprint is the SHA-256 of the canonical JSON of the parsed body (key order and
    spacing do not matter).

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`IdempotencyKeyMissing`](/docs/errors#IdempotencyKeyMissing),
    [`IdempotencyConflict`](/docs/errors#IdempotencyConflict), [`AuthError`](/docs/errors#AuthError),
    [`SandboxOnly`](/docs/errors#SandboxOnly),
    [`IdempotencyInProgress`](/docs/errors#IdempotencyInProgress),
    [`PayloadTooLarge`](/docs/errors#PayloadTooLarge),
    [`UnsupportedMediaType`](/docs/errors#UnsupportedMediaType),
    [`RateLimitError`](/docs/errors#RateLimitError), [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#triggerSandboxEvent](/docs/samples#triggerSandboxEvent).

    Args:
        idempotency_key (str):
        body (TriggerSandboxEventBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ExecuteResponse]
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
    body: TriggerSandboxEventBody,
    idempotency_key: str,
) -> ErrorBody | ExecuteResponse | None:
    """Make a terminal transaction and its webhook event happen (sandbox only)

     A test helper ([docs/api/sandbox.md "Triggers"](/docs/api/sandbox#triggers)): pays a sandbox test QR
    for your tenant through the normal pay path, with the test amount that ends in the `event` asked for
    (`transaction.completed`: `br-static-amount`; `transaction.failed`: `br-outcome-51`, refused
    `AC03`), and answers 201 with the transaction, already terminal. Its webhook event goes to your
    registered endpoints and to `callback_url`, signed like any other. Only the sandbox (`npm start`)
    runs it: every other deployment lists it in its reference too and answers 403 `SandboxOnly`,
    whatever the body. An unknown `event` is 400 `ValidationError` naming `event`. Idempotency: a
    missing key is 400 `IdempotencyKeyMissing`; the same key and body while the first request is still
    running is 409 `IdempotencyInProgress` (retry shortly); the same key and body after it finished
    returns the first response with `Idempotent-Replayed: true` (with this request's `request_id`); the
    same key with another body is 400 `IdempotencyConflict`. Only outcomes are kept: a 5xx, or a refusal
    before anything ran (validation, QR or amount errors), is not stored, so the same key can be
    retried. The body fingerprint is the SHA-256 of the canonical JSON of the parsed body (key order and
    spacing do not matter).

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`IdempotencyKeyMissing`](/docs/errors#IdempotencyKeyMissing),
    [`IdempotencyConflict`](/docs/errors#IdempotencyConflict), [`AuthError`](/docs/errors#AuthError),
    [`SandboxOnly`](/docs/errors#SandboxOnly),
    [`IdempotencyInProgress`](/docs/errors#IdempotencyInProgress),
    [`PayloadTooLarge`](/docs/errors#PayloadTooLarge),
    [`UnsupportedMediaType`](/docs/errors#UnsupportedMediaType),
    [`RateLimitError`](/docs/errors#RateLimitError), [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#triggerSandboxEvent](/docs/samples#triggerSandboxEvent).

    Args:
        idempotency_key (str):
        body (TriggerSandboxEventBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ExecuteResponse
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
