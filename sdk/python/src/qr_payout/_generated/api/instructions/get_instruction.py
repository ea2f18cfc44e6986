from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.instruction_response import InstructionResponse
from ...types import Response


def _get_kwargs(
    id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/instructions/{id}".format(
            id=quote(str(id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | InstructionResponse | None:
    if response.status_code == 200:
        response_200 = InstructionResponse.from_dict(response.json())

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
) -> Response[ErrorBody | InstructionResponse]:
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
) -> Response[ErrorBody | InstructionResponse]:
    """Read an instruction

     One of your instructions, as POST /v1/resolve showed it: the instruction fields, plus
    `wallet_currency`, `wallet_amount` and `quote` when an FX quote was made. An unknown id, a malformed
    one and another tenant's id are all 404 `NotFoundError`.

    Errors it can return: [`AuthError`](/docs/errors#AuthError),
    [`NotFoundError`](/docs/errors#NotFoundError), [`RateLimitError`](/docs/errors#RateLimitError),
    [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#getInstruction](/docs/samples#getInstruction).

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | InstructionResponse]
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
) -> ErrorBody | InstructionResponse | None:
    """Read an instruction

     One of your instructions, as POST /v1/resolve showed it: the instruction fields, plus
    `wallet_currency`, `wallet_amount` and `quote` when an FX quote was made. An unknown id, a malformed
    one and another tenant's id are all 404 `NotFoundError`.

    Errors it can return: [`AuthError`](/docs/errors#AuthError),
    [`NotFoundError`](/docs/errors#NotFoundError), [`RateLimitError`](/docs/errors#RateLimitError),
    [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#getInstruction](/docs/samples#getInstruction).

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | InstructionResponse
    """

    return sync_detailed(
        id=id,
        client=client,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[ErrorBody | InstructionResponse]:
    """Read an instruction

     One of your instructions, as POST /v1/resolve showed it: the instruction fields, plus
    `wallet_currency`, `wallet_amount` and `quote` when an FX quote was made. An unknown id, a malformed
    one and another tenant's id are all 404 `NotFoundError`.

    Errors it can return: [`AuthError`](/docs/errors#AuthError),
    [`NotFoundError`](/docs/errors#NotFoundError), [`RateLimitError`](/docs/errors#RateLimitError),
    [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#getInstruction](/docs/samples#getInstruction).

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | InstructionResponse]
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
) -> ErrorBody | InstructionResponse | None:
    """Read an instruction

     One of your instructions, as POST /v1/resolve showed it: the instruction fields, plus
    `wallet_currency`, `wallet_amount` and `quote` when an FX quote was made. An unknown id, a malformed
    one and another tenant's id are all 404 `NotFoundError`.

    Errors it can return: [`AuthError`](/docs/errors#AuthError),
    [`NotFoundError`](/docs/errors#NotFoundError), [`RateLimitError`](/docs/errors#RateLimitError),
    [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#getInstruction](/docs/samples#getInstruction).

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | InstructionResponse
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
        )
    ).parsed
