from enum import StrEnum


class ListSandboxTestQrsResponse200TestQrsItemOperation(StrEnum):
    PAY = "pay"
    RESOLVE = "resolve"

    def __str__(self) -> str:
        return str(self.value)
