from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.schemes_response import SchemesResponse
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/schemes",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | SchemesResponse | None:
    if response.status_code == 200:
        response_200 = SchemesResponse.from_dict(response.json())

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
) -> Response[ErrorBody | SchemesResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[ErrorBody | SchemesResponse]:
    """List the accepted QR schemes

     The schemes the decoder recognizes, each with its country, currency, rail and the minimum and
    maximum amount its rail accepts (`min_amount`, `max_amount`; a positive amount outside them is 422
    `AmountOutOfRange` at resolve and pay); and once for all of them, `payer_identity`: the payer fields
    execute and pay take and the payer documents payout checks, by issuing country and type. Cached by
    the gateway for SCHEMES_CACHE_TTL_MS (60 s by default): the list only changes with a decoder release
    or a change of payout limits.

    Errors it can return: [`AuthError`](/docs/errors#AuthError),
    [`RateLimitError`](/docs/errors#RateLimitError), [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go: [/docs/samples#listSchemes](/docs/samples#listSchemes).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | SchemesResponse]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> ErrorBody | SchemesResponse | None:
    """List the accepted QR schemes

     The schemes the decoder recognizes, each with its country, currency, rail and the minimum and
    maximum amount its rail accepts (`min_amount`, `max_amount`; a positive amount outside them is 422
    `AmountOutOfRange` at resolve and pay); and once for all of them, `payer_identity`: the payer fields
    execute and pay take and the payer documents payout checks, by issuing country and type. Cached by
    the gateway for SCHEMES_CACHE_TTL_MS (60 s by default): the list only changes with a decoder release
    or a change of payout limits.

    Errors it can return: [`AuthError`](/docs/errors#AuthError),
    [`RateLimitError`](/docs/errors#RateLimitError), [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go: [/docs/samples#listSchemes](/docs/samples#listSchemes).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | SchemesResponse
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[ErrorBody | SchemesResponse]:
    """List the accepted QR schemes

     The schemes the decoder recognizes, each with its country, currency, rail and the minimum and
    maximum amount its rail accepts (`min_amount`, `max_amount`; a positive amount outside them is 422
    `AmountOutOfRange` at resolve and pay); and once for all of them, `payer_identity`: the payer fields
    execute and pay take and the payer documents payout checks, by issuing country and type. Cached by
    the gateway for SCHEMES_CACHE_TTL_MS (60 s by default): the list only changes with a decoder release
    or a change of payout limits.

    Errors it can return: [`AuthError`](/docs/errors#AuthError),
    [`RateLimitError`](/docs/errors#RateLimitError), [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go: [/docs/samples#listSchemes](/docs/samples#listSchemes).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | SchemesResponse]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> ErrorBody | SchemesResponse | None:
    """List the accepted QR schemes

     The schemes the decoder recognizes, each with its country, currency, rail and the minimum and
    maximum amount its rail accepts (`min_amount`, `max_amount`; a positive amount outside them is 422
    `AmountOutOfRange` at resolve and pay); and once for all of them, `payer_identity`: the payer fields
    execute and pay take and the payer documents payout checks, by issuing country and type. Cached by
    the gateway for SCHEMES_CACHE_TTL_MS (60 s by default): the list only changes with a decoder release
    or a change of payout limits.

    Errors it can return: [`AuthError`](/docs/errors#AuthError),
    [`RateLimitError`](/docs/errors#RateLimitError), [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go: [/docs/samples#listSchemes](/docs/samples#listSchemes).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | SchemesResponse
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
