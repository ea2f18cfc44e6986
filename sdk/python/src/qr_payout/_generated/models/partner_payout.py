from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.partner_payout_rail import PartnerPayoutRail
from ..models.partner_payout_status import PartnerPayoutStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.partner_payout_amount import PartnerPayoutAmount


T = TypeVar("T", bound="PartnerPayout")


@_attrs_define
class PartnerPayout:
    """
    Attributes:
        id (str): The partner's payout id.
        idempotency_key (str): Our transaction id, sent as Idempotency-Key when the payout was submitted.
        rail (PartnerPayoutRail):
        amount (PartnerPayoutAmount):
        status (PartnerPayoutStatus): ISO 20022 status.
        created_at (datetime.datetime):
        reason_code (None | str | Unset):
        reason (None | str | Unset):
        reference (None | str | Unset):
        settled_at (datetime.datetime | None | Unset):
    """

    id: str
    idempotency_key: str
    rail: PartnerPayoutRail
    amount: PartnerPayoutAmount
    status: PartnerPayoutStatus
    created_at: datetime.datetime
    reason_code: None | str | Unset = UNSET
    reason: None | str | Unset = UNSET
    reference: None | str | Unset = UNSET
    settled_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        idempotency_key = self.idempotency_key

        rail = self.rail.value

        amount = self.amount.to_dict()

        status = self.status.value

        created_at = self.created_at.isoformat()

        reason_code: None | str | Unset
        if isinstance(self.reason_code, Unset):
            reason_code = UNSET
        else:
            reason_code = self.reason_code

        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        reference: None | str | Unset
        if isinstance(self.reference, Unset):
            reference = UNSET
        else:
            reference = self.reference

        settled_at: None | str | Unset
        if isinstance(self.settled_at, Unset):
            settled_at = UNSET
        elif isinstance(self.settled_at, datetime.datetime):
            settled_at = self.settled_at.isoformat()
        else:
            settled_at = self.settled_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "idempotency_key": idempotency_key,
                "rail": rail,
                "amount": amount,
                "status": status,
                "created_at": created_at,
            }
        )
        if reason_code is not UNSET:
            field_dict["reason_code"] = reason_code
        if reason is not UNSET:
            field_dict["reason"] = reason
        if reference is not UNSET:
            field_dict["reference"] = reference
        if settled_at is not UNSET:
            field_dict["settled_at"] = settled_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.partner_payout_amount import PartnerPayoutAmount

        d = dict(src_dict)
        id = d.pop("id")

        idempotency_key = d.pop("idempotency_key")

        rail = PartnerPayoutRail(d.pop("rail"))

        amount = PartnerPayoutAmount.from_dict(d.pop("amount"))

        status = PartnerPayoutStatus(d.pop("status"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_reason_code(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason_code = _parse_reason_code(d.pop("reason_code", UNSET))

        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))

        def _parse_reference(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reference = _parse_reference(d.pop("reference", UNSET))

        def _parse_settled_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                settled_at_type_0 = datetime.datetime.fromisoformat(data)

                return settled_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        settled_at = _parse_settled_at(d.pop("settled_at", UNSET))

        partner_payout = cls(
            id=id,
            idempotency_key=idempotency_key,
            rail=rail,
            amount=amount,
            status=status,
            created_at=created_at,
            reason_code=reason_code,
            reason=reason,
            reference=reference,
            settled_at=settled_at,
        )

        partner_payout.additional_properties = d
        return partner_payout

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
