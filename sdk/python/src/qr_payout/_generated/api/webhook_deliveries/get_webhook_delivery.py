from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.webhook_delivery_response import WebhookDeliveryResponse
from ...types import Response


def _get_kwargs(
    id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/webhook-deliveries/{id}".format(
            id=quote(str(id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | WebhookDeliveryResponse | None:
    if response.status_code == 200:
        response_200 = WebhookDeliveryResponse.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())

        return response_404

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
) -> Response[ErrorBody | WebhookDeliveryResponse]:
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
) -> Response[ErrorBody | WebhookDeliveryResponse]:
    """Read a webhook delivery with its attempts

     One of your deliveries and its `attempt_log`: every HTTP attempt, oldest first, across replays, with
    the status answered, the failure class and the first bytes of the answer. An unknown id and another
    tenant's id are both 404 `NotFoundError`.

    Errors it can return: [`AuthError`](/docs/errors#AuthError),
    [`NotFoundError`](/docs/errors#NotFoundError), [`RateLimitError`](/docs/errors#RateLimitError),
    [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#getWebhookDelivery](/docs/samples#getWebhookDelivery).

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | WebhookDeliveryResponse]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
) -> ErrorBody | WebhookDeliveryResponse | None:
    """Read a webhook delivery with its attempts

     One of your deliveries and its `attempt_log`: every HTTP attempt, oldest first, across replays, with
    the status answered, the failure class and the first bytes of the answer. An unknown id and another
    tenant's id are both 404 `NotFoundError`.

    Errors it can return: [`AuthError`](/docs/errors#AuthError),
    [`NotFoundError`](/docs/errors#NotFoundError), [`RateLimitError`](/docs/errors#RateLimitError),
    [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#getWebhookDelivery](/docs/samples#getWebhookDelivery).

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | WebhookDeliveryResponse
    """

    return sync_detailed(
        id=id,
        client=client,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[ErrorBody | WebhookDeliveryResponse]:
    """Read a webhook delivery with its attempts

     One of your deliveries and its `attempt_log`: every HTTP attempt, oldest first, across replays, with
    the status answered, the failure class and the first bytes of the answer. An unknown id and another
    tenant's id are both 404 `NotFoundError`.

    Errors it can return: [`AuthError`](/docs/errors#AuthError),
    [`NotFoundError`](/docs/errors#NotFoundError), [`RateLimitError`](/docs/errors#RateLimitError),
    [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#getWebhookDelivery](/docs/samples#getWebhookDelivery).

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | WebhookDeliveryResponse]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
) -> ErrorBody | WebhookDeliveryResponse | None:
    """Read a webhook delivery with its attempts

     One of your deliveries and its `attempt_log`: every HTTP attempt, oldest first, across replays, with
    the status answered, the failure class and the first bytes of the answer. An unknown id and another
    tenant's id are both 404 `NotFoundError`.

    Errors it can return: [`AuthError`](/docs/errors#AuthError),
    [`NotFoundError`](/docs/errors#NotFoundError), [`RateLimitError`](/docs/errors#RateLimitError),
    [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#getWebhookDelivery](/docs/samples#getWebhookDelivery).

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | WebhookDeliveryResponse
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
        )
    ).parsed
