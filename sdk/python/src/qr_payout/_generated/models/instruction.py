from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.creditor import Creditor
    from ..models.quote import Quote


T = TypeVar("T", bound="Instruction")


@_attrs_define
class Instruction:
    """
    Attributes:
        id (str): Use as instruction_id in POST /v1/execute.
        amount (float): JSON number in major units with at most the currency's ISO 4217 minor-unit digits.
        currency (str): ISO 4217 alphabetic currency code.
        creditor (Creditor):
        scheme (str): Scheme identifier, as listed by GET /v1/schemes.
        country (str): ISO 3166-1 alpha-2 country of the merchant.
        confidence (float): Decode confidence in [0, 1]: the sum of the weights of the checks the QR passed (CRC 0.20,
            mandatory tags 0.15, identifiers valid 0.20, known identifier 0.15, country and currency consistent 0.15,
            account in clear 0.15). A valid static Pix code scores 1.0; [docs/api/fx-and-confidence.md
            "Confidence"](/docs/api/fx-and-confidence#confidence).
        wallet_currency (str | Unset): ISO 4217 alphabetic currency code.
        wallet_amount (float | Unset): JSON number in major units with at most the currency's ISO 4217 minor-unit
            digits.
        quote (None | Quote | Unset): Only when the request had wallet_currency: the FX quote, or null when
            wallet_currency is the payment currency.
    """

    id: str
    amount: float
    currency: str
    creditor: Creditor
    scheme: str
    country: str
    confidence: float
    wallet_currency: str | Unset = UNSET
    wallet_amount: float | Unset = UNSET
    quote: None | Quote | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.quote import Quote

        id = self.id

        amount = self.amount

        currency = self.currency

        creditor = self.creditor.to_dict()

        scheme = self.scheme

        country = self.country

        confidence = self.confidence

        wallet_currency = self.wallet_currency

        wallet_amount = self.wallet_amount

        quote: dict[str, Any] | None | Unset
        if isinstance(self.quote, Unset):
            quote = UNSET
        elif isinstance(self.quote, Quote):
            quote = self.quote.to_dict()
        else:
            quote = self.quote

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "amount": amount,
                "currency": currency,
                "creditor": creditor,
                "scheme": scheme,
                "country": country,
                "confidence": confidence,
            }
        )
        if wallet_currency is not UNSET:
            field_dict["wallet_currency"] = wallet_currency
        if wallet_amount is not UNSET:
            field_dict["wallet_amount"] = wallet_amount
        if quote is not UNSET:
            field_dict["quote"] = quote

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.creditor import Creditor
        from ..models.quote import Quote

        d = dict(src_dict)
        id = d.pop("id")

        amount = d.pop("amount")

        currency = d.pop("currency")

        creditor = Creditor.from_dict(d.pop("creditor"))

        scheme = d.pop("scheme")

        country = d.pop("country")

        confidence = d.pop("confidence")

        wallet_currency = d.pop("wallet_currency", UNSET)

        wallet_amount = d.pop("wallet_amount", UNSET)

        def _parse_quote(data: object) -> None | Quote | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                quote_type_0 = Quote.from_dict(data)

                return quote_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Quote | Unset, data)

        quote = _parse_quote(d.pop("quote", UNSET))

        instruction = cls(
            id=id,
            amount=amount,
            currency=currency,
            creditor=creditor,
            scheme=scheme,
            country=country,
            confidence=confidence,
            wallet_currency=wallet_currency,
            wallet_amount=wallet_amount,
            quote=quote,
        )

        return instruction
