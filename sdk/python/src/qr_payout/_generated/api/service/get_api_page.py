from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...types import Response


def _get_kwargs(
    page: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/docs/api/{page}".format(
            page=quote(str(page), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())

        return response_404

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorBody | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    page: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[ErrorBody | str]:
    """One public API page (HTML), such as idempotency

     docs/api/<page>.md rendered to HTML; 404 for a name that is not a page.

    Errors it can return: [`NotFoundError`](/docs/errors#NotFoundError).

    Args:
        page (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | str]
    """

    kwargs = _get_kwargs(
        page=page,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    page: str,
    *,
    client: AuthenticatedClient | Client,
) -> ErrorBody | str | None:
    """One public API page (HTML), such as idempotency

     docs/api/<page>.md rendered to HTML; 404 for a name that is not a page.

    Errors it can return: [`NotFoundError`](/docs/errors#NotFoundError).

    Args:
        page (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | str
    """

    return sync_detailed(
        page=page,
        client=client,
    ).parsed


async def asyncio_detailed(
    page: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[ErrorBody | str]:
    """One public API page (HTML), such as idempotency

     docs/api/<page>.md rendered to HTML; 404 for a name that is not a page.

    Errors it can return: [`NotFoundError`](/docs/errors#NotFoundError).

    Args:
        page (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | str]
    """

    kwargs = _get_kwargs(
        page=page,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    page: str,
    *,
    client: AuthenticatedClient | Client,
) -> ErrorBody | str | None:
    """One public API page (HTML), such as idempotency

     docs/api/<page>.md rendered to HTML; 404 for a name that is not a page.

    Errors it can return: [`NotFoundError`](/docs/errors#NotFoundError).

    Args:
        page (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | str
    """

    return (
        await asyncio_detailed(
            page=page,
            client=client,
        )
    ).parsed
