from enum import StrEnum


class PayerIdentityDocumentsItemIdType(StrEnum):
    NATIONAL_ID = "national_id"
    TAX_ID = "tax_id"

    def __str__(self) -> str:
        return str(self.value)
