from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.wallet_currency_minor_units import WalletCurrencyMinorUnits

T = TypeVar("T", bound="WalletCurrency")


@_attrs_define
class WalletCurrency:
    """
    Attributes:
        code (str): ISO 4217 alphabetic currency code.
        minor_units (WalletCurrencyMinorUnits): ISO 4217 minor-unit digits: the decimals a `wallet_amount` or quote
            `source_amount` in this currency has, and the unit the payer amount is rounded up to.
    """

    code: str
    minor_units: WalletCurrencyMinorUnits

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        minor_units = self.minor_units.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "code": code,
                "minor_units": minor_units,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        code = d.pop("code")

        minor_units = WalletCurrencyMinorUnits(d.pop("minor_units"))

        wallet_currency = cls(
            code=code,
            minor_units=minor_units,
        )

        return wallet_currency
