from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.partner_callback_rail import PartnerCallbackRail
from ...models.partner_callback_response import PartnerCallbackResponse
from ...models.partner_payout import PartnerPayout
from ...types import Response


def _get_kwargs(
    rail: PartnerCallbackRail,
    *,
    body: PartnerPayout,
    partner_signature: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Partner-Signature"] = partner_signature

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/partner/callbacks/{rail}".format(
            rail=quote(str(rail), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | PartnerCallbackResponse | None:
    if response.status_code == 200:
        response_200 = PartnerCallbackResponse.from_dict(response.json())

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

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = ErrorBody.from_dict(response.json())

        return response_415

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
) -> Response[ErrorBody | PartnerCallbackResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    rail: PartnerCallbackRail,
    *,
    client: AuthenticatedClient | Client,
    body: PartnerPayout,
    partner_signature: str,
) -> Response[ErrorBody | PartnerCallbackResponse]:
    """Partner callback (for the rails' partners, not for API clients)

     Where a rail partner reports the terminal state of a payout (docs/partner-callbacks.md). No API key:
    the `Partner-Signature` header (`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`)
    authenticates it; a timestamp older than 5 minutes or more than 1 minute ahead is refused. The 200
    is sent only after the transaction was updated, so any other status means: retry later.

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`AuthError`](/docs/errors#AuthError), [`NotFoundError`](/docs/errors#NotFoundError),
    [`PayloadTooLarge`](/docs/errors#PayloadTooLarge),
    [`UnsupportedMediaType`](/docs/errors#UnsupportedMediaType),
    [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Args:
        rail (PartnerCallbackRail):
        partner_signature (str):
        body (PartnerPayout):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | PartnerCallbackResponse]
    """

    kwargs = _get_kwargs(
        rail=rail,
        body=body,
        partner_signature=partner_signature,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    rail: PartnerCallbackRail,
    *,
    client: AuthenticatedClient | Client,
    body: PartnerPayout,
    partner_signature: str,
) -> ErrorBody | PartnerCallbackResponse | None:
    """Partner callback (for the rails' partners, not for API clients)

     Where a rail partner reports the terminal state of a payout (docs/partner-callbacks.md). No API key:
    the `Partner-Signature` header (`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`)
    authenticates it; a timestamp older than 5 minutes or more than 1 minute ahead is refused. The 200
    is sent only after the transaction was updated, so any other status means: retry later.

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`AuthError`](/docs/errors#AuthError), [`NotFoundError`](/docs/errors#NotFoundError),
    [`PayloadTooLarge`](/docs/errors#PayloadTooLarge),
    [`UnsupportedMediaType`](/docs/errors#UnsupportedMediaType),
    [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Args:
        rail (PartnerCallbackRail):
        partner_signature (str):
        body (PartnerPayout):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | PartnerCallbackResponse
    """

    return sync_detailed(
        rail=rail,
        client=client,
        body=body,
        partner_signature=partner_signature,
    ).parsed


async def asyncio_detailed(
    rail: PartnerCallbackRail,
    *,
    client: AuthenticatedClient | Client,
    body: PartnerPayout,
    partner_signature: str,
) -> Response[ErrorBody | PartnerCallbackResponse]:
    """Partner callback (for the rails' partners, not for API clients)

     Where a rail partner reports the terminal state of a payout (docs/partner-callbacks.md). No API key:
    the `Partner-Signature` header (`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`)
    authenticates it; a timestamp older than 5 minutes or more than 1 minute ahead is refused. The 200
    is sent only after the transaction was updated, so any other status means: retry later.

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`AuthError`](/docs/errors#AuthError), [`NotFoundError`](/docs/errors#NotFoundError),
    [`PayloadTooLarge`](/docs/errors#PayloadTooLarge),
    [`UnsupportedMediaType`](/docs/errors#UnsupportedMediaType),
    [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Args:
        rail (PartnerCallbackRail):
        partner_signature (str):
        body (PartnerPayout):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | PartnerCallbackResponse]
    """

    kwargs = _get_kwargs(
        rail=rail,
        body=body,
        partner_signature=partner_signature,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    rail: PartnerCallbackRail,
    *,
    client: AuthenticatedClient | Client,
    body: PartnerPayout,
    partner_signature: str,
) -> ErrorBody | PartnerCallbackResponse | None:
    """Partner callback (for the rails' partners, not for API clients)

     Where a rail partner reports the terminal state of a payout (docs/partner-callbacks.md). No API key:
    the `Partner-Signature` header (`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`)
    authenticates it; a timestamp older than 5 minutes or more than 1 minute ahead is refused. The 200
    is sent only after the transaction was updated, so any other status means: retry later.

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`AuthError`](/docs/errors#AuthError), [`NotFoundError`](/docs/errors#NotFoundError),
    [`PayloadTooLarge`](/docs/errors#PayloadTooLarge),
    [`UnsupportedMediaType`](/docs/errors#UnsupportedMediaType),
    [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Args:
        rail (PartnerCallbackRail):
        partner_signature (str):
        body (PartnerPayout):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | PartnerCallbackResponse
    """

    return (
        await asyncio_detailed(
            rail=rail,
            client=client,
            body=body,
            partner_signature=partner_signature,
        )
    ).parsed
