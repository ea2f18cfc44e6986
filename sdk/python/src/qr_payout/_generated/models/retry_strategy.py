from enum import StrEnum


class RetryStrategy(StrEnum):
    EXTENDED = "extended"
    STANDARD = "standard"

    def __str__(self) -> str:
        return str(self.value)
