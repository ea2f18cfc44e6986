package qrpayout

// One method per operation of the document for API clients (the TypeScript client's set). Each
// returns the 2xx body as the document types it, or an *Error.

import (
	"context"
	"net/http"

	"github.com/qr-payout/qr-payout/sdk/go/api"
)

// ListSchemes is GET /v1/schemes.
func (c *Client) ListSchemes(ctx context.Context, options ...CallOption) (*api.SchemesResponse, error) {
	o := collect(options)
	return call[api.SchemesResponse](ctx, "GET /v1/schemes", func(ctx context.Context) (*http.Response, error) {
		return c.raw.ListSchemes(ctx, o.editor())
	})
}

// ListFxCurrencies is GET /v1/fx/currencies: the wallet currencies fx quotes.
func (c *Client) ListFxCurrencies(ctx context.Context, options ...CallOption) (*api.WalletCurrenciesResponse, error) {
	o := collect(options)
	return call[api.WalletCurrenciesResponse](ctx, "GET /v1/fx/currencies", func(ctx context.Context) (*http.Response, error) {
		return c.raw.ListFxCurrencies(ctx, o.editor())
	})
}

// Resolve is POST /v1/resolve.
func (c *Client) Resolve(ctx context.Context, body api.ResolveRequest, options ...CallOption) (*api.ResolveResponse, error) {
	o := collect(options)
	return call[api.ResolveResponse](ctx, "POST /v1/resolve", func(ctx context.Context) (*http.Response, error) {
		return c.raw.Resolve(ctx, body, o.editor())
	})
}

// Execute is POST /v1/execute, with an Idempotency-Key (WithIdempotencyKey, else a new UUID).
func (c *Client) Execute(ctx context.Context, body api.ExecuteRequest, options ...CallOption) (*api.ExecuteResponse, error) {
	o := collect(options)
	params := &api.ExecuteParams{IdempotencyKey: o.paymentKey()}
	return call[api.ExecuteResponse](ctx, "POST /v1/execute", func(ctx context.Context) (*http.Response, error) {
		return c.raw.Execute(ctx, params, body, o.editor())
	})
}

// Pay is POST /v1/pay (resolve and execute in one call), with an Idempotency-Key
// (WithIdempotencyKey, else a new UUID).
func (c *Client) Pay(ctx context.Context, body api.PayRequest, options ...CallOption) (*api.PayResponse, error) {
	o := collect(options)
	params := &api.PayParams{IdempotencyKey: o.paymentKey()}
	return call[api.PayResponse](ctx, "POST /v1/pay", func(ctx context.Context) (*http.Response, error) {
		return c.raw.Pay(ctx, params, body, o.editor())
	})
}

// GetInstruction is GET /v1/instructions/{id}.
func (c *Client) GetInstruction(ctx context.Context, id string, options ...CallOption) (*api.InstructionResponse, error) {
	o := collect(options)
	return call[api.InstructionResponse](ctx, "GET /v1/instructions/{id}", func(ctx context.Context) (*http.Response, error) {
		return c.raw.GetInstruction(ctx, id, o.editor())
	})
}

// GetTransaction is GET /v1/transactions/{id}.
func (c *Client) GetTransaction(ctx context.Context, id string, options ...CallOption) (*api.TransactionResponse, error) {
	o := collect(options)
	return call[api.TransactionResponse](ctx, "GET /v1/transactions/{id}", func(ctx context.Context) (*http.Response, error) {
		return c.raw.GetTransaction(ctx, id, o.editor())
	})
}

// ListTransactions is GET /v1/transactions; params may be nil.
func (c *Client) ListTransactions(ctx context.Context, params *api.ListTransactionsParams, options ...CallOption) (*api.TransactionsResponse, error) {
	o := collect(options)
	return call[api.TransactionsResponse](ctx, "GET /v1/transactions", func(ctx context.Context) (*http.Response, error) {
		return c.raw.ListTransactions(ctx, params, o.editor())
	})
}

// ListWebhookEndpoints is GET /v1/webhook-endpoints.
func (c *Client) ListWebhookEndpoints(ctx context.Context, options ...CallOption) (*api.WebhookEndpointsResponse, error) {
	o := collect(options)
	return call[api.WebhookEndpointsResponse](ctx, "GET /v1/webhook-endpoints", func(ctx context.Context) (*http.Response, error) {
		return c.raw.ListWebhookEndpoints(ctx, o.editor())
	})
}

// ListWebhookDeliveries is GET /v1/webhook-deliveries; params may be nil.
func (c *Client) ListWebhookDeliveries(ctx context.Context, params *api.ListWebhookDeliveriesParams, options ...CallOption) (*api.WebhookDeliveriesResponse, error) {
	o := collect(options)
	return call[api.WebhookDeliveriesResponse](ctx, "GET /v1/webhook-deliveries", func(ctx context.Context) (*http.Response, error) {
		return c.raw.ListWebhookDeliveries(ctx, params, o.editor())
	})
}

// GetWebhookDelivery is GET /v1/webhook-deliveries/{id}.
func (c *Client) GetWebhookDelivery(ctx context.Context, id string, options ...CallOption) (*api.WebhookDeliveryResponse, error) {
	o := collect(options)
	return call[api.WebhookDeliveryResponse](ctx, "GET /v1/webhook-deliveries/{id}", func(ctx context.Context) (*http.Response, error) {
		return c.raw.GetWebhookDelivery(ctx, id, o.editor())
	})
}

// ReplayWebhookDelivery is POST /v1/webhook-deliveries/{id}/replay.
func (c *Client) ReplayWebhookDelivery(ctx context.Context, id string, body api.WebhookDeliveryReplayRequest, options ...CallOption) (*api.WebhookDeliveryReplayResponse, error) {
	o := collect(options)
	return call[api.WebhookDeliveryReplayResponse](ctx, "POST /v1/webhook-deliveries/{id}/replay", func(ctx context.Context) (*http.Response, error) {
		return c.raw.ReplayWebhookDelivery(ctx, id, body, o.editor())
	})
}

// ListSandboxTestQrs is GET /v1/sandbox/test-qrs: the sandbox's test QR codes and amounts
// (docs/sandbox-test-qrs.md).
func (c *Client) ListSandboxTestQrs(ctx context.Context, options ...CallOption) (*api.ListSandboxTestQrs200JSONResponseBody, error) {
	o := collect(options)
	return call[api.ListSandboxTestQrs200JSONResponseBody](ctx, "GET /v1/sandbox/test-qrs", func(ctx context.Context) (*http.Response, error) {
		return c.raw.ListSandboxTestQrs(ctx, o.editor())
	})
}

// TriggerSandboxEvent is POST /v1/sandbox/triggers (sandbox only, docs/sandbox-test-qrs.md
// "Triggers"): a terminal transaction and its webhook event, with an Idempotency-Key
// (WithIdempotencyKey, else a new UUID).
func (c *Client) TriggerSandboxEvent(ctx context.Context, body api.TriggerSandboxEventJSONRequestBody, options ...CallOption) (*api.ExecuteResponse, error) {
	o := collect(options)
	params := &api.TriggerSandboxEventParams{IdempotencyKey: o.paymentKey()}
	return call[api.ExecuteResponse](ctx, "POST /v1/sandbox/triggers", func(ctx context.Context) (*http.Response, error) {
		return c.raw.TriggerSandboxEvent(ctx, params, body, o.editor())
	})
}
