from enum import StrEnum


class ExecuteRequestPayerIdTypeType0(StrEnum):
    NATIONAL_ID = "national_id"
    PASSPORT = "passport"
    TAX_ID = "tax_id"

    def __str__(self) -> str:
        return str(self.value)
