import { RESOLVE_ROUTE } from '../../http/routes/resolve';
import {
  EXAMPLE_DELIVERY_ID,
  EXAMPLE_INSTRUCTION_ID,
  EXAMPLE_RESOLVED_INSTRUCTION_PLACEHOLDER,
  EXAMPLE_TRANSACTION_ID,
} from '../../openapi/examples';
import type { ValueSubstitutions } from './operations';

// The samples check runs the samples against a sandbox (docs/testing.md "Samples"): first it makes
// what their example ids stand for, so each sample reads or replays something that exists.

/**
 * Where the trigger's webhook goes: nothing listens there, so the delivery stays pending and its
 * replay answers the documented 409 DeliveryInFlight; the check needs the delivery, not its success.
 */
const UNREACHABLE_CALLBACK_URL = 'http://127.0.0.1:9/samples-check';

interface Sandbox {
  baseUrl: string;
  apiKey: string;
}

/** The string at `path` in a JSON answer, or an error naming the path. */
function stringAt(value: unknown, ...path: (string | number)[]): string {
  let at = value;
  for (const key of path) at = (at as Record<string | number, unknown> | null | undefined)?.[key];
  if (typeof at !== 'string') throw new Error(`the answer has no ${path.join('.')}`);
  return at;
}

async function call(sandbox: Sandbox, method: string, path: string, body?: unknown): Promise<unknown> {
  const answer = await fetch(`${sandbox.baseUrl}${path}`, {
    method,
    headers: {
      'x-api-key': sandbox.apiKey,
      ...(body ? { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`${method} ${path}: HTTP ${answer.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

async function deliveryOf(sandbox: Sandbox, transactionId: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const page = await call(sandbox, 'GET', `/v1/webhook-deliveries?transaction_id=${transactionId}`);
    if ((page as { deliveries?: unknown[] }).deliveries?.length) return stringAt(page, 'deliveries', 0, 'id');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no webhook delivery of ${transactionId} within 20 s`);
}

/** Makes a transaction, its delivery and an unexecuted instruction; the examples' ids → theirs. */
export async function sandboxIds(sandbox: Sandbox): Promise<ValueSubstitutions> {
  const triggered = await call(sandbox, 'POST', '/v1/sandbox/triggers', {
    event: 'transaction.completed',
    callback_url: UNREACHABLE_CALLBACK_URL,
  });
  const transactionId = stringAt(triggered, 'transaction', 'id');
  const resolveExample = Object.values(RESOLVE_ROUTE.schema.bodyExamples)[0]?.value;
  const resolved = await call(sandbox, 'POST', '/v1/resolve', resolveExample);
  return new Map([
    [EXAMPLE_TRANSACTION_ID, transactionId],
    [EXAMPLE_INSTRUCTION_ID, stringAt(triggered, 'transaction', 'instructionId')],
    [EXAMPLE_RESOLVED_INSTRUCTION_PLACEHOLDER, stringAt(resolved, 'instruction', 'id')],
    [EXAMPLE_DELIVERY_ID, await deliveryOf(sandbox, transactionId)],
  ]);
}
