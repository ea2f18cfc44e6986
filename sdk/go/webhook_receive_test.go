package qrpayout

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

const (
	testSecret   = "whsec_receive_test"
	completedEvt = `{"schema_version":"1","event_id":"0d9f7c4e-8a51-4a39-9f0e-6c2b1a7d3e55","event_type":"transaction.completed","occurred_at":"2026-01-02T03:04:05.678Z","data":{"transaction_id":"txn_1","instruction_id":"ins_1","status":"completed","result":{"reference":"E2E1","settledAt":"2026-01-02T03:04:05Z"},"error":null,"extra":1}}`
)

var receiveAt = time.Unix(1767323045, 0)

func signedHeader(t *testing.T, body string) http.Header {
	t.Helper()
	value, err := SignWebhookBody([]string{testSecret}, []byte(body), receiveAt)
	if err != nil {
		t.Fatal(err)
	}
	return http.Header{SignatureHeader: {value}}
}

func TestReceiveWebhookVerifiesParsesAndDeduplicates(t *testing.T) {
	dedupe := NewMemoryDeduplicator(0, 0)
	options := ReceiveOptions{Secrets: []string{testSecret}, Dedupe: dedupe, Now: receiveAt}
	first, err := ReceiveWebhook(context.Background(), signedHeader(t, completedEvt), []byte(completedEvt), options)
	if err != nil || first.Status != 200 || first.Duplicate || first.Event == nil {
		t.Fatalf("first delivery: %+v %v", first, err)
	}
	txn := first.Event.Transaction
	if txn == nil || txn.TransactionID != "txn_1" || txn.Result == nil || txn.Result.Reference != "E2E1" || txn.Error != nil {
		t.Fatalf("transaction data %+v", txn)
	}
	again, err := ReceiveWebhook(context.Background(), signedHeader(t, completedEvt), []byte(completedEvt), options)
	if err != nil || again.Status != 200 || !again.Duplicate {
		t.Fatalf("redelivery: %+v %v", again, err)
	}
}

func TestReceiveWebhookRefusals(t *testing.T) {
	options := ReceiveOptions{Secrets: []string{testSecret}, Now: receiveAt}
	twice := signedHeader(t, completedEvt)
	twice.Add(SignatureHeader, twice.Get(SignatureHeader))
	cases := []struct {
		name   string
		header http.Header
		body   string
		status int
		reason string
	}{
		{"no header", http.Header{}, completedEvt, 401, ReasonMissingHeader},
		{"header sent twice", twice, completedEvt, 401, ReasonMalformedHeader},
		{"tampered body", signedHeader(t, completedEvt), strings.Replace(completedEvt, "E2E1", "E2E2", 1), 401, ReasonNoMatchingSignature},
		{"not JSON", signedHeader(t, "nope"), "nope", 400, ReasonInvalidJSON},
		{"schema version 2", signedHeader(t, `{"schema_version":"2"}`), `{"schema_version":"2"}`, 400, ReasonUnsupportedSchemaVersion},
		{"completed without result", signedHeader(t, strings.Replace(completedEvt, `"result":{"reference":"E2E1","settledAt":"2026-01-02T03:04:05Z"}`, `"result":null`, 1)),
			strings.Replace(completedEvt, `"result":{"reference":"E2E1","settledAt":"2026-01-02T03:04:05Z"}`, `"result":null`, 1), 400, ReasonInvalidEnvelope},
		{"future event type", signedHeader(t, strings.Replace(completedEvt, "transaction.completed", "payout.future", 1)),
			strings.Replace(completedEvt, "transaction.completed", "payout.future", 1), 200, ReasonUnknownEventType},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			result, err := ReceiveWebhook(context.Background(), c.header, []byte(c.body), options)
			if err != nil || result.Status != c.status || result.Reason != c.reason || result.Event != nil {
				t.Fatalf("got %+v %v, want %d %s", result, err, c.status, c.reason)
			}
		})
	}
}

