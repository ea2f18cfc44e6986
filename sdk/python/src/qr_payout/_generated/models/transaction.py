from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.transaction_status import TransactionStatus

if TYPE_CHECKING:
    from ..models.creditor import Creditor
    from ..models.status_change import StatusChange
    from ..models.transaction_error import TransactionError
    from ..models.transaction_quote import TransactionQuote
    from ..models.transaction_result import TransactionResult


T = TypeVar("T", bound="Transaction")


@_attrs_define
class Transaction:
    """
    Attributes:
        id (str):
        instruction_id (str):
        status (TransactionStatus):
        rail (str): Name of the rail that carries the payout (for example `pix`).
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        result (None | TransactionResult): Set when the transaction completed.
        error (None | TransactionError): Set when the transaction failed.
        amount (float): JSON number in major units with at most the currency's ISO 4217 minor-unit digits.
        currency (str): ISO 4217 alphabetic currency code.
        creditor (Creditor):
        scheme (str): Scheme identifier, as listed by GET /v1/schemes.
        country (str): ISO 3166-1 alpha-2 country of the merchant.
        wallet_amount (float | None): What the payer paid in `walletCurrency` (the quote's source amount plus its fee);
            null when no FX applied. JSON number in major units with at most the currency's ISO 4217 minor-unit digits.
        wallet_currency (None | str): ISO 4217 currency the payer paid in; null when no FX applied.
        quote (None | TransactionQuote): The FX quote the payment was converted with; null when no FX applied.
        status_history (list[StatusChange]): Every state the transaction entered, oldest first, with when it entered it
            (UTC, milliseconds); the last is `status`. It starts with `pending` at `createdAt`, and a completed or failed
            transaction ends with its outcome at `updatedAt`; `processing` appears only when the outcome had not come by the
            first status check (1 s after the partner accepted, by default) or the end of the pay's wait.
    """

    id: str
    instruction_id: str
    status: TransactionStatus
    rail: str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    result: None | TransactionResult
    error: None | TransactionError
    amount: float
    currency: str
    creditor: Creditor
    scheme: str
    country: str
    wallet_amount: float | None
    wallet_currency: None | str
    quote: None | TransactionQuote
    status_history: list[StatusChange]

    def to_dict(self) -> dict[str, Any]:
        from ..models.transaction_error import TransactionError
        from ..models.transaction_quote import TransactionQuote
        from ..models.transaction_result import TransactionResult

        id = self.id

        instruction_id = self.instruction_id

        status = self.status.value

        rail = self.rail

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        result: dict[str, Any] | None
        if isinstance(self.result, TransactionResult):
            result = self.result.to_dict()
        else:
            result = self.result

        error: dict[str, Any] | None
        if isinstance(self.error, TransactionError):
            error = self.error.to_dict()
        else:
            error = self.error

        amount = self.amount

        currency = self.currency

        creditor = self.creditor.to_dict()

        scheme = self.scheme

        country = self.country

        wallet_amount: float | None
        wallet_amount = self.wallet_amount

        wallet_currency: None | str
        wallet_currency = self.wallet_currency

        quote: dict[str, Any] | None
        if isinstance(self.quote, TransactionQuote):
            quote = self.quote.to_dict()
        else:
            quote = self.quote

        status_history = []
        for status_history_item_data in self.status_history:
            status_history_item = status_history_item_data.to_dict()
            status_history.append(status_history_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "instructionId": instruction_id,
                "status": status,
                "rail": rail,
                "createdAt": created_at,
                "updatedAt": updated_at,
                "result": result,
                "error": error,
                "amount": amount,
                "currency": currency,
                "creditor": creditor,
                "scheme": scheme,
                "country": country,
                "walletAmount": wallet_amount,
                "walletCurrency": wallet_currency,
                "quote": quote,
                "statusHistory": status_history,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.creditor import Creditor
        from ..models.status_change import StatusChange
        from ..models.transaction_error import TransactionError
        from ..models.transaction_quote import TransactionQuote
        from ..models.transaction_result import TransactionResult

        d = dict(src_dict)
        id = d.pop("id")

        instruction_id = d.pop("instructionId")

        status = TransactionStatus(d.pop("status"))

        rail = d.pop("rail")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        def _parse_result(data: object) -> None | TransactionResult:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                result_type_0 = TransactionResult.from_dict(data)

                return result_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TransactionResult, data)

        result = _parse_result(d.pop("result"))

        def _parse_error(data: object) -> None | TransactionError:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = TransactionError.from_dict(data)

                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TransactionError, data)

        error = _parse_error(d.pop("error"))

        amount = d.pop("amount")

        currency = d.pop("currency")

        creditor = Creditor.from_dict(d.pop("creditor"))

        scheme = d.pop("scheme")

        country = d.pop("country")

        def _parse_wallet_amount(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        wallet_amount = _parse_wallet_amount(d.pop("walletAmount"))

        def _parse_wallet_currency(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        wallet_currency = _parse_wallet_currency(d.pop("walletCurrency"))

        def _parse_quote(data: object) -> None | TransactionQuote:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                quote_type_0 = TransactionQuote.from_dict(data)

                return quote_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TransactionQuote, data)

        quote = _parse_quote(d.pop("quote"))

        status_history = []
        _status_history = d.pop("statusHistory")
        for status_history_item_data in _status_history:
            status_history_item = StatusChange.from_dict(status_history_item_data)

            status_history.append(status_history_item)

        transaction = cls(
            id=id,
            instruction_id=instruction_id,
            status=status,
            rail=rail,
            created_at=created_at,
            updated_at=updated_at,
            result=result,
            error=error,
            amount=amount,
            currency=currency,
            creditor=creditor,
            scheme=scheme,
            country=country,
            wallet_amount=wallet_amount,
            wallet_currency=wallet_currency,
            quote=quote,
            status_history=status_history,
        )

        return transaction
