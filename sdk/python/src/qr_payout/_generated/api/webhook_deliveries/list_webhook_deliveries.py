from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.webhook_deliveries_response import WebhookDeliveriesResponse
from ...models.webhook_delivery_status import WebhookDeliveryStatus
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    transaction_id: str | Unset = UNSET,
    status: WebhookDeliveryStatus | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["transaction_id"] = transaction_id

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params["limit"] = limit

    params["cursor"] = cursor

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/webhook-deliveries",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | WebhookDeliveriesResponse | None:
    if response.status_code == 200:
        response_200 = WebhookDeliveriesResponse.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

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
) -> Response[ErrorBody | WebhookDeliveriesResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    transaction_id: str | Unset = UNSET,
    status: WebhookDeliveryStatus | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> Response[ErrorBody | WebhookDeliveriesResponse]:
    """List the tenant's webhook deliveries

     Your deliveries, newest first, optionally filtered by `transaction_id` and `status` (both may be
    combined), a page at a time: pass `next_cursor` back as `cursor` until it is null. An unknown query
    parameter, a `status` that is not a state, a `limit` that is not an integer from 1 to 100, a
    `transaction_id` that is not a transaction id or a `cursor` this API did not give are 400
    `ValidationError` naming the parameter.

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`AuthError`](/docs/errors#AuthError), [`RateLimitError`](/docs/errors#RateLimitError),
    [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#listWebhookDeliveries](/docs/samples#listWebhookDeliveries).

    Args:
        transaction_id (str | Unset):
        status (WebhookDeliveryStatus | Unset):
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | WebhookDeliveriesResponse]
    """

    kwargs = _get_kwargs(
        transaction_id=transaction_id,
        status=status,
        limit=limit,
        cursor=cursor,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    transaction_id: str | Unset = UNSET,
    status: WebhookDeliveryStatus | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> ErrorBody | WebhookDeliveriesResponse | None:
    """List the tenant's webhook deliveries

     Your deliveries, newest first, optionally filtered by `transaction_id` and `status` (both may be
    combined), a page at a time: pass `next_cursor` back as `cursor` until it is null. An unknown query
    parameter, a `status` that is not a state, a `limit` that is not an integer from 1 to 100, a
    `transaction_id` that is not a transaction id or a `cursor` this API did not give are 400
    `ValidationError` naming the parameter.

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`AuthError`](/docs/errors#AuthError), [`RateLimitError`](/docs/errors#RateLimitError),
    [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#listWebhookDeliveries](/docs/samples#listWebhookDeliveries).

    Args:
        transaction_id (str | Unset):
        status (WebhookDeliveryStatus | Unset):
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | WebhookDeliveriesResponse
    """

    return sync_detailed(
        client=client,
        transaction_id=transaction_id,
        status=status,
        limit=limit,
        cursor=cursor,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    transaction_id: str | Unset = UNSET,
    status: WebhookDeliveryStatus | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> Response[ErrorBody | WebhookDeliveriesResponse]:
    """List the tenant's webhook deliveries

     Your deliveries, newest first, optionally filtered by `transaction_id` and `status` (both may be
    combined), a page at a time: pass `next_cursor` back as `cursor` until it is null. An unknown query
    parameter, a `status` that is not a state, a `limit` that is not an integer from 1 to 100, a
    `transaction_id` that is not a transaction id or a `cursor` this API did not give are 400
    `ValidationError` naming the parameter.

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`AuthError`](/docs/errors#AuthError), [`RateLimitError`](/docs/errors#RateLimitError),
    [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#listWebhookDeliveries](/docs/samples#listWebhookDeliveries).

    Args:
        transaction_id (str | Unset):
        status (WebhookDeliveryStatus | Unset):
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | WebhookDeliveriesResponse]
    """

    kwargs = _get_kwargs(
        transaction_id=transaction_id,
        status=status,
        limit=limit,
        cursor=cursor,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    transaction_id: str | Unset = UNSET,
    status: WebhookDeliveryStatus | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> ErrorBody | WebhookDeliveriesResponse | None:
    """List the tenant's webhook deliveries

     Your deliveries, newest first, optionally filtered by `transaction_id` and `status` (both may be
    combined), a page at a time: pass `next_cursor` back as `cursor` until it is null. An unknown query
    parameter, a `status` that is not a state, a `limit` that is not an integer from 1 to 100, a
    `transaction_id` that is not a transaction id or a `cursor` this API did not give are 400
    `ValidationError` naming the parameter.

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`AuthError`](/docs/errors#AuthError), [`RateLimitError`](/docs/errors#RateLimitError),
    [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#listWebhookDeliveries](/docs/samples#listWebhookDeliveries).

    Args:
        transaction_id (str | Unset):
        status (WebhookDeliveryStatus | Unset):
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | WebhookDeliveriesResponse
    """

    return (
        await asyncio_detailed(
            client=client,
            transaction_id=transaction_id,
            status=status,
            limit=limit,
            cursor=cursor,
        )
    ).parsed
