"""200 bodies taken from the OpenAPI document's own examples (client/openapi.json), so the tests
parse what the document promises rather than bodies written here."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

DOCUMENT = Path(__file__).resolve().parents[3] / "client" / "openapi.json"


@cache
def _document() -> dict[str, Any]:
    return json.loads(DOCUMENT.read_text())


def example(path: str, method: str = "get") -> dict[str, Any]:
    content = _document()["paths"][path][method]["responses"]["200"]["content"]["application/json"]
    first = next(iter(content["examples"].values()))
    return json.loads(json.dumps(first["value"]))
