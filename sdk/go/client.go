// Package qrpayout is the Go client of the QR Payout API: the operations and types generated from
// the OpenAPI document (package api, never edited by hand) and, in this package, what every caller
// needs over them: the API key, an Idempotency-Key on pay and execute, retries on the answers that
// say to retry, one error type (*Error), and webhook verification (VerifyWebhookSignature,
// ReceiveWebhook). sdk/go/README.md shows it in use.
package qrpayout

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/qr-payout/qr-payout/sdk/go/api"
)

// Options configure a Client.
type Options struct {
	// BaseURL is the API's base URL, e.g. http://127.0.0.1:8080 for the sandbox.
	BaseURL string
	// APIKey is your x-api-key.
	APIKey string
	// Retry overrides DefaultRetryPolicy; its zero fields keep the default. MaxAttempts 1 turns
	// retries off.
	Retry RetryPolicy
	// HTTPClient sends the requests (default: an http.Client with a 60 s timeout per attempt).
	HTTPClient api.HttpRequestDoer
	// OnRetry is called before each retry, e.g. to log it.
	OnRetry func(RetryInfo)
}

// Client calls the API with one key. Safe for concurrent use.
type Client struct {
	raw *api.Client
}

// NewClient makes a Client; it fails when BaseURL or APIKey is missing.
func NewClient(options Options) (*Client, error) {
	if options.BaseURL == "" {
		return nil, errors.New("qrpayout: Options.BaseURL is required")
	}
	if options.APIKey == "" {
		return nil, errors.New("qrpayout: Options.APIKey is required")
	}
	httpClient := options.HTTPClient
	if httpClient == nil {
		httpClient = &http.Client{Timeout: 60 * time.Second}
	}
	doer := &retryingDoer{
		next:    httpClient,
		policy:  withDefaults(options.Retry),
		onRetry: options.OnRetry,
		sleep:   sleepContext,
		now:     time.Now,
		random:  defaultRandom,
	}
	apiKey := options.APIKey
	raw, err := api.NewClient(options.BaseURL,
		api.WithHTTPClient(doer),
		api.WithRequestEditorFn(func(_ context.Context, req *http.Request) error {
			req.Header.Set("x-api-key", apiKey)
			req.Header.Set("Accept", "application/json")
			return nil
		}))
	if err != nil {
		return nil, fmt.Errorf("qrpayout: %w", err)
	}
	return &Client{raw: raw}, nil
}

func withDefaults(policy RetryPolicy) RetryPolicy {
	if policy.MaxAttempts == 0 {
		policy.MaxAttempts = DefaultRetryPolicy.MaxAttempts
	}
	if policy.BaseDelay == 0 {
		policy.BaseDelay = DefaultRetryPolicy.BaseDelay
	}
	if policy.MaxDelay == 0 {
		policy.MaxDelay = DefaultRetryPolicy.MaxDelay
	}
	return policy
}

// Raw is the generated client, with this client's key and retries: for any operation of the
// document without a method here.
func (c *Client) Raw() *api.Client { return c.raw }

// CallOption changes one call.
type CallOption func(*callOptions)

type callOptions struct {
	idempotencyKey string
	headers        http.Header
}

// WithIdempotencyKey sets the Idempotency-Key of Pay or Execute (default: a new UUID per call).
// Use your own, e.g. your order id, so a retry after your own crash is recognised
// (docs/api/idempotency.md "The Idempotency-Key").
func WithIdempotencyKey(key string) CallOption {
	return func(o *callOptions) { o.idempotencyKey = key }
}

// WithHeader adds a header to the call.
func WithHeader(name, value string) CallOption {
	return func(o *callOptions) {
		if o.headers == nil {
			o.headers = http.Header{}
		}
		o.headers.Add(name, value)
	}
}

func collect(options []CallOption) callOptions {
	var o callOptions
	for _, option := range options {
		option(&o)
	}
	return o
}

func (o callOptions) editor() api.RequestEditorFn {
	return func(_ context.Context, req *http.Request) error {
		for name, values := range o.headers {
			for _, value := range values {
				req.Header.Add(name, value)
			}
		}
		return nil
	}
}

// paymentKey is the call's Idempotency-Key: the caller's, else a new UUID for this call (and only
// this call: its retries resend the same request, so they carry the same key).
func (o callOptions) paymentKey() string {
	if o.idempotencyKey != "" {
		return o.idempotencyKey
	}
	return uuid.NewString()
}

// call sends one operation and returns its 2xx body decoded as T, or an *Error.
func call[T any](ctx context.Context, what string, send func(ctx context.Context) (*http.Response, error)) (*T, error) {
	ctx, attempts := withAttemptCounter(ctx)
	res, err := send(ctx)
	if err != nil {
		return nil, fmt.Errorf("qrpayout: %s: %w", what, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, fmt.Errorf("qrpayout: %s: reading the answer: %w", what, err)
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return nil, newError(res.StatusCode, raw, *attempts, fmt.Sprintf("HTTP %d from %s", res.StatusCode, what))
	}
	var out T
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("qrpayout: %s: decoding the answer: %w", what, err)
	}
	return &out, nil
}
