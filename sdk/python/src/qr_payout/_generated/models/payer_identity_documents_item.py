from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.payer_identity_documents_item_id_type import (
    PayerIdentityDocumentsItemIdType,
)

T = TypeVar("T", bound="PayerIdentityDocumentsItem")


@_attrs_define
class PayerIdentityDocumentsItem:
    """
    Attributes:
        country (str): ISO 3166-1 alpha-2 of the issuing country.
        id_type (PayerIdentityDocumentsItemIdType):
        name (str): The document’s own name (CPF/CNPJ, CUIT/CUIL, ...).
        format_ (str):
    """

    country: str
    id_type: PayerIdentityDocumentsItemIdType
    name: str
    format_: str

    def to_dict(self) -> dict[str, Any]:
        country = self.country

        id_type = self.id_type.value

        name = self.name

        format_ = self.format_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "country": country,
                "id_type": id_type,
                "name": name,
                "format": format_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        country = d.pop("country")

        id_type = PayerIdentityDocumentsItemIdType(d.pop("id_type"))

        name = d.pop("name")

        format_ = d.pop("format")

        payer_identity_documents_item = cls(
            country=country,
            id_type=id_type,
            name=name,
            format_=format_,
        )

        return payer_identity_documents_item
