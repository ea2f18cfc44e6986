from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.payer_identity_documents_item import PayerIdentityDocumentsItem
    from ..models.payer_identity_fields_item import PayerIdentityFieldsItem


T = TypeVar("T", bound="PayerIdentity")


@_attrs_define
class PayerIdentity:
    """What execute and pay accept as the payer's identity (docs/payer-identity.md), the same for every scheme: a payer
    whose payer_country is a scheme's country is sent to the partner as a resident of it; any other payer, or one who
    declares no country, as a non-resident.

        Attributes:
            fields (list[PayerIdentityFieldsItem]): Every payer field, required ones first.
            documents (list[PayerIdentityDocumentsItem]): The documents whose format (and check digits, where they have
                them) is checked, by issuing country and payer_id_type. Another country, or a type not listed for a country, is
                accepted unchecked.
            passport_format (str): The format a passport number of any country must have.
    """

    fields: list[PayerIdentityFieldsItem]
    documents: list[PayerIdentityDocumentsItem]
    passport_format: str

    def to_dict(self) -> dict[str, Any]:
        fields = []
        for fields_item_data in self.fields:
            fields_item = fields_item_data.to_dict()
            fields.append(fields_item)

        documents = []
        for documents_item_data in self.documents:
            documents_item = documents_item_data.to_dict()
            documents.append(documents_item)

        passport_format = self.passport_format

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "fields": fields,
                "documents": documents,
                "passport_format": passport_format,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.payer_identity_documents_item import PayerIdentityDocumentsItem
        from ..models.payer_identity_fields_item import PayerIdentityFieldsItem

        d = dict(src_dict)
        fields = []
        _fields = d.pop("fields")
        for fields_item_data in _fields:
            fields_item = PayerIdentityFieldsItem.from_dict(fields_item_data)

            fields.append(fields_item)

        documents = []
        _documents = d.pop("documents")
        for documents_item_data in _documents:
            documents_item = PayerIdentityDocumentsItem.from_dict(documents_item_data)

            documents.append(documents_item)

        passport_format = d.pop("passport_format")

        payer_identity = cls(
            fields=fields,
            documents=documents,
            passport_format=passport_format,
        )

        return payer_identity
