package qrpayout

// The event envelope and its data (docs/api/webhooks.md "The event"). Parse only a verified body.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"time"

	"github.com/qr-payout/qr-payout/sdk/go/api"
)

// The event types this version knows.
const (
	EventTransactionCompleted = "transaction.completed"
	EventTransactionFailed    = "transaction.failed"
	// EventWebhookPing is an operator's test event: answer 2xx, nothing to process.
	EventWebhookPing = "webhook.ping"
)

// Why a verified body is not an event this version processes.
const (
	ReasonInvalidJSON              = "invalid_json"
	ReasonInvalidEnvelope          = "invalid_envelope"
	ReasonUnsupportedSchemaVersion = "unsupported_schema_version"
	// ReasonUnknownEventType is a valid envelope of a type this version does not know (an endpoint
	// subscribed to ["*"] receives future types too): acknowledge it with 2xx.
	ReasonUnknownEventType = "unknown_event_type"
)

// WebhookEvent is a parsed, checked event. Exactly one of Transaction (transaction.completed and
// transaction.failed) and Ping (webhook.ping) is set.
type WebhookEvent struct {
	SchemaVersion string
	// EventID is unique per event: deduplicate on it.
	EventID    string
	EventType  string
	OccurredAt time.Time
	// Data is the event's data as sent, fields beyond those documented included.
	Data        json.RawMessage
	Transaction *TransactionEventData
	Ping        *PingEventData
}

// TransactionEventData is the data of transaction.completed (Result set, Error nil) and
// transaction.failed (Error set, Result nil).
type TransactionEventData struct {
	TransactionID string                 `json:"transaction_id"`
	InstructionID string                 `json:"instruction_id"`
	Status        string                 `json:"status"`
	Result        *api.TransactionResult `json:"result"`
	Error         *api.TransactionError  `json:"error"`
}

// PingEventData is the data of webhook.ping.
type PingEventData struct {
	EndpointID string `json:"endpoint_id"`
	Message    string `json:"message"`
}

// EventError is a verified body that is not an event to process; Reason is one of ReasonInvalidJSON,
// ReasonInvalidEnvelope, ReasonUnsupportedSchemaVersion, ReasonUnknownEventType (then EventID and
// EventType are set). Detail never contains body values.
type EventError struct {
	Reason    string
	Detail    string
	EventID   string
	EventType string
}

func (e *EventError) Error() string { return "qrpayout: webhook event: " + e.Reason + ": " + e.Detail }

var (
	uuidPattern   = regexp.MustCompile(`^(?i)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	isoUTCPattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$`)
)

func invalid(format string, args ...any) *EventError {
	return &EventError{Reason: ReasonInvalidEnvelope, Detail: fmt.Sprintf(format, args...)}
}

// ParseWebhookEvent parses a verified body and checks the envelope and the data of the known types.
func ParseWebhookEvent(rawBody []byte) (*WebhookEvent, error) {
	var envelope map[string]json.RawMessage
	if err := json.Unmarshal(rawBody, &envelope); err != nil {
		var anything any
		if json.Unmarshal(rawBody, &anything) != nil {
			return nil, &EventError{Reason: ReasonInvalidJSON, Detail: "body is not JSON"}
		}
		return nil, invalid("body is not an object")
	}
	var version any
	_ = json.Unmarshal(envelope["schema_version"], &version)
	if version != "1" {
		return nil, &EventError{Reason: ReasonUnsupportedSchemaVersion, Detail: "schema_version is not \"1\""}
	}
	event := &WebhookEvent{SchemaVersion: "1"}
	var err error
	if event.EventID, err = nonEmptyString(envelope, "", "event_id"); err != nil {
		return nil, err
	}
	if !uuidPattern.MatchString(event.EventID) {
		return nil, invalid("event_id is not a UUID")
	}
	if event.EventType, err = nonEmptyString(envelope, "", "event_type"); err != nil {
		return nil, err
	}
	occurredAt, err := nonEmptyString(envelope, "", "occurred_at")
	if err != nil {
		return nil, err
	}
	if event.OccurredAt, err = time.Parse(time.RFC3339Nano, occurredAt); err != nil || !isoUTCPattern.MatchString(occurredAt) {
		return nil, invalid("occurred_at is not an ISO 8601 UTC timestamp")
	}
	event.Data = envelope["data"]
	if len(bytes.TrimSpace(event.Data)) == 0 || bytes.TrimSpace(event.Data)[0] != '{' {
		return nil, invalid("data is not an object")
	}
	switch event.EventType {
	case EventTransactionCompleted, EventTransactionFailed:
		event.Transaction, err = parseTransactionData(event.Data, event.EventType)
	case EventWebhookPing:
		event.Ping, err = parsePingData(event.Data)
	default:
		return nil, &EventError{Reason: ReasonUnknownEventType, Detail: "event_type is not known to this version",
			EventID: event.EventID, EventType: event.EventType}
	}
	if err != nil {
		return nil, err
	}
	return event, nil
}

func parseTransactionData(raw json.RawMessage, eventType string) (*TransactionEventData, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, invalid("data is not an object")
	}
	for _, key := range []string{"transaction_id", "instruction_id"} {
		if _, err := nonEmptyString(fields, "data.", key); err != nil {
			return nil, err
		}
	}
	var data TransactionEventData
	if err := json.Unmarshal(raw, &data); err != nil {
		return nil, invalid("data does not match the %s event", eventType)
	}
	completed := eventType == EventTransactionCompleted
	want := map[bool]string{true: "completed", false: "failed"}[completed]
	if data.Status != want {
		return nil, invalid("data.status is not %q", want)
	}
	if completed && (data.Result == nil || data.Error != nil) {
		return nil, invalid("a transaction.completed event needs data.result set and data.error null")
	}
	if !completed && (data.Error == nil || data.Result != nil) {
		return nil, invalid("a transaction.failed event needs data.error set and data.result null")
	}
	return &data, nil
}

func parsePingData(raw json.RawMessage) (*PingEventData, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, invalid("data is not an object")
	}
	if _, err := nonEmptyString(fields, "data.", "endpoint_id"); err != nil {
		return nil, err
	}
	var data PingEventData
	if err := json.Unmarshal(raw, &data); err != nil {
		return nil, invalid("data.message is not a string")
	}
	return &data, nil
}

// nonEmptyString reads fields[key] as a non-empty string; prefix names where it is ("data.").
func nonEmptyString(fields map[string]json.RawMessage, prefix, key string) (string, error) {
	var value string
	if json.Unmarshal(fields[key], &value) != nil || value == "" {
		return "", invalid("%s%s is not a non-empty string", prefix, key)
	}
	return value, nil
}
