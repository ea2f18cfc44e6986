from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.list_sandbox_test_qrs_response_200_test_qrs_item_operation import (
    ListSandboxTestQrsResponse200TestQrsItemOperation,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.list_sandbox_test_qrs_response_200_test_qrs_item_expected import (
        ListSandboxTestQrsResponse200TestQrsItemExpected,
    )


T = TypeVar("T", bound="ListSandboxTestQrsResponse200TestQrsItem")


@_attrs_define
class ListSandboxTestQrsResponse200TestQrsItem:
    """
    Attributes:
        id (str):
        country (str):
        scenario (str):
        description (str):
        qr_string (None | str):
        operation (ListSandboxTestQrsResponse200TestQrsItemOperation):
        expected (ListSandboxTestQrsResponse200TestQrsItemExpected):
        how_to_get (str | Unset):
        amount (float | Unset):
    """

    id: str
    country: str
    scenario: str
    description: str
    qr_string: None | str
    operation: ListSandboxTestQrsResponse200TestQrsItemOperation
    expected: ListSandboxTestQrsResponse200TestQrsItemExpected
    how_to_get: str | Unset = UNSET
    amount: float | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        country = self.country

        scenario = self.scenario

        description = self.description

        qr_string: None | str
        qr_string = self.qr_string

        operation = self.operation.value

        expected = self.expected.to_dict()

        how_to_get = self.how_to_get

        amount = self.amount

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "country": country,
                "scenario": scenario,
                "description": description,
                "qr_string": qr_string,
                "operation": operation,
                "expected": expected,
            }
        )
        if how_to_get is not UNSET:
            field_dict["how_to_get"] = how_to_get
        if amount is not UNSET:
            field_dict["amount"] = amount

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.list_sandbox_test_qrs_response_200_test_qrs_item_expected import (
            ListSandboxTestQrsResponse200TestQrsItemExpected,
        )

        d = dict(src_dict)
        id = d.pop("id")

        country = d.pop("country")

        scenario = d.pop("scenario")

        description = d.pop("description")

        def _parse_qr_string(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        qr_string = _parse_qr_string(d.pop("qr_string"))

        operation = ListSandboxTestQrsResponse200TestQrsItemOperation(
            d.pop("operation")
        )

        expected = ListSandboxTestQrsResponse200TestQrsItemExpected.from_dict(
            d.pop("expected")
        )

        how_to_get = d.pop("how_to_get", UNSET)

        amount = d.pop("amount", UNSET)

        list_sandbox_test_qrs_response_200_test_qrs_item = cls(
            id=id,
            country=country,
            scenario=scenario,
            description=description,
            qr_string=qr_string,
            operation=operation,
            expected=expected,
            how_to_get=how_to_get,
            amount=amount,
        )

        list_sandbox_test_qrs_response_200_test_qrs_item.additional_properties = d
        return list_sandbox_test_qrs_response_200_test_qrs_item

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
