"""The README's quick start, run by CI against the sandbox (scripts/sdk-python quickstart): list
the sandbox test QRs, pay one, read the transaction back, receive its webhook on a local HTTP
server and verify the signature with the SDK.

Env: QR_PAYOUT_API_KEY and QR_PAYOUT_SIGNING_SECRET (printed by `npm start`, also in
.data/sandbox.json), QR_PAYOUT_BASE_URL (default http://127.0.0.1:8080). Exit 0 once the
transaction is completed and its webhook verified; 1 otherwise.
"""

import os
import queue
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from qr_payout import MemoryDeduplicator, QrPayoutClient, QrPayoutError, receive_webhook
from qr_payout.webhooks import WebhookEvent

BASE_URL = os.environ.get("QR_PAYOUT_BASE_URL", "http://127.0.0.1:8080")
API_KEY = os.environ["QR_PAYOUT_API_KEY"]
SIGNING_SECRET = os.environ["QR_PAYOUT_SIGNING_SECRET"]
WEBHOOK_TIMEOUT_SECONDS = 60


def start_webhook_receiver(events: queue.Queue[WebhookEvent]) -> ThreadingHTTPServer:
    """A local HTTP server that verifies each webhook and queues the new events."""
    dedupe = MemoryDeduplicator()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            raw_body = self.rfile.read(int(self.headers.get("content-length") or 0))
            result = receive_webhook(self.headers, raw_body, SIGNING_SECRET, dedupe=dedupe)
            if result.status != 200:
                print(f"webhook refused: {result.status} {result.reason}")
            elif result.event and not result.duplicate:
                events.put(result.event)
            self.send_response(result.status)
            self.send_header("content-length", "0")
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def wait_for_webhook(events: queue.Queue[WebhookEvent], transaction_id: str) -> WebhookEvent:
    while True:
        event = events.get(timeout=WEBHOOK_TIMEOUT_SECONDS)
        if event.data.get("transaction_id") == transaction_id:
            return event


def main() -> int:
    events: queue.Queue[WebhookEvent] = queue.Queue()
    receiver = start_webhook_receiver(events)
    callback_url = f"http://127.0.0.1:{receiver.server_port}/hook"
    try:
        with QrPayoutClient(BASE_URL, API_KEY) as client:
            # The sandbox's test codes (docs/sandbox-test-qrs.md) and a payer that works with all of them.
            catalogue = client.list_sandbox_test_qrs()
            qr = next(q for q in catalogue.test_qrs if q.id == "br-static-amountless")
            payer = catalogue.payer.to_dict()
            print(f"test QR {qr.id}: {qr.description}")

            # An Idempotency-Key is made for the call and reused on every retry of it.
            paid = client.pay({"qr_string": qr.qr_string, "amount": qr.amount, **payer, "callback_url": callback_url})
            print(f"paid {paid.transaction.id} {paid.transaction.status}")

            read = client.get_transaction(paid.transaction.id)
            print(f"read {read.transaction.status}, reference {read.transaction.result.reference}")
    except QrPayoutError as err:
        print(f"refused: {err.status} {err.tag}: {err.message} ({err.docs_url}, request {err.request_id})")
        return 1

    # The signed webhook of that transaction, verified by receive_webhook on the local server.
    event = wait_for_webhook(events, paid.transaction.id)
    print(f"webhook {event.event_type} {event.event_id}: signature verified")
    receiver.shutdown()
    return 0 if read.transaction.status == "completed" and event.event_type == "transaction.completed" else 1


if __name__ == "__main__":
    sys.exit(main())
