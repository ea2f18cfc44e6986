from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.instruction import Instruction


T = TypeVar("T", bound="InstructionResponse")


@_attrs_define
class InstructionResponse:
    """
    Attributes:
        instruction (Instruction):
        request_id (UUID):
    """

    instruction: Instruction
    request_id: UUID

    def to_dict(self) -> dict[str, Any]:
        instruction = self.instruction.to_dict()

        request_id = str(self.request_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "instruction": instruction,
                "request_id": request_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.instruction import Instruction

        d = dict(src_dict)
        instruction = Instruction.from_dict(d.pop("instruction"))

        request_id = UUID(d.pop("request_id"))

        instruction_response = cls(
            instruction=instruction,
            request_id=request_id,
        )

        return instruction_response
