from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.list_sandbox_test_qrs_response_200 import ListSandboxTestQrsResponse200
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/sandbox/test-qrs",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ListSandboxTestQrsResponse200 | None:
    if response.status_code == 200:
        response_200 = ListSandboxTestQrsResponse200.from_dict(response.json())

        return response_200

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ListSandboxTestQrsResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[ListSandboxTestQrsResponse200]:
    """Sandbox test QR codes and test amounts

     Merchant QR codes per country and scenario (static, amountless, dynamic Pix, each outcome amount,
    bad CRC, low confidence), each with the operation to send it to and the expected result, plus the
    test amounts: the last two digits of the amount pick the sandbox partner's answer (51 failed AC03,
    52 completed by polling, 53 failed AM04, 54 slow: the pay waits 8 s, then answers processing).
    Public documentation, no key needed; also as the page `/docs/sandbox-test-qrs`. How to use them:
    [docs/api/sandbox.md "How to use them"](/docs/api/sandbox#how-to-use-them).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#listSandboxTestQrs](/docs/samples#listSandboxTestQrs).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ListSandboxTestQrsResponse200]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> ListSandboxTestQrsResponse200 | None:
    """Sandbox test QR codes and test amounts

     Merchant QR codes per country and scenario (static, amountless, dynamic Pix, each outcome amount,
    bad CRC, low confidence), each with the operation to send it to and the expected result, plus the
    test amounts: the last two digits of the amount pick the sandbox partner's answer (51 failed AC03,
    52 completed by polling, 53 failed AM04, 54 slow: the pay waits 8 s, then answers processing).
    Public documentation, no key needed; also as the page `/docs/sandbox-test-qrs`. How to use them:
    [docs/api/sandbox.md "How to use them"](/docs/api/sandbox#how-to-use-them).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#listSandboxTestQrs](/docs/samples#listSandboxTestQrs).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ListSandboxTestQrsResponse200
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[ListSandboxTestQrsResponse200]:
    """Sandbox test QR codes and test amounts

     Merchant QR codes per country and scenario (static, amountless, dynamic Pix, each outcome amount,
    bad CRC, low confidence), each with the operation to send it to and the expected result, plus the
    test amounts: the last two digits of the amount pick the sandbox partner's answer (51 failed AC03,
    52 completed by polling, 53 failed AM04, 54 slow: the pay waits 8 s, then answers processing).
    Public documentation, no key needed; also as the page `/docs/sandbox-test-qrs`. How to use them:
    [docs/api/sandbox.md "How to use them"](/docs/api/sandbox#how-to-use-them).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#listSandboxTestQrs](/docs/samples#listSandboxTestQrs).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ListSandboxTestQrsResponse200]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> ListSandboxTestQrsResponse200 | None:
    """Sandbox test QR codes and test amounts

     Merchant QR codes per country and scenario (static, amountless, dynamic Pix, each outcome amount,
    bad CRC, low confidence), each with the operation to send it to and the expected result, plus the
    test amounts: the last two digits of the amount pick the sandbox partner's answer (51 failed AC03,
    52 completed by polling, 53 failed AM04, 54 slow: the pay waits 8 s, then answers processing).
    Public documentation, no key needed; also as the page `/docs/sandbox-test-qrs`. How to use them:
    [docs/api/sandbox.md "How to use them"](/docs/api/sandbox#how-to-use-them).

    Samples in curl, TypeScript, Python and Go:
    [/docs/samples#listSandboxTestQrs](/docs/samples#listSandboxTestQrs).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ListSandboxTestQrsResponse200
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
