package qrpayout

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/qr-payout/qr-payout/sdk/go/api"
)

// recorded is one request the test server saw.
type recorded struct {
	method, path, idempotencyKey, apiKey, body string
}

// answer is what the test server replies to one request, in order; past the list, 200 with ok.
type answer struct {
	status  int
	body    string
	headers map[string]string
	hangUp  bool // close the connection without answering (a network error)
}

func serve(t *testing.T, answers []answer, ok string) (*httptest.Server, func() []recorded) {
	t.Helper()
	var mu sync.Mutex
	var seen []recorded
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		n := len(seen)
		seen = append(seen, recorded{r.Method, r.URL.Path, r.Header.Get("Idempotency-Key"), r.Header.Get("x-api-key"), string(body)})
		mu.Unlock()
		if n < len(answers) {
			a := answers[n]
			if a.hangUp {
				conn, _, _ := w.(http.Hijacker).Hijack()
				conn.Close()
				return
			}
			for name, value := range a.headers {
				w.Header().Set(name, value)
			}
			w.WriteHeader(a.status)
			_, _ = io.WriteString(w, a.body)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, ok)
	}))
	t.Cleanup(server.Close)
	return server, func() []recorded {
		mu.Lock()
		defer mu.Unlock()
		return append([]recorded(nil), seen...)
	}
}

func errorBody(tag, message string) string {
	b, _ := json.Marshal(map[string]any{"_tag": tag, "type": tag, "message": message,
		"docs_url": "http://localhost/docs/errors#" + tag, "request_id": "6b2f3f0e-2d7c-4a5e-9a43-6f1f8c1d2e3a"})
	return string(b)
}

const payOK = `{"request_id":"6b2f3f0e-2d7c-4a5e-9a43-6f1f8c1d2e3a","instruction":{"id":"ins_1"},"transaction":{"id":"txn_1","status":"completed"}}`

var payBody = api.PayRequest{QrString: "000201", PayerName: "Juan Perez", PayerAccount: "0001-1234567", PayerTaxId: "20-12345678-6"}

// newTestClient retries without waiting, and records each retry.
func newTestClient(t *testing.T, baseURL string, policy RetryPolicy) (*Client, *[]RetryInfo) {
	t.Helper()
	var retries []RetryInfo
	// A new connection per request: net/http itself resends, once, a request with an
	// Idempotency-Key whose reused connection was closed, which would hide the hang-up answers.
	noReuse := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	client, err := NewClient(Options{BaseURL: baseURL, APIKey: "sk_test_key_0123456789", Retry: policy, HTTPClient: noReuse,
		OnRetry: func(info RetryInfo) { retries = append(retries, info) }})
	if err != nil {
		t.Fatal(err)
	}
	client.raw.Client.(*retryingDoer).sleep = func(context.Context, time.Duration) error { return nil }
	return client, &retries
}

func TestPayRetries429And503AndNetworkErrorsWithOneKey(t *testing.T) {
	server, seen := serve(t, []answer{
		{status: 429, body: errorBody("RateLimitError", "slow down"), headers: map[string]string{"Retry-After": "1"}},
		{status: 503, body: errorBody("ServiceUnavailable", "busy")},
		{hangUp: true},
		{status: 409, body: errorBody("IdempotencyInProgress", "still running")},
	}, payOK)
	client, retries := newTestClient(t, server.URL, RetryPolicy{MaxAttempts: 5})
	res, err := client.Pay(context.Background(), payBody)
	if err != nil {
		t.Fatal(err)
	}
	if res.Transaction.Id != "txn_1" {
		t.Errorf("transaction %q", res.Transaction.Id)
	}
	requests := seen()
	if len(requests) != 5 {
		t.Fatalf("%d requests, want 5", len(requests))
	}
	for _, r := range requests {
		if r.idempotencyKey != requests[0].idempotencyKey || r.body != requests[0].body || r.apiKey != "sk_test_key_0123456789" {
			t.Errorf("attempt differs from the first: %+v vs %+v", r, requests[0])
		}
	}
	if len(requests[0].idempotencyKey) != 36 {
		t.Errorf("generated key %q is not a UUID", requests[0].idempotencyKey)
	}
	tags := []string{}
	for _, info := range *retries {
		tags = append(tags, info.Tag)
	}
	want := []string{"RateLimitError", "ServiceUnavailable", tagNetworkError, "IdempotencyInProgress"}
	if len(tags) != len(want) {
		t.Fatalf("retried on %v, want %v", tags, want)
	}
	for i := range want {
		if tags[i] != want[i] {
			t.Fatalf("retried on %v, want %v", tags, want)
		}
	}
	if (*retries)[0].Delay != time.Second {
		t.Errorf("Retry-After 1 gave a delay of %v", (*retries)[0].Delay)
	}
}

func TestEachPayCallGetsItsOwnKeyUnlessGiven(t *testing.T) {
	server, seen := serve(t, nil, payOK)
	client, _ := newTestClient(t, server.URL, RetryPolicy{})
	for _, options := range [][]CallOption{nil, nil, {WithIdempotencyKey("order-42")}} {
		if _, err := client.Pay(context.Background(), payBody, options...); err != nil {
			t.Fatal(err)
		}
	}
	requests := seen()
	if requests[0].idempotencyKey == requests[1].idempotencyKey {
		t.Error("two calls shared a generated key")
	}
	if requests[2].idempotencyKey != "order-42" {
		t.Errorf("given key sent as %q", requests[2].idempotencyKey)
	}
}

