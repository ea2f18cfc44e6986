from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.pay_request_payer_id_type_type_0 import PayRequestPayerIdTypeType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="PayRequest")


@_attrs_define
class PayRequest:
    """
    Attributes:
        qr_string (str): The text decoded from the merchant QR code, exactly as scanned.
        payer_name (str): Full name of the payer as on their identity document (1 to 140 characters, checked by payout).
        payer_account (str): Account of the payer at the sending wallet or bank (1 to 64 characters, checked by payout).
            Never logged in clear.
        payer_tax_id (str): The payer's own identifier in their own country: tax id, national id or passport number (1
            to 64 characters). Checked against the documents of payer_country when given (GET /v1/schemes payer_identity);
            otherwise sent to the partner as an undeclared foreign identifier. Never logged in clear.
        wallet_currency (None | str | Unset): ISO 4217 currency the payer pays in (upper case, one of the currencies fx
            quotes: GET /v1/fx/currencies); an FX quote is made when it differs from the payment currency. Null: not sent.
        amount (float | None | Unset): For QR codes that carry no amount: the amount in the payment currency. Zero or
            negative is 400 ValidationError; a positive amount outside the scheme's min_amount..max_amount is 422
            AmountOutOfRange. Null: not sent.
        payer_country (None | str | Unset): Optional: an assigned ISO 3166-1 alpha-2 code, two upper-case letters
            (`^[A-Z]{2}$`; not EU, UK, XK, ZZ), of the country that issued payer_tax_id, checked by payout. The payer is a
            resident of the merchant's country when this is that country. Null: not sent.
        payer_id_type (None | PayRequestPayerIdTypeType0 | Unset): Optional: what payer_tax_id is, one of `tax_id`,
            `national_id`, `passport` (checked by payout); requires payer_country. Without it, the type is inferred from the
            one document of the country the id fits; an id that fits two (a Colombian NIT without its dash is also a CC) is
            400 ValidationError naming payer_id_type. Null: not sent.
        callback_url (None | str | Unset): Optional ad-hoc webhook target: receives the transaction.completed or
            transaction.failed event, signed with the tenant's signing secret. An https URL that is not a loopback, private,
            link-local or metadata address (same rules as registered endpoints); the sandbox, whose services run with
            WEBHOOK_ALLOW_PRIVATE_TARGETS=true, also takes http and those addresses (http://127.0.0.1:9000/hook). Null: not
            sent.
    """

    qr_string: str
    payer_name: str
    payer_account: str
    payer_tax_id: str
    wallet_currency: None | str | Unset = UNSET
    amount: float | None | Unset = UNSET
    payer_country: None | str | Unset = UNSET
    payer_id_type: None | PayRequestPayerIdTypeType0 | Unset = UNSET
    callback_url: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        qr_string = self.qr_string

        payer_name = self.payer_name

        payer_account = self.payer_account

        payer_tax_id = self.payer_tax_id

        wallet_currency: None | str | Unset
        if isinstance(self.wallet_currency, Unset):
            wallet_currency = UNSET
        else:
            wallet_currency = self.wallet_currency

        amount: float | None | Unset
        if isinstance(self.amount, Unset):
            amount = UNSET
        else:
            amount = self.amount

        payer_country: None | str | Unset
        if isinstance(self.payer_country, Unset):
            payer_country = UNSET
        else:
            payer_country = self.payer_country

        payer_id_type: None | str | Unset
        if isinstance(self.payer_id_type, Unset):
            payer_id_type = UNSET
        elif isinstance(self.payer_id_type, PayRequestPayerIdTypeType0):
            payer_id_type = self.payer_id_type.value
        else:
            payer_id_type = self.payer_id_type

        callback_url: None | str | Unset
        if isinstance(self.callback_url, Unset):
            callback_url = UNSET
        else:
            callback_url = self.callback_url

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "qr_string": qr_string,
                "payer_name": payer_name,
                "payer_account": payer_account,
                "payer_tax_id": payer_tax_id,
            }
        )
        if wallet_currency is not UNSET:
            field_dict["wallet_currency"] = wallet_currency
        if amount is not UNSET:
            field_dict["amount"] = amount
        if payer_country is not UNSET:
            field_dict["payer_country"] = payer_country
        if payer_id_type is not UNSET:
            field_dict["payer_id_type"] = payer_id_type
        if callback_url is not UNSET:
            field_dict["callback_url"] = callback_url

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        qr_string = d.pop("qr_string")

        payer_name = d.pop("payer_name")

        payer_account = d.pop("payer_account")

        payer_tax_id = d.pop("payer_tax_id")

        def _parse_wallet_currency(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        wallet_currency = _parse_wallet_currency(d.pop("wallet_currency", UNSET))

        def _parse_amount(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        amount = _parse_amount(d.pop("amount", UNSET))

        def _parse_payer_country(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        payer_country = _parse_payer_country(d.pop("payer_country", UNSET))

        def _parse_payer_id_type(
            data: object,
        ) -> None | PayRequestPayerIdTypeType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                payer_id_type_type_0 = PayRequestPayerIdTypeType0(data)

                return payer_id_type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PayRequestPayerIdTypeType0 | Unset, data)

        payer_id_type = _parse_payer_id_type(d.pop("payer_id_type", UNSET))

        def _parse_callback_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        callback_url = _parse_callback_url(d.pop("callback_url", UNSET))

        pay_request = cls(
            qr_string=qr_string,
            payer_name=payer_name,
            payer_account=payer_account,
            payer_tax_id=payer_tax_id,
            wallet_currency=wallet_currency,
            amount=amount,
            payer_country=payer_country,
            payer_id_type=payer_id_type,
            callback_url=callback_url,
        )

        return pay_request
