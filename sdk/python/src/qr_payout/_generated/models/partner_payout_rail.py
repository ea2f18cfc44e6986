from enum import StrEnum


class PartnerPayoutRail(StrEnum):
    BOLIVIA_QR_INTEROPERABLE = "bolivia-qr-interoperable"
    BRE_B = "bre-b"
    CCE_INMEDIATAS = "cce-inmediatas"
    PIX = "pix"
    TRANSFERENCIAS_3_0 = "transferencias-3.0"

    def __str__(self) -> str:
        return str(self.value)
