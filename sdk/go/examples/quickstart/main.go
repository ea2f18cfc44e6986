// Command quickstart is the README's quick start as a program (sdk/go/README.md "Quick start"): it
// lists the sandbox's test QR codes, pays one with the test payer, waits for the transaction's
// webhook on its own HTTP server (the pay's callback_url), verified with the signing secret, and
// reads the transaction back. Exit 0 once the transaction is completed and its webhook verified.
// scripts/sdk-go runs it against a sandbox it starts (docs/testing.md "The Go SDK").
//
//	QR_PAYOUT_API_KEY=... QR_PAYOUT_SIGNING_SECRET=whsec_... go run ./examples/quickstart
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"time"

	qrpayout "github.com/qr-payout/qr-payout/sdk/go"
	"github.com/qr-payout/qr-payout/sdk/go/api"
)

// testQRID is the test QR paid: a static Pix code with an amount, completed by the sandbox partner
// (docs/sandbox-test-qrs.md).
const testQRID = "br-static-amount"

func main() {
	if err := run(); err != nil {
		log.SetFlags(0)
		var apiErr *qrpayout.Error
		if errors.As(err, &apiErr) {
			log.Fatalf("quickstart: %d %s: %s (%s, request %s)", apiErr.Status, apiErr.Tag, apiErr.Message, apiErr.DocsURL, apiErr.RequestID)
		}
		log.Fatalf("quickstart: %v", err)
	}
}

func run() error {
	baseURL := envOr("QR_PAYOUT_BASE_URL", "http://127.0.0.1:8080")
	apiKey, secret := os.Getenv("QR_PAYOUT_API_KEY"), os.Getenv("QR_PAYOUT_SIGNING_SECRET")
	if apiKey == "" || secret == "" {
		return errors.New("set QR_PAYOUT_API_KEY and QR_PAYOUT_SIGNING_SECRET (npm start prints both)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	// 1. A receiver for the webhook: verified, parsed and deduplicated by the SDK.
	events := make(chan *qrpayout.WebhookEvent, 4)
	receiver := qrpayout.WebhookHandler(
		qrpayout.ReceiveOptions{Secrets: []string{secret}, Dedupe: qrpayout.NewMemoryDeduplicator(0, 0)},
		func(_ context.Context, event *qrpayout.WebhookEvent) error { events <- event; return nil })
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	go func() { _ = http.Serve(listener, receiver) }()
	callbackURL := fmt.Sprintf("http://%s/hook", listener.Addr())

	// 2. The client, and the sandbox's test QR codes.
	client, err := qrpayout.NewClient(qrpayout.Options{BaseURL: baseURL, APIKey: apiKey})
	if err != nil {
		return err
	}
	catalogue, err := client.ListSandboxTestQrs(ctx)
	if err != nil {
		return err
	}
	fmt.Printf("%d sandbox test QR codes\n", len(catalogue.TestQrs))
	var qr *api.ListSandboxTestQrs200JSONResponseBody_TestQrs
	for i := range catalogue.TestQrs {
		if catalogue.TestQrs[i].Id == testQRID {
			qr = &catalogue.TestQrs[i]
		}
	}
	if qr == nil || qr.QrString == nil {
		return fmt.Errorf("no test QR %s in the catalogue", testQRID)
	}

	// 3. Pay it as the catalogue's test payer, the webhook going to our receiver.
	var pay api.PayRequest
	payer, _ := json.Marshal(catalogue.Payer)
	if err := json.Unmarshal(payer, &pay); err != nil {
		return err
	}
	pay.QrString, pay.Amount, pay.CallbackUrl = *qr.QrString, qr.Amount, &callbackURL
	paid, err := client.Pay(ctx, pay) // an Idempotency-Key is made for this call
	if err != nil {
		return err
	}
	fmt.Printf("paid %s: %v %s, transaction %s %s\n", testQRID, paid.Instruction.Amount,
		paid.Instruction.Currency, paid.Transaction.Id, paid.Transaction.Status)

	// 4. Its webhook, verified by the receiver.
	event, err := awaitEvent(ctx, events, paid.Transaction.Id)
	if err != nil {
		return err
	}
	fmt.Printf("webhook %s %s: signature verified\n", event.EventType, event.EventID)

	// 5. The transaction, read back.
	read, err := client.GetTransaction(ctx, paid.Transaction.Id)
	if err != nil {
		return err
	}
	reference := ""
	if read.Transaction.Result != nil {
		reference = read.Transaction.Result.Reference
	}
	fmt.Printf("transaction %s: %s, reference %s\n", read.Transaction.Id, read.Transaction.Status, reference)
	if read.Transaction.Status != api.TransactionStatusCompleted {
		return fmt.Errorf("the transaction ended %s", read.Transaction.Status)
	}
	return nil
}

// awaitEvent returns the first verified event of the transaction.
func awaitEvent(ctx context.Context, events <-chan *qrpayout.WebhookEvent, transactionID string) (*qrpayout.WebhookEvent, error) {
	for {
		select {
		case event := <-events:
			if event.Transaction != nil && event.Transaction.TransactionID == transactionID {
				return event, nil
			}
		case <-ctx.Done():
			return nil, errors.New("no verified webhook for the transaction in time")
		}
	}
}

func envOr(name, fallback string) string {
	if value := os.Getenv(name); value != "" {
		return value
	}
	return fallback
}
