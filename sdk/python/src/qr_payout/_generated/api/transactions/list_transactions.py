import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.transaction_status import TransactionStatus
from ...models.transactions_response import TransactionsResponse
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    status: TransactionStatus | Unset = UNSET,
    created_gte: datetime.datetime | Unset = UNSET,
    created_lt: datetime.datetime | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    json_created_gte: str | Unset = UNSET
    if not isinstance(created_gte, Unset):
        json_created_gte = created_gte.isoformat()
    params["created_gte"] = json_created_gte

    json_created_lt: str | Unset = UNSET
    if not isinstance(created_lt, Unset):
        json_created_lt = created_lt.isoformat()
    params["created_lt"] = json_created_lt

    params["limit"] = limit

    params["cursor"] = cursor

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/transactions",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | TransactionsResponse | None:
    if response.status_code == 200:
        response_200 = TransactionsResponse.from_dict(response.json())

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
) -> Response[ErrorBody | TransactionsResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    status: TransactionStatus | Unset = UNSET,
    created_gte: datetime.datetime | Unset = UNSET,
    created_lt: datetime.datetime | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> Response[ErrorBody | TransactionsResponse]:
    """List the tenant's transactions

     Your transactions, newest first (`createdAt`, then `id`, descending), optionally filtered by
    `status` and a `created_gte` / `created_lt` range, a page at a time: pass `next_cursor` back as
    `cursor` until it is null. Paging is by position (keyset), so transactions created while you page
    never shift a page: nothing is repeated and nothing that existed when you started is skipped. An
    unknown query parameter, a `status` that is not a state, a date-time without a time zone, a reversed
    range, a `limit` that is not an integer from 1 to 100 or a `cursor` this API did not give are 400
    `ValidationError` naming the parameter.

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`AuthError`](/docs/errors#AuthError), [`RateLimitError`](/docs/errors#RateLimitError),
    [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#listTransactions](/docs/samples#listTransactions).

    Args:
        status (TransactionStatus | Unset):
        created_gte (datetime.datetime | Unset):
        created_lt (datetime.datetime | Unset):
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | TransactionsResponse]
    """

    kwargs = _get_kwargs(
        status=status,
        created_gte=created_gte,
        created_lt=created_lt,
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
    status: TransactionStatus | Unset = UNSET,
    created_gte: datetime.datetime | Unset = UNSET,
    created_lt: datetime.datetime | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> ErrorBody | TransactionsResponse | None:
    """List the tenant's transactions

     Your transactions, newest first (`createdAt`, then `id`, descending), optionally filtered by
    `status` and a `created_gte` / `created_lt` range, a page at a time: pass `next_cursor` back as
    `cursor` until it is null. Paging is by position (keyset), so transactions created while you page
    never shift a page: nothing is repeated and nothing that existed when you started is skipped. An
    unknown query parameter, a `status` that is not a state, a date-time without a time zone, a reversed
    range, a `limit` that is not an integer from 1 to 100 or a `cursor` this API did not give are 400
    `ValidationError` naming the parameter.

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`AuthError`](/docs/errors#AuthError), [`RateLimitError`](/docs/errors#RateLimitError),
    [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#listTransactions](/docs/samples#listTransactions).

    Args:
        status (TransactionStatus | Unset):
        created_gte (datetime.datetime | Unset):
        created_lt (datetime.datetime | Unset):
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | TransactionsResponse
    """

    return sync_detailed(
        client=client,
        status=status,
        created_gte=created_gte,
        created_lt=created_lt,
        limit=limit,
        cursor=cursor,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    status: TransactionStatus | Unset = UNSET,
    created_gte: datetime.datetime | Unset = UNSET,
    created_lt: datetime.datetime | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> Response[ErrorBody | TransactionsResponse]:
    """List the tenant's transactions

     Your transactions, newest first (`createdAt`, then `id`, descending), optionally filtered by
    `status` and a `created_gte` / `created_lt` range, a page at a time: pass `next_cursor` back as
    `cursor` until it is null. Paging is by position (keyset), so transactions created while you page
    never shift a page: nothing is repeated and nothing that existed when you started is skipped. An
    unknown query parameter, a `status` that is not a state, a date-time without a time zone, a reversed
    range, a `limit` that is not an integer from 1 to 100 or a `cursor` this API did not give are 400
    `ValidationError` naming the parameter.

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`AuthError`](/docs/errors#AuthError), [`RateLimitError`](/docs/errors#RateLimitError),
    [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#listTransactions](/docs/samples#listTransactions).

    Args:
        status (TransactionStatus | Unset):
        created_gte (datetime.datetime | Unset):
        created_lt (datetime.datetime | Unset):
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | TransactionsResponse]
    """

    kwargs = _get_kwargs(
        status=status,
        created_gte=created_gte,
        created_lt=created_lt,
        limit=limit,
        cursor=cursor,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    status: TransactionStatus | Unset = UNSET,
    created_gte: datetime.datetime | Unset = UNSET,
    created_lt: datetime.datetime | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: str | Unset = UNSET,
) -> ErrorBody | TransactionsResponse | None:
    """List the tenant's transactions

     Your transactions, newest first (`createdAt`, then `id`, descending), optionally filtered by
    `status` and a `created_gte` / `created_lt` range, a page at a time: pass `next_cursor` back as
    `cursor` until it is null. Paging is by position (keyset), so transactions created while you page
    never shift a page: nothing is repeated and nothing that existed when you started is skipped. An
    unknown query parameter, a `status` that is not a state, a date-time without a time zone, a reversed
    range, a `limit` that is not an integer from 1 to 100 or a `cursor` this API did not give are 400
    `ValidationError` naming the parameter.

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`AuthError`](/docs/errors#AuthError), [`RateLimitError`](/docs/errors#RateLimitError),
    [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#listTransactions](/docs/samples#listTransactions).

    Args:
        status (TransactionStatus | Unset):
        created_gte (datetime.datetime | Unset):
        created_lt (datetime.datetime | Unset):
        limit (int | Unset):  Default: 20.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | TransactionsResponse
    """

    return (
        await asyncio_detailed(
            client=client,
            status=status,
            created_gte=created_gte,
            created_lt=created_lt,
            limit=limit,
            cursor=cursor,
        )
    ).parsed
