from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.list_sandbox_test_qrs_response_200_payer import (
        ListSandboxTestQrsResponse200Payer,
    )
    from ..models.list_sandbox_test_qrs_response_200_test_amounts_item import (
        ListSandboxTestQrsResponse200TestAmountsItem,
    )
    from ..models.list_sandbox_test_qrs_response_200_test_qrs_item import (
        ListSandboxTestQrsResponse200TestQrsItem,
    )


T = TypeVar("T", bound="ListSandboxTestQrsResponse200")


@_attrs_define
class ListSandboxTestQrsResponse200:
    """
    Attributes:
        test_amounts (list[ListSandboxTestQrsResponse200TestAmountsItem]):
        payer (ListSandboxTestQrsResponse200Payer):
        test_qrs (list[ListSandboxTestQrsResponse200TestQrsItem]):
    """

    test_amounts: list[ListSandboxTestQrsResponse200TestAmountsItem]
    payer: ListSandboxTestQrsResponse200Payer
    test_qrs: list[ListSandboxTestQrsResponse200TestQrsItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        test_amounts = []
        for test_amounts_item_data in self.test_amounts:
            test_amounts_item = test_amounts_item_data.to_dict()
            test_amounts.append(test_amounts_item)

        payer = self.payer.to_dict()

        test_qrs = []
        for test_qrs_item_data in self.test_qrs:
            test_qrs_item = test_qrs_item_data.to_dict()
            test_qrs.append(test_qrs_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "test_amounts": test_amounts,
                "payer": payer,
                "test_qrs": test_qrs,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.list_sandbox_test_qrs_response_200_payer import (
            ListSandboxTestQrsResponse200Payer,
        )
        from ..models.list_sandbox_test_qrs_response_200_test_amounts_item import (
            ListSandboxTestQrsResponse200TestAmountsItem,
        )
        from ..models.list_sandbox_test_qrs_response_200_test_qrs_item import (
            ListSandboxTestQrsResponse200TestQrsItem,
        )

        d = dict(src_dict)
        test_amounts = []
        _test_amounts = d.pop("test_amounts")
        for test_amounts_item_data in _test_amounts:
            test_amounts_item = ListSandboxTestQrsResponse200TestAmountsItem.from_dict(
                test_amounts_item_data
            )

            test_amounts.append(test_amounts_item)

        payer = ListSandboxTestQrsResponse200Payer.from_dict(d.pop("payer"))

        test_qrs = []
        _test_qrs = d.pop("test_qrs")
        for test_qrs_item_data in _test_qrs:
            test_qrs_item = ListSandboxTestQrsResponse200TestQrsItem.from_dict(
                test_qrs_item_data
            )

            test_qrs.append(test_qrs_item)

        list_sandbox_test_qrs_response_200 = cls(
            test_amounts=test_amounts,
            payer=payer,
            test_qrs=test_qrs,
        )

        list_sandbox_test_qrs_response_200.additional_properties = d
        return list_sandbox_test_qrs_response_200

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
