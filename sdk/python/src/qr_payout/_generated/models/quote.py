from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="Quote")


@_attrs_define
class Quote:
    """
    Attributes:
        id (str): Quote id; consumed once, at execute.
        rate (str): Units of target_currency per one unit of source_currency, as an exact decimal string: the mid rate
            less the spread, mid × (10000 − FX_SPREAD_BPS) / 10000 (50 bps by default; [docs/api/fx-and-
            confidence.md](/docs/api/fx-and-confidence)).
        source_amount (float): JSON number in major units with at most the currency's ISO 4217 minor-unit digits.
        source_currency (str): ISO 4217 alphabetic currency code.
        target_amount (float): JSON number in major units with at most the currency's ISO 4217 minor-unit digits.
        target_currency (str): ISO 4217 alphabetic currency code.
        fee (float): JSON number in major units with at most the currency's ISO 4217 minor-unit digits.
        expires_at (datetime.datetime): ISO 8601 UTC with milliseconds, FX_QUOTE_TTL_MS (60 s by default) after the
            quote was made; execute after this answers 409 QuoteExpired (resolve again).
    """

    id: str
    rate: str
    source_amount: float
    source_currency: str
    target_amount: float
    target_currency: str
    fee: float
    expires_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        rate = self.rate

        source_amount = self.source_amount

        source_currency = self.source_currency

        target_amount = self.target_amount

        target_currency = self.target_currency

        fee = self.fee

        expires_at = self.expires_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "rate": rate,
                "source_amount": source_amount,
                "source_currency": source_currency,
                "target_amount": target_amount,
                "target_currency": target_currency,
                "fee": fee,
                "expires_at": expires_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        rate = d.pop("rate")

        source_amount = d.pop("source_amount")

        source_currency = d.pop("source_currency")

        target_amount = d.pop("target_amount")

        target_currency = d.pop("target_currency")

        fee = d.pop("fee")

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        quote = cls(
            id=id,
            rate=rate,
            source_amount=source_amount,
            source_currency=source_currency,
            target_amount=target_amount,
            target_currency=target_currency,
            fee=fee,
            expires_at=expires_at,
        )

        return quote
