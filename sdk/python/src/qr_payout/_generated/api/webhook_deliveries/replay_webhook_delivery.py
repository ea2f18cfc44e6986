from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.webhook_delivery_replay_request import WebhookDeliveryReplayRequest
from ...models.webhook_delivery_replay_response import WebhookDeliveryReplayResponse
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: WebhookDeliveryReplayRequest | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/webhook-deliveries/{id}/replay".format(
            id=quote(str(id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | WebhookDeliveryReplayResponse | None:
    if response.status_code == 200:
        response_200 = WebhookDeliveryReplayResponse.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())

        return response_404

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
) -> Response[ErrorBody | WebhookDeliveryReplayResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: WebhookDeliveryReplayRequest | Unset = UNSET,
) -> Response[ErrorBody | WebhookDeliveryReplayResponse]:
    """Send a webhook delivery again

     Re-enqueues a `delivered`, `failed` or `exhausted` delivery: it becomes `pending` with `attempts` 0
    and `next_attempt_at` now, and the worker sends the same event (same `event_id`, same body, a fresh
    signature) on its next tick. Replaying a `delivered` delivery is a supported re-send: receivers
    deduplicate on `event_id`. A `pending` or `delivering` delivery is 409 `DeliveryInFlight`; a replay
    sooner than 10 seconds (the default) after the last replay of the same delivery is 429
    `DeliveryReplayTooSoon` with Retry-After. No body is needed; an empty body or `{}` is accepted.

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`AuthError`](/docs/errors#AuthError), [`NotFoundError`](/docs/errors#NotFoundError),
    [`DeliveryInFlight`](/docs/errors#DeliveryInFlight),
    [`PayloadTooLarge`](/docs/errors#PayloadTooLarge),
    [`UnsupportedMediaType`](/docs/errors#UnsupportedMediaType),
    [`RateLimitError`](/docs/errors#RateLimitError),
    [`DeliveryReplayTooSoon`](/docs/errors#DeliveryReplayTooSoon),
    [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#replayWebhookDelivery](/docs/samples#replayWebhookDelivery).

    Args:
        id (str):
        body (WebhookDeliveryReplayRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | WebhookDeliveryReplayResponse]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: WebhookDeliveryReplayRequest | Unset = UNSET,
) -> ErrorBody | WebhookDeliveryReplayResponse | None:
    """Send a webhook delivery again

     Re-enqueues a `delivered`, `failed` or `exhausted` delivery: it becomes `pending` with `attempts` 0
    and `next_attempt_at` now, and the worker sends the same event (same `event_id`, same body, a fresh
    signature) on its next tick. Replaying a `delivered` delivery is a supported re-send: receivers
    deduplicate on `event_id`. A `pending` or `delivering` delivery is 409 `DeliveryInFlight`; a replay
    sooner than 10 seconds (the default) after the last replay of the same delivery is 429
    `DeliveryReplayTooSoon` with Retry-After. No body is needed; an empty body or `{}` is accepted.

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`AuthError`](/docs/errors#AuthError), [`NotFoundError`](/docs/errors#NotFoundError),
    [`DeliveryInFlight`](/docs/errors#DeliveryInFlight),
    [`PayloadTooLarge`](/docs/errors#PayloadTooLarge),
    [`UnsupportedMediaType`](/docs/errors#UnsupportedMediaType),
    [`RateLimitError`](/docs/errors#RateLimitError),
    [`DeliveryReplayTooSoon`](/docs/errors#DeliveryReplayTooSoon),
    [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#replayWebhookDelivery](/docs/samples#replayWebhookDelivery).

    Args:
        id (str):
        body (WebhookDeliveryReplayRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | WebhookDeliveryReplayResponse
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: WebhookDeliveryReplayRequest | Unset = UNSET,
) -> Response[ErrorBody | WebhookDeliveryReplayResponse]:
    """Send a webhook delivery again

     Re-enqueues a `delivered`, `failed` or `exhausted` delivery: it becomes `pending` with `attempts` 0
    and `next_attempt_at` now, and the worker sends the same event (same `event_id`, same body, a fresh
    signature) on its next tick. Replaying a `delivered` delivery is a supported re-send: receivers
    deduplicate on `event_id`. A `pending` or `delivering` delivery is 409 `DeliveryInFlight`; a replay
    sooner than 10 seconds (the default) after the last replay of the same delivery is 429
    `DeliveryReplayTooSoon` with Retry-After. No body is needed; an empty body or `{}` is accepted.

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`AuthError`](/docs/errors#AuthError), [`NotFoundError`](/docs/errors#NotFoundError),
    [`DeliveryInFlight`](/docs/errors#DeliveryInFlight),
    [`PayloadTooLarge`](/docs/errors#PayloadTooLarge),
    [`UnsupportedMediaType`](/docs/errors#UnsupportedMediaType),
    [`RateLimitError`](/docs/errors#RateLimitError),
    [`DeliveryReplayTooSoon`](/docs/errors#DeliveryReplayTooSoon),
    [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#replayWebhookDelivery](/docs/samples#replayWebhookDelivery).

    Args:
        id (str):
        body (WebhookDeliveryReplayRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | WebhookDeliveryReplayResponse]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: WebhookDeliveryReplayRequest | Unset = UNSET,
) -> ErrorBody | WebhookDeliveryReplayResponse | None:
    """Send a webhook delivery again

     Re-enqueues a `delivered`, `failed` or `exhausted` delivery: it becomes `pending` with `attempts` 0
    and `next_attempt_at` now, and the worker sends the same event (same `event_id`, same body, a fresh
    signature) on its next tick. Replaying a `delivered` delivery is a supported re-send: receivers
    deduplicate on `event_id`. A `pending` or `delivering` delivery is 409 `DeliveryInFlight`; a replay
    sooner than 10 seconds (the default) after the last replay of the same delivery is 429
    `DeliveryReplayTooSoon` with Retry-After. No body is needed; an empty body or `{}` is accepted.

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`AuthError`](/docs/errors#AuthError), [`NotFoundError`](/docs/errors#NotFoundError),
    [`DeliveryInFlight`](/docs/errors#DeliveryInFlight),
    [`PayloadTooLarge`](/docs/errors#PayloadTooLarge),
    [`UnsupportedMediaType`](/docs/errors#UnsupportedMediaType),
    [`RateLimitError`](/docs/errors#RateLimitError),
    [`DeliveryReplayTooSoon`](/docs/errors#DeliveryReplayTooSoon),
    [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#replayWebhookDelivery](/docs/samples#replayWebhookDelivery).

    Args:
        id (str):
        body (WebhookDeliveryReplayRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | WebhookDeliveryReplayResponse
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
        )
    ).parsed
