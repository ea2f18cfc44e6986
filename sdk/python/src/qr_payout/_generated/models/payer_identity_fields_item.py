from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PayerIdentityFieldsItem")


@_attrs_define
class PayerIdentityFieldsItem:
    """
    Attributes:
        field (str):
        required (bool):
        description (str):
    """

    field: str
    required: bool
    description: str

    def to_dict(self) -> dict[str, Any]:
        field = self.field

        required = self.required

        description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "field": field,
                "required": required,
                "description": description,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        field = d.pop("field")

        required = d.pop("required")

        description = d.pop("description")

        payer_identity_fields_item = cls(
            field=field,
            required=required,
            description=description,
        )

        return payer_identity_fields_item
