package qrpayout

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// signatureVectors is webhook-receiver/signature-vectors.json, the vectors every signer and
// verifier of the scheme runs (docs/api/webhooks.md "The signature").
type signatureVectors struct {
	ToleranceSeconds int `json:"tolerance_seconds"`
	Cases            []struct {
		Name           string   `json:"name"`
		Secret         string   `json:"secret"`
		Body           string   `json:"body"`
		T              int64    `json:"t"`
		Now            int64    `json:"now"`
		SigningSecrets []string `json:"signing_secrets"`
		Header         string   `json:"header"`
		Expected       struct {
			OK     bool   `json:"ok"`
			Reason string `json:"reason"`
		} `json:"expected"`
	} `json:"cases"`
}

func loadSignatureVectors(t *testing.T) signatureVectors {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "webhook-receiver", "signature-vectors.json"))
	if err != nil {
		t.Fatalf("reading the shared vectors: %v", err)
	}
	var vectors signatureVectors
	if err := json.Unmarshal(raw, &vectors); err != nil {
		t.Fatalf("parsing the shared vectors: %v", err)
	}
	if len(vectors.Cases) == 0 {
		t.Fatal("the shared vectors file has no cases")
	}
	return vectors
}

func TestSignatureVectorsVerify(t *testing.T) {
	vectors := loadSignatureVectors(t)
	for _, c := range vectors.Cases {
		t.Run(c.Name, func(t *testing.T) {
			_, err := VerifyWebhookSignature(c.Header, []byte(c.Body), []string{c.Secret}, VerifyOptions{
				Tolerance: time.Duration(vectors.ToleranceSeconds) * time.Second,
				Now:       time.Unix(c.Now, 0),
			})
			if c.Expected.OK {
				if err != nil {
					t.Fatalf("expected ok, got %v", err)
				}
				return
			}
			var signatureError *SignatureError
			if !errors.As(err, &signatureError) || signatureError.Reason != c.Expected.Reason {
				t.Fatalf("expected reason %q, got %v", c.Expected.Reason, err)
			}
		})
	}
}

func TestSignatureVectorsSign(t *testing.T) {
	signed := 0
	for _, c := range loadSignatureVectors(t).Cases {
		if len(c.SigningSecrets) == 0 {
			continue
		}
		signed++
		header, err := SignWebhookBody(c.SigningSecrets, []byte(c.Body), time.Unix(c.T, 0))
		if err != nil || header != c.Header {
			t.Errorf("%s: signed %q (%v), want %q", c.Name, header, err, c.Header)
		}
	}
	if signed == 0 {
		t.Fatal("no vector carries signing_secrets")
	}
}

func TestVerifyRefusesMalformedHeaders(t *testing.T) {
	body := []byte(`{}`)
	now := time.Unix(1700000000, 0)
	for _, header := range []string{
		"v1=abc",                                  // no t
		"t=1700000000,t=1700000000,v1=abc",        // two t
		"t=17000x0000,v1=abc",                     // t not digits
		"t=1700000000,garbage",                    // element without =
		"t=1700000000,=abc",                       // empty key
		"t=" + strings.Repeat("1", 16) + ",v1=ab", // t too long
		"t=1700000000,v1=" + strings.Repeat("a", 8200),
	} {
		_, err := VerifyWebhookSignature(header, body, []string{"whsec_x"}, VerifyOptions{Now: now})
		var signatureError *SignatureError
		if !errors.As(err, &signatureError) || signatureError.Reason != ReasonMalformedHeader {
			t.Errorf("%.40q: got %v, want malformed_header", header, err)
		}
	}
	_, err := VerifyWebhookSignature("", body, []string{"whsec_x"}, VerifyOptions{Now: now})
	var signatureError *SignatureError
	if !errors.As(err, &signatureError) || signatureError.Reason != ReasonMissingHeader {
		t.Errorf("empty header: got %v, want missing_header", err)
	}
}

func TestVerifyIgnoresUnknownSchemesAndNeedsASecret(t *testing.T) {
	body := []byte(`{"a":1}`)
	at := time.Unix(1700000000, 0)
	header, err := SignWebhookBody([]string{"whsec_new"}, body, at)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := VerifyWebhookSignature("v2=zzz,"+header, body, []string{"whsec_new"}, VerifyOptions{Now: at}); err != nil {
		t.Errorf("a v2 element must be ignored: %v", err)
	}
	if _, err := VerifyWebhookSignature(header, body, nil, VerifyOptions{Now: at}); !errors.Is(err, ErrNoSecret) {
		t.Errorf("no secret: got %v, want ErrNoSecret", err)
	}
	if _, err := VerifyWebhookSignature(header, body, []string{"whsec_other", "whsec_new"}, VerifyOptions{Now: at}); err != nil {
		t.Errorf("the receiver's second secret (rotation) must match: %v", err)
	}
}
