package qrpayout

// The `Service-Signature` header (docs/api/webhooks.md "The signature"):
//   t=<unix seconds>,v1=<lowercase hex HMAC-SHA256(secret, "<t>.<raw body>")>
// The key is the whole signing secret as UTF-8 text, `whsec_` prefix included. During a secret
// rotation the header carries one v1 per live secret: a verifier accepts when any v1 matches any of
// its secrets. Other schemes (a future `v2=`) are ignored. Its test vectors, shared by every signer
// and verifier of the repository: webhook-receiver/signature-vectors.json.

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// SignatureHeader is the header the signature comes in.
const SignatureHeader = "Service-Signature"

// DefaultTolerance is the largest |now − t| accepted when VerifyOptions sets none.
const DefaultTolerance = 300 * time.Second

// maxSignatureHeaderLength: a longer header is refused as malformed before any work is done on it.
const maxSignatureHeaderLength = 8192

// Why a signature did not verify: the reasons of the shared vectors and of the TypeScript receiver.
const (
	ReasonMissingHeader           = "missing_header"
	ReasonMalformedHeader         = "malformed_header"
	ReasonTimestampOutOfTolerance = "timestamp_out_of_tolerance"
	ReasonNoMatchingSignature     = "no_matching_signature"
)

// SignatureError is a header that does not verify; Reason is one of the Reason* constants.
type SignatureError struct{ Reason string }

func (e *SignatureError) Error() string { return "qrpayout: webhook signature: " + e.Reason }

// ErrNoSecret is a misuse: verifying or signing without a non-empty secret.
var ErrNoSecret = errors.New("qrpayout: at least one non-empty signing secret is required")

// VerifyOptions tune VerifyWebhookSignature.
type VerifyOptions struct {
	// Tolerance is the largest |now − t| accepted; 0 means DefaultTolerance.
	Tolerance time.Duration
	// Now is the receiver's clock (tests); the zero time means time.Now().
	Now time.Time
}

var timestampDigits = regexp.MustCompile(`^[0-9]{1,15}$`)

// VerifyWebhookSignature checks a Service-Signature header against the exact raw body: it parses
// `t` and the v1 values, refuses a timestamp outside the tolerance (either direction), recomputes
// the HMAC for every secret (current first while you rotate) and compares each v1 in constant
// time. It returns the signed timestamp, or a *SignatureError; ErrNoSecret on misuse.
func VerifyWebhookSignature(header string, rawBody []byte, secrets []string, options VerifyOptions) (time.Time, error) {
	if err := checkSecrets(secrets); err != nil {
		return time.Time{}, err
	}
	if header == "" {
		return time.Time{}, &SignatureError{Reason: ReasonMissingHeader}
	}
	t, candidates, ok := parseSignatureHeader(header)
	if !ok {
		return time.Time{}, &SignatureError{Reason: ReasonMalformedHeader}
	}
	seconds, _ := strconv.ParseInt(t, 10, 64)
	tolerance := options.Tolerance
	if tolerance == 0 {
		tolerance = DefaultTolerance
	}
	now := options.Now
	if now.IsZero() {
		now = time.Now()
	}
	age := now.Unix() - seconds
	if age > int64(tolerance/time.Second) || -age > int64(tolerance/time.Second) {
		return time.Time{}, &SignatureError{Reason: ReasonTimestampOutOfTolerance}
	}
	matched := false
	for _, secret := range secrets {
		// The digits of t exactly as sent: they are what the sender signed.
		expected := []byte(signatureHex(secret, t, rawBody))
		// Every candidate is compared (no early exit), so timing tells nothing about which matched.
		for _, candidate := range candidates {
			if hmac.Equal([]byte(candidate), expected) {
				matched = true
			}
		}
	}
	if !matched {
		return time.Time{}, &SignatureError{Reason: ReasonNoMatchingSignature}
	}
	return time.Unix(seconds, 0), nil
}

// SignWebhookBody is a TEST HELPER: the Service-Signature value the service would send for rawBody
// at t, one v1 per secret (in order), to build signed requests in your own tests.
func SignWebhookBody(secrets []string, rawBody []byte, t time.Time) (string, error) {
	if err := checkSecrets(secrets); err != nil {
		return "", err
	}
	if t.Unix() < 0 {
		return "", errors.New("qrpayout: the timestamp must not be before 1970")
	}
	ts := strconv.FormatInt(t.Unix(), 10)
	parts := []string{"t=" + ts}
	for _, secret := range secrets {
		parts = append(parts, "v1="+signatureHex(secret, ts, rawBody))
	}
	return strings.Join(parts, ","), nil
}

// parseSignatureHeader: `t` and the v1 values, ok false when malformed: every comma-separated
// element must be `key=value` with a key, exactly one `t` of 1 to 15 digits. Unknown keys are
// ignored; a header without any v1 is well-formed and simply matches nothing.
func parseSignatureHeader(header string) (t string, v1 []string, ok bool) {
	if len(header) > maxSignatureHeaderLength {
		return "", nil, false
	}
	seenT := false
	for _, element := range strings.Split(header, ",") {
		key, value, found := strings.Cut(element, "=")
		if !found {
			return "", nil, false
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		switch key {
		case "":
			return "", nil, false
		case "t":
			if seenT {
				return "", nil, false
			}
			seenT, t = true, value
		case "v1":
			v1 = append(v1, value)
		}
	}
	if !seenT || !timestampDigits.MatchString(t) {
		return "", nil, false
	}
	return t, v1, true
}

func signatureHex(secret, t string, rawBody []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(t + "."))
	mac.Write(rawBody)
	return hex.EncodeToString(mac.Sum(nil))
}

func checkSecrets(secrets []string) error {
	if len(secrets) == 0 {
		return ErrNoSecret
	}
	for _, secret := range secrets {
		if secret == "" {
			return ErrNoSecret
		}
	}
	return nil
}
