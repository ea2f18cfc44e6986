package qrpayout

import (
	"context"
	"errors"
	"io"
	"net/http"
	"time"
)

// ReceiveOptions configure ReceiveWebhook and WebhookHandler.
type ReceiveOptions struct {
	// Secrets is your signing secret, or several (current first) while you rotate yours.
	Secrets []string
	// Tolerance is the largest |now − t| accepted; 0 means DefaultTolerance.
	Tolerance time.Duration
	// Dedupe records event ids; without it every verified event reads as new.
	Dedupe Deduplicator
	// Now is the receiver's clock (tests); the zero time means time.Now().
	Now time.Time
}

// ReceiveResult says what to answer, and the event to process when there is one (Status 200 and
// not Duplicate).
type ReceiveResult struct {
	// Status is 401 (bad signature), 400 (verified, but not a valid event) or 200.
	Status    int
	Event     *WebhookEvent
	Duplicate bool
	// Reason is a SignatureError's or an EventError's reason; ReasonUnknownEventType with Status
	// 200 for a verified event of a type this version does not know (EventID and EventType set).
	Reason    string
	Detail    string
	EventID   string
	EventType string
}

// ReceiveWebhook is one call for a webhook handler: verifies the signature over the raw body
// (401), parses the envelope (400), records the event id in Dedupe (200, Duplicate when seen
// before) and says what to answer. The x-event-id / x-event-type headers are not signed and are not
// used: the signed body is authoritative. It returns an error only when Dedupe fails (answer 5xx:
// the service retries) or on misuse (ErrNoSecret).
func ReceiveWebhook(ctx context.Context, header http.Header, rawBody []byte, options ReceiveOptions) (ReceiveResult, error) {
	// A header sent twice cannot verify (the service sends exactly one): malformed, not "pick one".
	values := header.Values(SignatureHeader)
	signature := ""
	switch len(values) {
	case 0:
	case 1:
		signature = values[0]
	default:
		signature = "\x00"
	}
	_, err := VerifyWebhookSignature(signature, rawBody, options.Secrets, VerifyOptions{Tolerance: options.Tolerance, Now: options.Now})
	var signatureError *SignatureError
	if errors.As(err, &signatureError) {
		return ReceiveResult{Status: http.StatusUnauthorized, Reason: signatureError.Reason}, nil
	}
	if err != nil {
		return ReceiveResult{}, err
	}
	event, err := ParseWebhookEvent(rawBody)
	var eventError *EventError
	if errors.As(err, &eventError) {
		if eventError.Reason == ReasonUnknownEventType {
			// Not recorded: after an upgrade that knows the type, a replay is processed.
			return ReceiveResult{Status: http.StatusOK, Reason: eventError.Reason, Detail: eventError.Detail,
				EventID: eventError.EventID, EventType: eventError.EventType}, nil
		}
		return ReceiveResult{Status: http.StatusBadRequest, Reason: eventError.Reason, Detail: eventError.Detail}, nil
	}
	result := ReceiveResult{Status: http.StatusOK, Event: event, EventID: event.EventID, EventType: event.EventType}
	if options.Dedupe != nil {
		first, err := options.Dedupe.FirstSeen(ctx, event.EventID)
		if err != nil {
			return ReceiveResult{}, err
		}
		result.Duplicate = !first
	}
	return result, nil
}

// MaxWebhookBodyBytes caps the body WebhookHandler reads; a larger one is answered 413.
const MaxWebhookBodyBytes = 1 << 20

// WebhookHandler is a complete receiver: it reads the raw body, runs ReceiveWebhook, calls handle
// for a new event, and answers the result's status. When handle returns an error it forgets the
// event id (Dedupe) and answers 500, so the service retries.
func WebhookHandler(options ReceiveOptions, handle func(ctx context.Context, event *WebhookEvent) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		rawBody, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxWebhookBodyBytes))
		if err != nil {
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			return
		}
		result, err := ReceiveWebhook(r.Context(), r.Header, rawBody, options)
		if err != nil {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		if result.Event != nil && !result.Duplicate {
			if err := handle(r.Context(), result.Event); err != nil {
				if options.Dedupe != nil {
					_ = options.Dedupe.Forget(r.Context(), result.Event.EventID)
				}
				w.WriteHeader(http.StatusInternalServerError)
				return
			}
		}
		w.WriteHeader(result.Status)
	})
}
