from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="TransactionError")


@_attrs_define
class TransactionError:
    """
    Attributes:
        reason (str):
        code (str): ISO 20022 reason code (for example `AC03`).
        partner_status (str):
    """

    reason: str
    code: str
    partner_status: str

    def to_dict(self) -> dict[str, Any]:
        reason = self.reason

        code = self.code

        partner_status = self.partner_status

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "reason": reason,
                "code": code,
                "partnerStatus": partner_status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        reason = d.pop("reason")

        code = d.pop("code")

        partner_status = d.pop("partnerStatus")

        transaction_error = cls(
            reason=reason,
            code=code,
            partner_status=partner_status,
        )

        return transaction_error
