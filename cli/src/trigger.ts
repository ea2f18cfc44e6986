import { randomUUID } from 'node:crypto';
import type { PublicConnection, TriggerCommand } from './args';

// `payoutctl trigger EVENT` (docs/api/sandbox.md "Triggers"): one POST /v1/sandbox/triggers
// with the tenant's API key. The gateway owns every rule (sandbox only, idempotency, the event's
// payment); this prints its answer.

const CALL_TIMEOUT_MS = 30_000;

/** The public API's answer as payoutctl prints it: the body, or the error in the CLI's shape. */
export type TriggerOutcome =
  | { ok: true; body: unknown }
  | { ok: false; error: { code: string; message: string; request_id?: string } };

export async function triggerSandboxEvent(
  connection: PublicConnection,
  command: TriggerCommand,
  fetchImpl: typeof fetch = fetch,
): Promise<TriggerOutcome> {
  const url = new URL('/v1/sandbox/triggers', connection.baseUrl);
  let res: Response;
  try {
    res = await fetchImpl(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': connection.apiKey,
        'idempotency-key': command.idempotencyKey || randomUUID(),
      },
      body: JSON.stringify({
        event: command.event,
        ...(command.callbackUrl ? { callback_url: command.callbackUrl } : {}),
      }),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
  } catch (err) {
    const reason =
      err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
    return {
      ok: false,
      error: {
        code: 'unavailable',
        message: `${reason}: no public API answered at ${connection.baseUrl}; set QR_PAYOUT_BASE_URL or --base-url (the sandbox prints it at start)`,
      },
    };
  }
  const text = await res.text();
  let body: Record<string, unknown> | undefined;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = undefined;
  }
  if (res.ok && body) return { ok: true, body };
  // The API's error body (docs/api/errors.md "The error body"): its name is the code.
  return {
    ok: false,
    error: {
      code: typeof body?._tag === 'string' ? body._tag : `http_${res.status}`,
      message: typeof body?.message === 'string' ? body.message : text.slice(0, 200),
      ...(typeof body?.request_id === 'string' ? { request_id: body.request_id } : {}),
    },
  };
}
