from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..models.error_tag import ErrorTag
from ..types import UNSET, Unset

T = TypeVar("T", bound="ErrorBody")


@_attrs_define
class ErrorBody:
    """
    Attributes:
        field_tag (ErrorTag): Error name; each has an anchor in /docs/errors.
        type_ (ErrorTag): Error name; each has an anchor in /docs/errors.
        message (str):
        docs_url (str): Where the error is described.
        request_id (UUID):
        retry_after (int | Unset): On a 429 only: seconds to wait, as in Retry-After.
        transaction_id (str | Unset): `InstructionAlreadyExecuted`: The transaction (`txn_`) that executed the
            instruction: read it with GET /v1/transactions/{id}. `ChargeAlreadyPaid`: The transaction (`txn_`) that paid or
            is paying the charge, only when it is your own: read it with GET /v1/transactions/{id}. Absent when another
            tenant's payment holds the charge.
    """

    field_tag: ErrorTag
    type_: ErrorTag
    message: str
    docs_url: str
    request_id: UUID
    retry_after: int | Unset = UNSET
    transaction_id: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        field_tag = self.field_tag.value

        type_ = self.type_.value

        message = self.message

        docs_url = self.docs_url

        request_id = str(self.request_id)

        retry_after = self.retry_after

        transaction_id = self.transaction_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "_tag": field_tag,
                "type": type_,
                "message": message,
                "docs_url": docs_url,
                "request_id": request_id,
            }
        )
        if retry_after is not UNSET:
            field_dict["retryAfter"] = retry_after
        if transaction_id is not UNSET:
            field_dict["transaction_id"] = transaction_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        field_tag = ErrorTag(d.pop("_tag"))

        type_ = ErrorTag(d.pop("type"))

        message = d.pop("message")

        docs_url = d.pop("docs_url")

        request_id = UUID(d.pop("request_id"))

        retry_after = d.pop("retryAfter", UNSET)

        transaction_id = d.pop("transaction_id", UNSET)

        error_body = cls(
            field_tag=field_tag,
            type_=type_,
            message=message,
            docs_url=docs_url,
            request_id=request_id,
            retry_after=retry_after,
            transaction_id=transaction_id,
        )

        return error_body
