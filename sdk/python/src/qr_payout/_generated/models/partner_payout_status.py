from enum import StrEnum


class PartnerPayoutStatus(StrEnum):
    ACSC = "ACSC"
    ACSP = "ACSP"
    PDNG = "PDNG"
    RJCT = "RJCT"

    def __str__(self) -> str:
        return str(self.value)
