"""Every case of the shared vectors (webhook-receiver/signature-vectors.json), which every signer
and verifier of the `t=…,v1=…` scheme in the repository runs against."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from qr_payout.webhooks import sign_webhook_body, verify_webhook_signature

VECTORS = json.loads((Path(__file__).resolve().parents[3] / "webhook-receiver" / "signature-vectors.json").read_text())


@pytest.mark.parametrize("case", VECTORS["cases"], ids=[c["name"] for c in VECTORS["cases"]])
def test_vector(case: dict[str, Any]) -> None:
    check = verify_webhook_signature(
        case["header"],
        case["body"].encode(),
        case["secret"],
        tolerance_seconds=VECTORS["tolerance_seconds"],
        now=case["now"],
    )
    assert (check.ok, check.reason) == (case["expected"]["ok"], case["expected"].get("reason"))
    if check.ok:
        assert check.timestamp == case["t"]
    if "signing_secrets" in case:
        assert sign_webhook_body(case["signing_secrets"], case["body"], case["t"]) == case["header"]


def test_the_vectors_cover_every_outcome() -> None:
    outcomes = {(c["expected"]["ok"], c["expected"].get("reason")) for c in VECTORS["cases"]}
    assert outcomes == {
        (True, None),
        (False, "no_matching_signature"),
        (False, "timestamp_out_of_tolerance"),
    }
