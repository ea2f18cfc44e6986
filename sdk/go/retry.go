package qrpayout

// Retries (docs/api/errors.md "The error body", docs/api/rate-limits.md "Per key",
// docs/api/idempotency.md "The Idempotency-Key"): the answers the API says to send again are
// 409 IdempotencyInProgress, 429 and 503; a request that got no answer (a network error) is sent
// again too. The same *http.Request is resent, so the Idempotency-Key set for the call is the same
// on every attempt and a payment happens at most once.

import (
	"bytes"
	"context"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/qr-payout/qr-payout/sdk/go/api"
)

// RetryPolicy says how often and how long to retry.
type RetryPolicy struct {
	// MaxAttempts is the attempts in all, the first included (1: never retry). Default 4.
	MaxAttempts int
	// BaseDelay is the first backoff delay, doubled per attempt, with full jitter. Default 250 ms.
	BaseDelay time.Duration
	// MaxDelay is the longest wait between attempts; a server asking for longer (Retry-After)
	// gets its error returned at once. Default 30 s.
	MaxDelay time.Duration
}

// DefaultRetryPolicy is the policy of a client whose options set none.
var DefaultRetryPolicy = RetryPolicy{MaxAttempts: 4, BaseDelay: 250 * time.Millisecond, MaxDelay: 30 * time.Second}

// RetryInfo is what Options.OnRetry sees before each retry.
type RetryInfo struct {
	// Attempt is the attempt that failed (1 for the first).
	Attempt int
	// Status is the answer's HTTP status; 0 for a network error.
	Status int
	// Tag is the error body's `_tag`, "HttpError" without one, "NetworkError" for a network error.
	Tag   string
	Delay time.Duration
	URL   string
	// Err is the network error, when there was no answer.
	Err error
}

const tagNetworkError = "NetworkError"

// maxErrorBodyBytes caps how much of an error answer is read to decide on a retry.
const maxErrorBodyBytes = 1 << 20

// retryingDoer is the HttpRequestDoer the generated client sends every request through.
type retryingDoer struct {
	next    api.HttpRequestDoer
	policy  RetryPolicy
	onRetry func(RetryInfo)
	sleep   func(ctx context.Context, d time.Duration) error
	now     func() time.Time
	random  func() float64
}

// attemptsKey marks the context of one call: the doer counts that call's attempts there.
type attemptsKey struct{}

func withAttemptCounter(ctx context.Context) (context.Context, *int) {
	n := new(int)
	return context.WithValue(ctx, attemptsKey{}, n), n
}

func (d *retryingDoer) Do(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	counter, _ := ctx.Value(attemptsKey{}).(*int)
	maxAttempts := max(1, d.policy.MaxAttempts)
	for attempt := 1; ; attempt++ {
		if counter != nil {
			*counter = attempt
		}
		if attempt > 1 && req.GetBody != nil {
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			req.Body = body
		}
		res, err := d.next.Do(req)
		var info RetryInfo
		if err != nil {
			if ctx.Err() != nil || attempt >= maxAttempts || (req.Body != nil && req.GetBody == nil) {
				return nil, err
			}
			info = RetryInfo{Attempt: attempt, Tag: tagNetworkError, Delay: backoffDelay(attempt, d.policy, d.random), Err: err}
		} else {
			if res.StatusCode < 400 || attempt >= maxAttempts {
				return res, nil
			}
			raw, readErr := io.ReadAll(io.LimitReader(res.Body, maxErrorBodyBytes))
			res.Body.Close()
			res.Body = io.NopCloser(bytes.NewReader(raw))
			if readErr != nil {
				return res, nil
			}
			body := parseErrorBody(raw)
			if !isRetryable(res.StatusCode, body) {
				return res, nil
			}
			delay, asked := serverDelay(res.StatusCode, res.Header, d.now())
			if asked && delay > d.policy.MaxDelay {
				return res, nil
			}
			if !asked {
				delay = backoffDelay(attempt, d.policy, d.random)
			}
			tag := errorTagHTTP
			if body != nil {
				tag = string(body.UnderscoreTag)
			}
			info = RetryInfo{Attempt: attempt, Status: res.StatusCode, Tag: tag, Delay: delay}
		}
		info.URL = req.URL.String()
		if d.onRetry != nil {
			d.onRetry(info)
		}
		if err := d.sleep(ctx, info.Delay); err != nil {
			return nil, err
		}
	}
}

// isRetryable: 429, 503, and 409 IdempotencyInProgress (the same key's first request still runs).
func isRetryable(status int, body *api.ErrorBody) bool {
	if status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable {
		return true
	}
	return status == http.StatusConflict && body != nil && body.UnderscoreTag == "IdempotencyInProgress"
}

// serverDelay is how long the server asks us to wait: `retry-after` (seconds), else on 429 until
// the window's end `x-ratelimit-reset` (Unix seconds); asked is false when it says nothing.
func serverDelay(status int, header http.Header, now time.Time) (delay time.Duration, asked bool) {
	if seconds, ok := digits(header.Get("Retry-After")); ok {
		return time.Duration(seconds) * time.Second, true
	}
	if reset, ok := digits(header.Get("X-Ratelimit-Reset")); ok && status == http.StatusTooManyRequests {
		return max(0, time.Unix(reset, 0).Sub(now)), true
	}
	return 0, false
}

func digits(value string) (int64, bool) {
	value = strings.TrimSpace(value)
	if value == "" || strings.TrimLeft(value, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(value, 10, 64)
	return n, err == nil
}

// backoffDelay is exponential backoff with full jitter: random in [0, base·2^(attempt−1)], capped.
func backoffDelay(attempt int, policy RetryPolicy, random func() float64) time.Duration {
	ceiling := math.Min(float64(policy.MaxDelay), float64(policy.BaseDelay)*math.Pow(2, float64(attempt-1)))
	return time.Duration(math.Round(random() * ceiling))
}

func sleepContext(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

var defaultRandom = rand.Float64
