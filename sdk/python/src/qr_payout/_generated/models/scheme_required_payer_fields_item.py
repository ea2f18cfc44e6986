from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SchemeRequiredPayerFieldsItem")


@_attrs_define
class SchemeRequiredPayerFieldsItem:
    """
    Attributes:
        field (str):
        description (str):
    """

    field: str
    description: str

    def to_dict(self) -> dict[str, Any]:
        field = self.field

        description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "field": field,
                "description": description,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        field = d.pop("field")

        description = d.pop("description")

        scheme_required_payer_fields_item = cls(
            field=field,
            description=description,
        )

        return scheme_required_payer_fields_item
