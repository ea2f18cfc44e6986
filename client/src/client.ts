// The hand-written layer over the generated operations (src/generated/, never edited): one object
// per API key, each method returning the success body or throwing QrPayoutError. Pay and execute
// carry an Idempotency-Key (docs/api/idempotency.md#the-idempotency-key): the caller's,
// or a fresh UUID per call; the transport resends the same request, so every retry of one call
// reuses that key and the payment happens at most once.
import { randomUUID } from 'node:crypto';
import type {
  ExecuteRequest,
  ExecuteResponse,
  InstructionResponse,
  ListSandboxTestQrs200,
  ListTransactionsParams,
  ListWebhookDeliveriesParams,
  PayRequest,
  PayResponse,
  ResolveRequest,
  ResolveResponse,
  SchemesResponse,
  TransactionResponse,
  TransactionsResponse,
  TriggerSandboxEventBody,
  WalletCurrenciesResponse,
  WebhookDeliveriesResponse,
  WebhookDeliveryReplayRequest,
  WebhookDeliveryReplayResponse,
  WebhookDeliveryResponse,
  WebhookEndpointsResponse,
} from './generated/model';
import * as operations from './generated/operations';
import { DEFAULT_RETRY_POLICY, type RetryInfo, type RetryPolicy, sleep, type Transport } from './transport';

export type ClientOptions = {
  /** The API's base URL, e.g. `http://127.0.0.1:8080` for the sandbox. */
  baseUrl: string;
  /** Your `x-api-key`. */
  apiKey: string;
  /** Overrides of DEFAULT_RETRY_POLICY; `{ maxAttempts: 1 }` turns retries off. */
  retry?: Partial<RetryPolicy>;
  /** A fetch implementation (default: the global fetch). */
  fetch?: typeof fetch;
  /** Called before each retry. */
  onRetry?: (info: RetryInfo) => void;
};

/** Per call: an abort signal, and extra headers. */
export type CallOptions = { signal?: AbortSignal; headers?: Record<string, string> };

/** Pay and execute: the Idempotency-Key to use (default: a new UUID for this call). */
export type PaymentCallOptions = CallOptions & { idempotencyKey?: string };

export type QrPayoutClient = {
  /** The transport the methods use; pass `{ transport }` to a generated operation to call it directly. */
  readonly transport: Transport;
  listSchemes(options?: CallOptions): Promise<SchemesResponse>;
  /** The wallet currencies fx quotes (`wallet_currency` of resolve and pay). */
  listFxCurrencies(options?: CallOptions): Promise<WalletCurrenciesResponse>;
  resolve(body: ResolveRequest, options?: CallOptions): Promise<ResolveResponse>;
  execute(body: ExecuteRequest, options?: PaymentCallOptions): Promise<ExecuteResponse>;
  pay(body: PayRequest, options?: PaymentCallOptions): Promise<PayResponse>;
  getInstruction(id: string, options?: CallOptions): Promise<InstructionResponse>;
  getTransaction(id: string, options?: CallOptions): Promise<TransactionResponse>;
  listTransactions(params?: ListTransactionsParams, options?: CallOptions): Promise<TransactionsResponse>;
  listWebhookEndpoints(options?: CallOptions): Promise<WebhookEndpointsResponse>;
  listWebhookDeliveries(
    params?: ListWebhookDeliveriesParams,
    options?: CallOptions,
  ): Promise<WebhookDeliveriesResponse>;
  getWebhookDelivery(id: string, options?: CallOptions): Promise<WebhookDeliveryResponse>;
  replayWebhookDelivery(
    id: string,
    body?: WebhookDeliveryReplayRequest,
    options?: CallOptions,
  ): Promise<WebhookDeliveryReplayResponse>;
  /** The sandbox's test QR codes and amounts (docs/sandbox-test-qrs.md); no key needed. */
  listSandboxTestQrs(options?: CallOptions): Promise<ListSandboxTestQrs200>;
  /** Sandbox only (docs/api/sandbox.md "Triggers"): a terminal transaction and its webhook event. */
  triggerSandboxEvent(body: TriggerSandboxEventBody, options?: PaymentCallOptions): Promise<ExecuteResponse>;
};

/** The body of a generated answer's 2xx members (the transport has thrown for every other status). */
type SuccessData<R> = Extract<R, { status: 200 | 201 | 202 | 204 }> extends { data: infer D } ? D : never;

async function dataOf<R extends { data: unknown; status: number }>(
  answer: Promise<R>,
): Promise<SuccessData<R>> {
  return (await answer).data as SuccessData<R>;
}

export function createClient(options: ClientOptions): QrPayoutClient {
  if (!options.baseUrl) throw new TypeError('createClient: baseUrl is required');
  if (!options.apiKey) throw new TypeError('createClient: apiKey is required');
  const transport: Transport = {
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
    fetch: options.fetch ?? globalThis.fetch,
    sleep,
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
  };
  const request = (call?: CallOptions) => ({
    transport,
    ...(call?.signal ? { signal: call.signal } : {}),
    headers: { ...call?.headers },
  });
  const payment = (call?: PaymentCallOptions) => {
    const base = request(call);
    return { ...base, headers: { ...base.headers, 'Idempotency-Key': call?.idempotencyKey ?? randomUUID() } };
  };
  return {
    transport,
    listSchemes: (call) => dataOf(operations.listSchemes(request(call))),
    listFxCurrencies: (call) => dataOf(operations.listFxCurrencies(request(call))),
    resolve: (body, call) => dataOf(operations.resolve(body, request(call))),
    execute: (body, call) => dataOf(operations.execute(body, payment(call))),
    pay: (body, call) => dataOf(operations.pay(body, payment(call))),
    getInstruction: (id, call) => dataOf(operations.getInstruction(id, request(call))),
    getTransaction: (id, call) => dataOf(operations.getTransaction(id, request(call))),
    listTransactions: (params, call) => dataOf(operations.listTransactions(params, request(call))),
    listWebhookEndpoints: (call) => dataOf(operations.listWebhookEndpoints(request(call))),
    listWebhookDeliveries: (params, call) => dataOf(operations.listWebhookDeliveries(params, request(call))),
    getWebhookDelivery: (id, call) => dataOf(operations.getWebhookDelivery(id, request(call))),
    replayWebhookDelivery: (id, body, call) =>
      dataOf(operations.replayWebhookDelivery(id, body, request(call))),
    listSandboxTestQrs: (call) => dataOf(operations.listSandboxTestQrs(request(call))),
    triggerSandboxEvent: (body, call) => dataOf(operations.triggerSandboxEvent(body, payment(call))),
  };
}
