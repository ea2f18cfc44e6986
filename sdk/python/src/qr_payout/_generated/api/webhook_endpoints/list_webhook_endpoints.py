from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.webhook_endpoints_response import WebhookEndpointsResponse
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/webhook-endpoints",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | WebhookEndpointsResponse | None:
    if response.status_code == 200:
        response_200 = WebhookEndpointsResponse.from_dict(response.json())

        return response_200

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
) -> Response[ErrorBody | WebhookEndpointsResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[ErrorBody | WebhookEndpointsResponse]:
    """List the tenant's webhook endpoints

     Every webhook endpoint registered for your tenant, with the names of its custom headers (values are
    never shown). Endpoints are registered by the operator during onboarding.

    Errors it can return: [`AuthError`](/docs/errors#AuthError),
    [`RateLimitError`](/docs/errors#RateLimitError), [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#listWebhookEndpoints](/docs/samples#listWebhookEndpoints).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | WebhookEndpointsResponse]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> ErrorBody | WebhookEndpointsResponse | None:
    """List the tenant's webhook endpoints

     Every webhook endpoint registered for your tenant, with the names of its custom headers (values are
    never shown). Endpoints are registered by the operator during onboarding.

    Errors it can return: [`AuthError`](/docs/errors#AuthError),
    [`RateLimitError`](/docs/errors#RateLimitError), [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#listWebhookEndpoints](/docs/samples#listWebhookEndpoints).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | WebhookEndpointsResponse
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[ErrorBody | WebhookEndpointsResponse]:
    """List the tenant's webhook endpoints

     Every webhook endpoint registered for your tenant, with the names of its custom headers (values are
    never shown). Endpoints are registered by the operator during onboarding.

    Errors it can return: [`AuthError`](/docs/errors#AuthError),
    [`RateLimitError`](/docs/errors#RateLimitError), [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#listWebhookEndpoints](/docs/samples#listWebhookEndpoints).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | WebhookEndpointsResponse]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> ErrorBody | WebhookEndpointsResponse | None:
    """List the tenant's webhook endpoints

     Every webhook endpoint registered for your tenant, with the names of its custom headers (values are
    never shown). Endpoints are registered by the operator during onboarding.

    Errors it can return: [`AuthError`](/docs/errors#AuthError),
    [`RateLimitError`](/docs/errors#RateLimitError), [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#listWebhookEndpoints](/docs/samples#listWebhookEndpoints).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | WebhookEndpointsResponse
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