func TestParseWebhookEventPingAndFailed(t *testing.T) {
	ping, err := ParseWebhookEvent([]byte(`{"schema_version":"1","event_id":"0d9f7c4e-8a51-4a39-9f0e-6c2b1a7d3e56","event_type":"webhook.ping","occurred_at":"2026-01-02T03:04:05Z","data":{"endpoint_id":"whe_1","message":""}}`))
	if err != nil || ping.Ping == nil || ping.Ping.EndpointID != "whe_1" || ping.Transaction != nil {
		t.Fatalf("ping: %+v %v", ping, err)
	}
	failed, err := ParseWebhookEvent([]byte(`{"schema_version":"1","event_id":"0d9f7c4e-8a51-4a39-9f0e-6c2b1a7d3e57","event_type":"transaction.failed","occurred_at":"2026-01-02T03:04:05Z","data":{"transaction_id":"txn_2","instruction_id":"ins_2","status":"failed","result":null,"error":{"reason":"refused","code":"AC03","partnerStatus":""}}}`))
	if err != nil || failed.Transaction.Error == nil || failed.Transaction.Error.Code != "AC03" {
		t.Fatalf("failed: %+v %v", failed, err)
	}
	_, err = ParseWebhookEvent([]byte(`{"schema_version":"1","event_id":"not-a-uuid","event_type":"webhook.ping","occurred_at":"2026-01-02T03:04:05Z","data":{}}`))
	var eventError *EventError
	if !errors.As(err, &eventError) || eventError.Reason != ReasonInvalidEnvelope {
		t.Fatalf("bad event id: %v", err)
	}
}

func TestWebhookHandlerAnswersAndForgetsOnFailure(t *testing.T) {
	dedupe := NewMemoryDeduplicator(0, 0)
	calls := 0
	handler := WebhookHandler(ReceiveOptions{Secrets: []string{testSecret}, Dedupe: dedupe, Now: receiveAt},
		func(context.Context, *WebhookEvent) error {
			calls++
			if calls == 1 {
				return errors.New("database down")
			}
			return nil
		})
	deliver := func() int {
		req := httptest.NewRequest(http.MethodPost, "/hook", strings.NewReader(completedEvt))
		req.Header = signedHeader(t, completedEvt)
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		return rec.Code
	}
	if code := deliver(); code != 500 {
		t.Fatalf("failing handler answered %d", code)
	}
	if code := deliver(); code != 200 || calls != 2 {
		t.Fatalf("retry after a failure answered %d with %d calls (the id must have been forgotten)", code, calls)
	}
	if code := deliver(); code != 200 || calls != 2 {
		t.Fatalf("duplicate answered %d with %d calls", code, calls)
	}
}

func TestMemoryDeduplicatorExpiresAndIsBounded(t *testing.T) {
	clock := time.Unix(0, 0)
	dedupe := NewMemoryDeduplicator(time.Minute, 2)
	dedupe.now = func() time.Time { return clock }
	ctx := context.Background()
	for _, id := range []string{"a", "b", "c"} {
		if first, _ := dedupe.FirstSeen(ctx, id); !first {
			t.Fatalf("%s not new", id)
		}
	}
	if dedupe.Len() != 2 {
		t.Fatalf("kept %d ids, max 2", dedupe.Len())
	}
	if first, _ := dedupe.FirstSeen(ctx, "a"); !first {
		t.Error("the oldest id was not dropped at the bound")
	}
	if first, _ := dedupe.FirstSeen(ctx, "c"); first {
		t.Error("a recorded id read as new")
	}
	clock = clock.Add(2 * time.Minute)
	if first, _ := dedupe.FirstSeen(ctx, "c"); !first {
		t.Error("an expired id still recorded")
	}
	if _, err := dedupe.FirstSeen(ctx, ""); err == nil {
		t.Error("an empty id accepted")
	}
}
