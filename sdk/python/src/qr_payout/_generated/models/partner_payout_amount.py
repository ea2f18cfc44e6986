from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PartnerPayoutAmount")


@_attrs_define
class PartnerPayoutAmount:
    """
    Attributes:
        currency (str): ISO 4217 alphabetic currency code.
        amount_minor (str): Integer minor units (docs/partner-protocol.md).
    """

    currency: str
    amount_minor: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        currency = self.currency

        amount_minor = self.amount_minor

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "currency": currency,
                "amount_minor": amount_minor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        currency = d.pop("currency")

        amount_minor = d.pop("amount_minor")

        partner_payout_amount = cls(
            currency=currency,
            amount_minor=amount_minor,
        )

        partner_payout_amount.additional_properties = d
        return partner_payout_amount

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
