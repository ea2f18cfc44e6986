package qrpayout

import (
	"encoding/json"
	"fmt"

	"github.com/qr-payout/qr-payout/sdk/go/api"
)

// Error is every non-2xx answer of the API once retries are spent: the HTTP status and the error
// body of docs/api/errors.md "The error body" (`_tag`, `message`, `docs_url`, `request_id`, and
// `retryAfter` / `transaction_id` where the error declares them). An answer that is not such a body
// (a proxy's HTML page) leaves Body nil and takes the tag "HttpError". Match it with errors.As.
type Error struct {
	// Status is the HTTP status.
	Status int
	// Tag is the body's `_tag` (e.g. "ValidationError", "RateLimitError"), or "HttpError".
	Tag string
	// Message is the body's `message`, or a fallback naming the status and the request.
	Message string
	// DocsURL is where the error is described.
	DocsURL string
	// RequestID is the answer's request id, to quote to support.
	RequestID string
	// RetryAfter is the seconds to wait, on a 429 RateLimitError (0 otherwise).
	RetryAfter int
	// TransactionID is the transaction concerned, on the errors that name one
	// (InstructionAlreadyExecuted, ChargeAlreadyPaid).
	TransactionID string
	// Attempts is how many times the request was sent (more than 1 after retries).
	Attempts int
	// Body is the error body as the document types it; nil when the answer was not one.
	Body *api.ErrorBody
}

func (e *Error) Error() string {
	return fmt.Sprintf("qrpayout: %d %s: %s", e.Status, e.Tag, e.Message)
}

// errorTagHTTP is the tag of an error answer whose body is not the API's error body.
const errorTagHTTP = "HttpError"

// parseErrorBody reads an error body: nil unless it is JSON with a string `_tag` and `message`.
func parseErrorBody(raw []byte) *api.ErrorBody {
	var shape struct {
		Tag     *string `json:"_tag"`
		Message *string `json:"message"`
	}
	if json.Unmarshal(raw, &shape) != nil || shape.Tag == nil || shape.Message == nil {
		return nil
	}
	var body api.ErrorBody
	if json.Unmarshal(raw, &body) != nil {
		// A future field of another type must not hide the error: keep what is certain.
		body = api.ErrorBody{UnderscoreTag: api.ErrorTag(*shape.Tag), Message: *shape.Message}
	}
	return &body
}

func newError(status int, raw []byte, attempts int, fallbackMessage string) *Error {
	body := parseErrorBody(raw)
	e := &Error{Status: status, Tag: errorTagHTTP, Message: fallbackMessage, Attempts: attempts, Body: body}
	if body == nil {
		return e
	}
	e.Tag = string(body.UnderscoreTag)
	e.Message = body.Message
	e.DocsURL = body.DocsUrl
	if body.RequestId.String() != "00000000-0000-0000-0000-000000000000" {
		e.RequestID = body.RequestId.String()
	}
	if body.RetryAfter != nil {
		e.RetryAfter = *body.RetryAfter
	}
	if body.TransactionId != nil {
		e.TransactionID = *body.TransactionId
	}
	return e
}
