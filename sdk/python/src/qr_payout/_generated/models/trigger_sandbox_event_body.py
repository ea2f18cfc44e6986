from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.trigger_sandbox_event_body_event import TriggerSandboxEventBodyEvent
from ..types import UNSET, Unset

T = TypeVar("T", bound="TriggerSandboxEventBody")


@_attrs_define
class TriggerSandboxEventBody:
    """
    Attributes:
        event (TriggerSandboxEventBodyEvent): The event to make happen: the transaction ends in this outcome and its
            webhook event follows.
        callback_url (None | str | Unset): Optional ad-hoc webhook target: receives the transaction.completed or
            transaction.failed event, signed with the tenant's signing secret. An https URL that is not a loopback, private,
            link-local or metadata address (same rules as registered endpoints); the sandbox, whose services run with
            WEBHOOK_ALLOW_PRIVATE_TARGETS=true, also takes http and those addresses (http://127.0.0.1:9000/hook). Null: not
            sent.
    """

    event: TriggerSandboxEventBodyEvent
    callback_url: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        event = self.event.value

        callback_url: None | str | Unset
        if isinstance(self.callback_url, Unset):
            callback_url = UNSET
        else:
            callback_url = self.callback_url

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "event": event,
            }
        )
        if callback_url is not UNSET:
            field_dict["callback_url"] = callback_url

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        event = TriggerSandboxEventBodyEvent(d.pop("event"))

        def _parse_callback_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        callback_url = _parse_callback_url(d.pop("callback_url", UNSET))

        trigger_sandbox_event_body = cls(
            event=event,
            callback_url=callback_url,
        )

        return trigger_sandbox_event_body
