from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.wallet_currency import WalletCurrency


T = TypeVar("T", bound="WalletCurrenciesResponse")


@_attrs_define
class WalletCurrenciesResponse:
    """
    Attributes:
        currencies (list[WalletCurrency]): Sorted by code.
        request_id (UUID):
    """

    currencies: list[WalletCurrency]
    request_id: UUID

    def to_dict(self) -> dict[str, Any]:
        currencies = []
        for currencies_item_data in self.currencies:
            currencies_item = currencies_item_data.to_dict()
            currencies.append(currencies_item)

        request_id = str(self.request_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "currencies": currencies,
                "request_id": request_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.wallet_currency import WalletCurrency

        d = dict(src_dict)
        currencies = []
        _currencies = d.pop("currencies")
        for currencies_item_data in _currencies:
            currencies_item = WalletCurrency.from_dict(currencies_item_data)

            currencies.append(currencies_item)

        request_id = UUID(d.pop("request_id"))

        wallet_currencies_response = cls(
            currencies=currencies,
            request_id=request_id,
        )

        return wallet_currencies_response
