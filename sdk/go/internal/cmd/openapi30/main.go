// Command openapi30 reads our OpenAPI 3.1 document on stdin and writes its OpenAPI 3.0 form on
// stdout, for oapi-codegen (internal/openapi30 says what it rewrites). Run by scripts/sdk-go.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/qr-payout/qr-payout/sdk/go/internal/openapi30"
)

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(in io.Reader, out io.Writer) error {
	var doc map[string]any
	if err := json.NewDecoder(in).Decode(&doc); err != nil {
		return fmt.Errorf("openapi30: reading the document: %w", err)
	}
	converted, err := openapi30.Convert(doc)
	if err != nil {
		return err
	}
	encoder := json.NewEncoder(out)
	encoder.SetIndent("", "  ")
	return encoder.Encode(converted)
}
