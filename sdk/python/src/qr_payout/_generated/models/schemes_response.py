from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.payer_identity import PayerIdentity
    from ..models.scheme import Scheme


T = TypeVar("T", bound="SchemesResponse")


@_attrs_define
class SchemesResponse:
    """
    Attributes:
        schemes (list[Scheme]):
        payer_identity (PayerIdentity): What execute and pay accept as the payer's identity (docs/payer-identity.md),
            the same for every scheme: a payer whose payer_country is a scheme's country is sent to the partner as a
            resident of it; any other payer, or one who declares no country, as a non-resident.
        request_id (UUID):
    """

    schemes: list[Scheme]
    payer_identity: PayerIdentity
    request_id: UUID

    def to_dict(self) -> dict[str, Any]:
        schemes = []
        for schemes_item_data in self.schemes:
            schemes_item = schemes_item_data.to_dict()
            schemes.append(schemes_item)

        payer_identity = self.payer_identity.to_dict()

        request_id = str(self.request_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "schemes": schemes,
                "payer_identity": payer_identity,
                "request_id": request_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.payer_identity import PayerIdentity
        from ..models.scheme import Scheme

        d = dict(src_dict)
        schemes = []
        _schemes = d.pop("schemes")
        for schemes_item_data in _schemes:
            schemes_item = Scheme.from_dict(schemes_item_data)

            schemes.append(schemes_item)

        payer_identity = PayerIdentity.from_dict(d.pop("payer_identity"))

        request_id = UUID(d.pop("request_id"))

        schemes_response = cls(
            schemes=schemes,
            payer_identity=payer_identity,
            request_id=request_id,
        )

        return schemes_response
