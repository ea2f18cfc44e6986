from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ResolveRequest")


@_attrs_define
class ResolveRequest:
    """
    Attributes:
        qr_string (str): The text decoded from the merchant QR code, exactly as scanned.
        wallet_currency (None | str | Unset): ISO 4217 currency the payer pays in (upper case, one of the currencies fx
            quotes: GET /v1/fx/currencies); an FX quote is made when it differs from the payment currency. Null: not sent.
        amount (float | None | Unset): For QR codes that carry no amount: the amount in the payment currency. Zero or
            negative is 400 ValidationError; a positive amount outside the scheme's min_amount..max_amount is 422
            AmountOutOfRange. Null: not sent.
    """

    qr_string: str
    wallet_currency: None | str | Unset = UNSET
    amount: float | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        qr_string = self.qr_string

        wallet_currency: None | str | Unset
        if isinstance(self.wallet_currency, Unset):
            wallet_currency = UNSET
        else:
            wallet_currency = self.wallet_currency

        amount: float | None | Unset
        if isinstance(self.amount, Unset):
            amount = UNSET
        else:
            amount = self.amount

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "qr_string": qr_string,
            }
        )
        if wallet_currency is not UNSET:
            field_dict["wallet_currency"] = wallet_currency
        if amount is not UNSET:
            field_dict["amount"] = amount

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        qr_string = d.pop("qr_string")

        def _parse_wallet_currency(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        wallet_currency = _parse_wallet_currency(d.pop("wallet_currency", UNSET))

        def _parse_amount(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        amount = _parse_amount(d.pop("amount", UNSET))

        resolve_request = cls(
            qr_string=qr_string,
            wallet_currency=wallet_currency,
            amount=amount,
        )

        return resolve_request
