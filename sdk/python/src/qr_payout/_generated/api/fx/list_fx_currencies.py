from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.wallet_currencies_response import WalletCurrenciesResponse
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/fx/currencies",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | WalletCurrenciesResponse | None:
    if response.status_code == 200:
        response_200 = WalletCurrenciesResponse.from_dict(response.json())

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
) -> Response[ErrorBody | WalletCurrenciesResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[ErrorBody | WalletCurrenciesResponse]:
    """List the wallet currencies

     The currencies fx quotes from: the values `wallet_currency` accepts at POST /v1/resolve and POST
    /v1/pay (any other is 400 `ValidationError`), each with its ISO 4217 minor-unit digits. The list is
    the gateway's cached copy of fx's rate table (FX_CURRENCIES_CACHE_TTL_MS, 60 s by default); fx
    checks `wallet_currency` against its own table when it quotes. FX: the mid rate is the rate table's
    (a cross rate through USD: `per_usd(payment) / per_usd(wallet)`); the quoted `rate` is the mid less
    the spread, `mid × (10000 − FX_SPREAD_BPS) / 10000` (50 bps by default, one spread for every
    currency), in payment-currency units per wallet-currency unit, exact. The merchant receives `amount`
    exactly; the payer pays the smallest amount in the wallet currency's minor units worth at least that
    at the quoted rate (rounded up, never in the merchant's disfavour: 100.00 BRL at 5.42275 costs 18.45
    USD, not 18.44), plus a fee of `ceil(source × FX_FEE_BPS / 10000)` minor units (0 by default). A
    quote can be executed until `expires_at`, 60 s after it was made by default (FX_QUOTE_TTL_MS); later
    execute answers 409 `QuoteExpired`: resolve again. The wallet currencies and their decimals are
    listed by GET /v1/fx/currencies.

    Errors it can return: [`AuthError`](/docs/errors#AuthError),
    [`RateLimitError`](/docs/errors#RateLimitError), [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#listFxCurrencies](/docs/samples#listFxCurrencies).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | WalletCurrenciesResponse]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> ErrorBody | WalletCurrenciesResponse | None:
    """List the wallet currencies

     The currencies fx quotes from: the values `wallet_currency` accepts at POST /v1/resolve and POST
    /v1/pay (any other is 400 `ValidationError`), each with its ISO 4217 minor-unit digits. The list is
    the gateway's cached copy of fx's rate table (FX_CURRENCIES_CACHE_TTL_MS, 60 s by default); fx
    checks `wallet_currency` against its own table when it quotes. FX: the mid rate is the rate table's
    (a cross rate through USD: `per_usd(payment) / per_usd(wallet)`); the quoted `rate` is the mid less
    the spread, `mid × (10000 − FX_SPREAD_BPS) / 10000` (50 bps by default, one spread for every
    currency), in payment-currency units per wallet-currency unit, exact. The merchant receives `amount`
    exactly; the payer pays the smallest amount in the wallet currency's minor units worth at least that
    at the quoted rate (rounded up, never in the merchant's disfavour: 100.00 BRL at 5.42275 costs 18.45
    USD, not 18.44), plus a fee of `ceil(source × FX_FEE_BPS / 10000)` minor units (0 by default). A
    quote can be executed until `expires_at`, 60 s after it was made by default (FX_QUOTE_TTL_MS); later
    execute answers 409 `QuoteExpired`: resolve again. The wallet currencies and their decimals are
    listed by GET /v1/fx/currencies.

    Errors it can return: [`AuthError`](/docs/errors#AuthError),
    [`RateLimitError`](/docs/errors#RateLimitError), [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#listFxCurrencies](/docs/samples#listFxCurrencies).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | WalletCurrenciesResponse
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[ErrorBody | WalletCurrenciesResponse]:
    """List the wallet currencies

     The currencies fx quotes from: the values `wallet_currency` accepts at POST /v1/resolve and POST
    /v1/pay (any other is 400 `ValidationError`), each with its ISO 4217 minor-unit digits. The list is
    the gateway's cached copy of fx's rate table (FX_CURRENCIES_CACHE_TTL_MS, 60 s by default); fx
    checks `wallet_currency` against its own table when it quotes. FX: the mid rate is the rate table's
    (a cross rate through USD: `per_usd(payment) / per_usd(wallet)`); the quoted `rate` is the mid less
    the spread, `mid × (10000 − FX_SPREAD_BPS) / 10000` (50 bps by default, one spread for every
    currency), in payment-currency units per wallet-currency unit, exact. The merchant receives `amount`
    exactly; the payer pays the smallest amount in the wallet currency's minor units worth at least that
    at the quoted rate (rounded up, never in the merchant's disfavour: 100.00 BRL at 5.42275 costs 18.45
    USD, not 18.44), plus a fee of `ceil(source × FX_FEE_BPS / 10000)` minor units (0 by default). A
    quote can be executed until `expires_at`, 60 s after it was made by default (FX_QUOTE_TTL_MS); later
    execute answers 409 `QuoteExpired`: resolve again. The wallet currencies and their decimals are
    listed by GET /v1/fx/currencies.

    Errors it can return: [`AuthError`](/docs/errors#AuthError),
    [`RateLimitError`](/docs/errors#RateLimitError), [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#listFxCurrencies](/docs/samples#listFxCurrencies).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | WalletCurrenciesResponse]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> ErrorBody | WalletCurrenciesResponse | None:
    """List the wallet currencies

     The currencies fx quotes from: the values `wallet_currency` accepts at POST /v1/resolve and POST
    /v1/pay (any other is 400 `ValidationError`), each with its ISO 4217 minor-unit digits. The list is
    the gateway's cached copy of fx's rate table (FX_CURRENCIES_CACHE_TTL_MS, 60 s by default); fx
    checks `wallet_currency` against its own table when it quotes. FX: the mid rate is the rate table's
    (a cross rate through USD: `per_usd(payment) / per_usd(wallet)`); the quoted `rate` is the mid less
    the spread, `mid × (10000 − FX_SPREAD_BPS) / 10000` (50 bps by default, one spread for every
    currency), in payment-currency units per wallet-currency unit, exact. The merchant receives `amount`
    exactly; the payer pays the smallest amount in the wallet currency's minor units worth at least that
    at the quoted rate (rounded up, never in the merchant's disfavour: 100.00 BRL at 5.42275 costs 18.45
    USD, not 18.44), plus a fee of `ceil(source × FX_FEE_BPS / 10000)` minor units (0 by default). A
    quote can be executed until `expires_at`, 60 s after it was made by default (FX_QUOTE_TTL_MS); later
    execute answers 409 `QuoteExpired`: resolve again. The wallet currencies and their decimals are
    listed by GET /v1/fx/currencies.

    Errors it can return: [`AuthError`](/docs/errors#AuthError),
    [`RateLimitError`](/docs/errors#RateLimitError), [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#listFxCurrencies](/docs/samples#listFxCurrencies).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | WalletCurrenciesResponse
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
