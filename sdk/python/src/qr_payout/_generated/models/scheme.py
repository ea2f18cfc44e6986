from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.scheme_qr_types_item import SchemeQrTypesItem

T = TypeVar("T", bound="Scheme")


@_attrs_define
class Scheme:
    """
    Attributes:
        id (str): Stable scheme identifier, as `scheme` in an instruction (for example BR.PIX).
        name (str):
        country (str): ISO 3166-1 alpha-2.
        currency (str): ISO 4217 alphabetic currency code.
        rail (str):
        qr_types (list[SchemeQrTypesItem]):
        description (str):
        min_amount (float | None): Smallest amount the scheme's rail accepts, in `currency` with its minor-unit digits;
            a smaller positive amount is 422 AmountOutOfRange (zero or less is 400 ValidationError). Null only for a rail
            without configured limits.
        max_amount (float | None): Largest amount the scheme's rail accepts (inclusive), in `currency`; a larger amount
            is 422 AmountOutOfRange. Set per partner contract; the sandbox has defaults.
    """

    id: str
    name: str
    country: str
    currency: str
    rail: str
    qr_types: list[SchemeQrTypesItem]
    description: str
    min_amount: float | None
    max_amount: float | None

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        country = self.country

        currency = self.currency

        rail = self.rail

        qr_types = []
        for qr_types_item_data in self.qr_types:
            qr_types_item = qr_types_item_data.value
            qr_types.append(qr_types_item)

        description = self.description

        min_amount: float | None
        min_amount = self.min_amount

        max_amount: float | None
        max_amount = self.max_amount

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "country": country,
                "currency": currency,
                "rail": rail,
                "qr_types": qr_types,
                "description": description,
                "min_amount": min_amount,
                "max_amount": max_amount,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        country = d.pop("country")

        currency = d.pop("currency")

        rail = d.pop("rail")

        qr_types = []
        _qr_types = d.pop("qr_types")
        for qr_types_item_data in _qr_types:
            qr_types_item = SchemeQrTypesItem(qr_types_item_data)

            qr_types.append(qr_types_item)

        description = d.pop("description")

        def _parse_min_amount(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        min_amount = _parse_min_amount(d.pop("min_amount"))

        def _parse_max_amount(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        max_amount = _parse_max_amount(d.pop("max_amount"))

        scheme = cls(
            id=id,
            name=name,
            country=country,
            currency=currency,
            rail=rail,
            qr_types=qr_types,
            description=description,
            min_amount=min_amount,
            max_amount=max_amount,
        )

        return scheme
