from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.scheme import Scheme


T = TypeVar("T", bound="SchemesResponse")


@_attrs_define
class SchemesResponse:
    """
    Attributes:
        schemes (list[Scheme]):
        request_id (UUID):
    """

    schemes: list[Scheme]
    request_id: UUID

    def to_dict(self) -> dict[str, Any]:
        schemes = []
        for schemes_item_data in self.schemes:
            schemes_item = schemes_item_data.to_dict()
            schemes.append(schemes_item)

        request_id = str(self.request_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "schemes": schemes,
                "request_id": request_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.scheme import Scheme

        d = dict(src_dict)
        schemes = []
        _schemes = d.pop("schemes")
        for schemes_item_data in _schemes:
            schemes_item = Scheme.from_dict(schemes_item_data)

            schemes.append(schemes_item)

        request_id = UUID(d.pop("request_id"))

        schemes_response = cls(
            schemes=schemes,
            request_id=request_id,
        )

        return schemes_response
