from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.resolve_request import ResolveRequest
from ...models.resolve_response import ResolveResponse
from ...types import Response


def _get_kwargs(
    *,
    body: ResolveRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/resolve",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | ResolveResponse | None:
    if response.status_code == 200:
        response_200 = ResolveResponse.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = ErrorBody.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())

        return response_422

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
) -> Response[ErrorBody | ResolveResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ResolveRequest,
) -> Response[ErrorBody | ResolveResponse]:
    """Resolve a QR code into a payment instruction

     Decodes the QR text and stores a payment instruction. With `wallet_currency` different from the
    payment currency, an FX quote is made and the instruction also carries `wallet_currency`,
    `wallet_amount` (what the user pays) and `quote`; with `wallet_currency` equal to the payment
    currency, `wallet_amount` equals `amount` and `quote` is null. Without `wallet_currency` the
    instruction has exactly the fields of `Instruction`. `amount` is only for QR codes that carry none
    (422 `AmountRequired` when missing for those, 422 `AmountMismatch` when it differs from the QR's); a
    positive amount outside the scheme's `min_amount`..`max_amount` (GET /v1/schemes) is 422
    `AmountOutOfRange`; zero or a negative amount, or one a JSON number cannot hold exactly, is 400
    `ValidationError`. An optional field sent as null is taken as not sent. A `wallet_currency` that is
    malformed or not quoted (GET /v1/fx/currencies) is 400 `ValidationError`.

    FX: the mid rate is the rate table's (a cross rate through USD: `per_usd(payment) /
    per_usd(wallet)`); the quoted `rate` is the mid less the spread, `mid × (10000 − FX_SPREAD_BPS) /
    10000` (50 bps by default, one spread for every currency), in payment-currency units per wallet-
    currency unit, exact. The merchant receives `amount` exactly; the payer pays the smallest amount in
    the wallet currency's minor units worth at least that at the quoted rate (rounded up, never in the
    merchant's disfavour: 100.00 BRL at 5.42275 costs 18.45 USD, not 18.44), plus a fee of `ceil(source
    × FX_FEE_BPS / 10000)` minor units (0 by default). A quote can be executed until `expires_at`, 60 s
    after it was made by default (FX_QUOTE_TTL_MS); later execute answers 409 `QuoteExpired`: resolve
    again. The wallet currencies and their decimals are listed by GET /v1/fx/currencies.

    Confidence: Decode confidence in [0, 1]: the sum of the weights of the checks the QR passed, rounded
    to 2 decimals. CRC valid 0.20 (always, on a decoded QR: a bad CRC is refused); mandatory EMVCo tags
    present 0.15; identifiers valid 0.20 (key format, CPF/CNPJ or CUIT check digits, CBU/CVU, Bre-B key,
    Yape token shape); a known network or identifier 0.15; country and currency consistent 0.15; the
    account in clear in the QR 0.15 (not for merchant ids and tokens the rail resolves). A valid static
    Pix code scores 1.0; a Yape or acquirer QR at most 0.85. A low score is information, not a refusal:
    what cannot be paid is 422 `QrDecodeError`.

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`AuthError`](/docs/errors#AuthError), [`PayloadTooLarge`](/docs/errors#PayloadTooLarge),
    [`UnsupportedMediaType`](/docs/errors#UnsupportedMediaType),
    [`QrDecodeError`](/docs/errors#QrDecodeError), [`AmountMismatch`](/docs/errors#AmountMismatch),
    [`AmountRequired`](/docs/errors#AmountRequired),
    [`AmountOutOfRange`](/docs/errors#AmountOutOfRange),
    [`RateLimitError`](/docs/errors#RateLimitError), [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable),
    [`QrLocationUnavailable`](/docs/errors#QrLocationUnavailable).

    Samples in curl, TypeScript, Python and Go: [/docs/samples#resolve](/docs/samples#resolve).

    Args:
        body (ResolveRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ResolveResponse]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: ResolveRequest,
) -> ErrorBody | ResolveResponse | None:
    """Resolve a QR code into a payment instruction

     Decodes the QR text and stores a payment instruction. With `wallet_currency` different from the
    payment currency, an FX quote is made and the instruction also carries `wallet_currency`,
    `wallet_amount` (what the user pays) and `quote`; with `wallet_currency` equal to the payment
    currency, `wallet_amount` equals `amount` and `quote` is null. Without `wallet_currency` the
    instruction has exactly the fields of `Instruction`. `amount` is only for QR codes that carry none
    (422 `AmountRequired` when missing for those, 422 `AmountMismatch` when it differs from the QR's); a
    positive amount outside the scheme's `min_amount`..`max_amount` (GET /v1/schemes) is 422
    `AmountOutOfRange`; zero or a negative amount, or one a JSON number cannot hold exactly, is 400
    `ValidationError`. An optional field sent as null is taken as not sent. A `wallet_currency` that is
    malformed or not quoted (GET /v1/fx/currencies) is 400 `ValidationError`.

    FX: the mid rate is the rate table's (a cross rate through USD: `per_usd(payment) /
    per_usd(wallet)`); the quoted `rate` is the mid less the spread, `mid × (10000 − FX_SPREAD_BPS) /
    10000` (50 bps by default, one spread for every currency), in payment-currency units per wallet-
    currency unit, exact. The merchant receives `amount` exactly; the payer pays the smallest amount in
    the wallet currency's minor units worth at least that at the quoted rate (rounded up, never in the
    merchant's disfavour: 100.00 BRL at 5.42275 costs 18.45 USD, not 18.44), plus a fee of `ceil(source
    × FX_FEE_BPS / 10000)` minor units (0 by default). A quote can be executed until `expires_at`, 60 s
    after it was made by default (FX_QUOTE_TTL_MS); later execute answers 409 `QuoteExpired`: resolve
    again. The wallet currencies and their decimals are listed by GET /v1/fx/currencies.

    Confidence: Decode confidence in [0, 1]: the sum of the weights of the checks the QR passed, rounded
    to 2 decimals. CRC valid 0.20 (always, on a decoded QR: a bad CRC is refused); mandatory EMVCo tags
    present 0.15; identifiers valid 0.20 (key format, CPF/CNPJ or CUIT check digits, CBU/CVU, Bre-B key,
    Yape token shape); a known network or identifier 0.15; country and currency consistent 0.15; the
    account in clear in the QR 0.15 (not for merchant ids and tokens the rail resolves). A valid static
    Pix code scores 1.0; a Yape or acquirer QR at most 0.85. A low score is information, not a refusal:
    what cannot be paid is 422 `QrDecodeError`.

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`AuthError`](/docs/errors#AuthError), [`PayloadTooLarge`](/docs/errors#PayloadTooLarge),
    [`UnsupportedMediaType`](/docs/errors#UnsupportedMediaType),
    [`QrDecodeError`](/docs/errors#QrDecodeError), [`AmountMismatch`](/docs/errors#AmountMismatch),
    [`AmountRequired`](/docs/errors#AmountRequired),
    [`AmountOutOfRange`](/docs/errors#AmountOutOfRange),
    [`RateLimitError`](/docs/errors#RateLimitError), [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable),
    [`QrLocationUnavailable`](/docs/errors#QrLocationUnavailable).

    Samples in curl, TypeScript, Python and Go: [/docs/samples#resolve](/docs/samples#resolve).

    Args:
        body (ResolveRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ResolveResponse
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ResolveRequest,
) -> Response[ErrorBody | ResolveResponse]:
    """Resolve a QR code into a payment instruction

     Decodes the QR text and stores a payment instruction. With `wallet_currency` different from the
    payment currency, an FX quote is made and the instruction also carries `wallet_currency`,
    `wallet_amount` (what the user pays) and `quote`; with `wallet_currency` equal to the payment
    currency, `wallet_amount` equals `amount` and `quote` is null. Without `wallet_currency` the
    instruction has exactly the fields of `Instruction`. `amount` is only for QR codes that carry none
    (422 `AmountRequired` when missing for those, 422 `AmountMismatch` when it differs from the QR's); a
    positive amount outside the scheme's `min_amount`..`max_amount` (GET /v1/schemes) is 422
    `AmountOutOfRange`; zero or a negative amount, or one a JSON number cannot hold exactly, is 400
    `ValidationError`. An optional field sent as null is taken as not sent. A `wallet_currency` that is
    malformed or not quoted (GET /v1/fx/currencies) is 400 `ValidationError`.

    FX: the mid rate is the rate table's (a cross rate through USD: `per_usd(payment) /
    per_usd(wallet)`); the quoted `rate` is the mid less the spread, `mid × (10000 − FX_SPREAD_BPS) /
    10000` (50 bps by default, one spread for every currency), in payment-currency units per wallet-
    currency unit, exact. The merchant receives `amount` exactly; the payer pays the smallest amount in
    the wallet currency's minor units worth at least that at the quoted rate (rounded up, never in the
    merchant's disfavour: 100.00 BRL at 5.42275 costs 18.45 USD, not 18.44), plus a fee of `ceil(source
    × FX_FEE_BPS / 10000)` minor units (0 by default). A quote can be executed until `expires_at`, 60 s
    after it was made by default (FX_QUOTE_TTL_MS); later execute answers 409 `QuoteExpired`: resolve
    again. The wallet currencies and their decimals are listed by GET /v1/fx/currencies.

    Confidence: Decode confidence in [0, 1]: the sum of the weights of the checks the QR passed, rounded
    to 2 decimals. CRC valid 0.20 (always, on a decoded QR: a bad CRC is refused); mandatory EMVCo tags
    present 0.15; identifiers valid 0.20 (key format, CPF/CNPJ or CUIT check digits, CBU/CVU, Bre-B key,
    Yape token shape); a known network or identifier 0.15; country and currency consistent 0.15; the
    account in clear in the QR 0.15 (not for merchant ids and tokens the rail resolves). A valid static
    Pix code scores 1.0; a Yape or acquirer QR at most 0.85. A low score is information, not a refusal:
    what cannot be paid is 422 `QrDecodeError`.

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`AuthError`](/docs/errors#AuthError), [`PayloadTooLarge`](/docs/errors#PayloadTooLarge),
    [`UnsupportedMediaType`](/docs/errors#UnsupportedMediaType),
    [`QrDecodeError`](/docs/errors#QrDecodeError), [`AmountMismatch`](/docs/errors#AmountMismatch),
    [`AmountRequired`](/docs/errors#AmountRequired),
    [`AmountOutOfRange`](/docs/errors#AmountOutOfRange),
    [`RateLimitError`](/docs/errors#RateLimitError), [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable),
    [`QrLocationUnavailable`](/docs/errors#QrLocationUnavailable).

    Samples in curl, TypeScript, Python and Go: [/docs/samples#resolve](/docs/samples#resolve).

    Args:
        body (ResolveRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ResolveResponse]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: ResolveRequest,
) -> ErrorBody | ResolveResponse | None:
    """Resolve a QR code into a payment instruction

     Decodes the QR text and stores a payment instruction. With `wallet_currency` different from the
    payment currency, an FX quote is made and the instruction also carries `wallet_currency`,
    `wallet_amount` (what the user pays) and `quote`; with `wallet_currency` equal to the payment
    currency, `wallet_amount` equals `amount` and `quote` is null. Without `wallet_currency` the
    instruction has exactly the fields of `Instruction`. `amount` is only for QR codes that carry none
    (422 `AmountRequired` when missing for those, 422 `AmountMismatch` when it differs from the QR's); a
    positive amount outside the scheme's `min_amount`..`max_amount` (GET /v1/schemes) is 422
    `AmountOutOfRange`; zero or a negative amount, or one a JSON number cannot hold exactly, is 400
    `ValidationError`. An optional field sent as null is taken as not sent. A `wallet_currency` that is
    malformed or not quoted (GET /v1/fx/currencies) is 400 `ValidationError`.

    FX: the mid rate is the rate table's (a cross rate through USD: `per_usd(payment) /
    per_usd(wallet)`); the quoted `rate` is the mid less the spread, `mid × (10000 − FX_SPREAD_BPS) /
    10000` (50 bps by default, one spread for every currency), in payment-currency units per wallet-
    currency unit, exact. The merchant receives `amount` exactly; the payer pays the smallest amount in
    the wallet currency's minor units worth at least that at the quoted rate (rounded up, never in the
    merchant's disfavour: 100.00 BRL at 5.42275 costs 18.45 USD, not 18.44), plus a fee of `ceil(source
    × FX_FEE_BPS / 10000)` minor units (0 by default). A quote can be executed until `expires_at`, 60 s
    after it was made by default (FX_QUOTE_TTL_MS); later execute answers 409 `QuoteExpired`: resolve
    again. The wallet currencies and their decimals are listed by GET /v1/fx/currencies.

    Confidence: Decode confidence in [0, 1]: the sum of the weights of the checks the QR passed, rounded
    to 2 decimals. CRC valid 0.20 (always, on a decoded QR: a bad CRC is refused); mandatory EMVCo tags
    present 0.15; identifiers valid 0.20 (key format, CPF/CNPJ or CUIT check digits, CBU/CVU, Bre-B key,
    Yape token shape); a known network or identifier 0.15; country and currency consistent 0.15; the
    account in clear in the QR 0.15 (not for merchant ids and tokens the rail resolves). A valid static
    Pix code scores 1.0; a Yape or acquirer QR at most 0.85. A low score is information, not a refusal:
    what cannot be paid is 422 `QrDecodeError`.

    Errors it can return: [`ValidationError`](/docs/errors#ValidationError),
    [`AuthError`](/docs/errors#AuthError), [`PayloadTooLarge`](/docs/errors#PayloadTooLarge),
    [`UnsupportedMediaType`](/docs/errors#UnsupportedMediaType),
    [`QrDecodeError`](/docs/errors#QrDecodeError), [`AmountMismatch`](/docs/errors#AmountMismatch),
    [`AmountRequired`](/docs/errors#AmountRequired),
    [`AmountOutOfRange`](/docs/errors#AmountOutOfRange),
    [`RateLimitError`](/docs/errors#RateLimitError), [`InternalError`](/docs/errors#InternalError),
    [`ServiceUnavailable`](/docs/errors#ServiceUnavailable),
    [`QrLocationUnavailable`](/docs/errors#QrLocationUnavailable).

    Samples in curl, TypeScript, Python and Go: [/docs/samples#resolve](/docs/samples#resolve).

    Args:
        body (ResolveRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ResolveResponse
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