func TestErrorCarriesTheErrorBodyAfterRetriesAreSpent(t *testing.T) {
	rateLimited := answer{status: 429, headers: map[string]string{"Retry-After": "0"},
		body: `{"_tag":"RateLimitError","type":"RateLimitError","message":"Too many requests","docs_url":"http://x/docs/errors#RateLimitError","request_id":"6b2f3f0e-2d7c-4a5e-9a43-6f1f8c1d2e3a","retryAfter":7}`}
	server, seen := serve(t, []answer{rateLimited, rateLimited, rateLimited}, payOK)
	client, _ := newTestClient(t, server.URL, RetryPolicy{MaxAttempts: 2})
	_, err := client.GetTransaction(context.Background(), "txn_1")
	var apiErr *Error
	if !errors.As(err, &apiErr) {
		t.Fatalf("got %v, want *Error", err)
	}
	if apiErr.Status != 429 || apiErr.Tag != "RateLimitError" || apiErr.Message != "Too many requests" ||
		apiErr.RetryAfter != 7 || apiErr.Attempts != 2 || apiErr.RequestID != "6b2f3f0e-2d7c-4a5e-9a43-6f1f8c1d2e3a" ||
		apiErr.DocsURL != "http://x/docs/errors#RateLimitError" || apiErr.Body == nil {
		t.Errorf("error %+v", apiErr)
	}
	if len(seen()) != 2 {
		t.Errorf("%d requests, want 2 (MaxAttempts)", len(seen()))
	}
}

func TestNotRetried(t *testing.T) {
	for name, a := range map[string]answer{
		"422 refusal":                {status: 422, body: errorBody("QrDecodeError", "bad QR")},
		"409 other than in-progress": {status: 409, body: errorBody("IdempotencyConflict", "other body")},
		"429 asking too long":        {status: 429, body: errorBody("RateLimitError", "wait"), headers: map[string]string{"Retry-After": "3600"}},
		"proxy page":                 {status: 502, body: "<html>bad gateway</html>"},
	} {
		t.Run(name, func(t *testing.T) {
			server, seen := serve(t, []answer{a}, payOK)
			client, _ := newTestClient(t, server.URL, RetryPolicy{})
			_, err := client.Pay(context.Background(), payBody)
			var apiErr *Error
			if !errors.As(err, &apiErr) || apiErr.Status != a.status || apiErr.Attempts != 1 {
				t.Fatalf("got %v", err)
			}
			if len(seen()) != 1 {
				t.Errorf("sent %d times", len(seen()))
			}
			if a.status == 502 && (apiErr.Tag != "HttpError" || apiErr.Body != nil) {
				t.Errorf("a non-API body gave tag %q body %v", apiErr.Tag, apiErr.Body)
			}
		})
	}
}

func TestServerDelayAndBackoff(t *testing.T) {
	now := time.Unix(1700000000, 0)
	reset := http.Header{"X-Ratelimit-Reset": {strconv.FormatInt(now.Unix()+5, 10)}}
	if d, asked := serverDelay(429, reset, now); !asked || d != 5*time.Second {
		t.Errorf("x-ratelimit-reset on 429: %v %v", d, asked)
	}
	if _, asked := serverDelay(503, reset, now); asked {
		t.Error("x-ratelimit-reset read on a 503")
	}
	if _, asked := serverDelay(503, http.Header{"Retry-After": {"soon"}}, now); asked {
		t.Error("a non-numeric Retry-After was read")
	}
	policy := RetryPolicy{BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second}
	if d := backoffDelay(3, policy, func() float64 { return 1 }); d != 400*time.Millisecond {
		t.Errorf("third backoff ceiling %v", d)
	}
	if d := backoffDelay(10, policy, func() float64 { return 1 }); d != time.Second {
		t.Errorf("capped backoff %v", d)
	}
}

func TestNewClientNeedsURLAndKey(t *testing.T) {
	if _, err := NewClient(Options{APIKey: "k"}); err == nil {
		t.Error("no BaseURL accepted")
	}
	if _, err := NewClient(Options{BaseURL: "http://x"}); err == nil {
		t.Error("no APIKey accepted")
	}
}

func TestCancelledContextStopsRetrying(t *testing.T) {
	server, seen := serve(t, []answer{
		{status: 503, body: errorBody("ServiceUnavailable", "busy"), headers: map[string]string{"Retry-After": "5"}},
	}, payOK)
	ctx, cancel := context.WithCancel(context.Background())
	client, err := NewClient(Options{BaseURL: server.URL, APIKey: "sk_test_key_0123456789",
		OnRetry: func(RetryInfo) { cancel() }})
	if err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	_, err = client.ListSchemes(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if len(seen()) != 1 || time.Since(started) > 4*time.Second {
		t.Errorf("%d requests in %v: the wait was not cut short", len(seen()), time.Since(started))
	}
}

func TestCallHeadersAreSent(t *testing.T) {
	var got http.Header
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		_, _ = io.WriteString(w, `{"schemes":[],"request_id":"6b2f3f0e-2d7c-4a5e-9a43-6f1f8c1d2e3a"}`)
	}))
	t.Cleanup(server.Close)
	client, _ := newTestClient(t, server.URL, RetryPolicy{})
	if _, err := client.ListSchemes(context.Background(), WithHeader("X-Trace", "abc")); err != nil {
		t.Fatal(err)
	}
	if got.Get("X-Trace") != "abc" || got.Get("X-Api-Key") != "sk_test_key_0123456789" || got.Get("Idempotency-Key") != "" {
		t.Errorf("headers %v", got)
	}
}
