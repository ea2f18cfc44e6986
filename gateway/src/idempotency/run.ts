import { apiError } from '../errors/api-error';
import { apiErrorFromService } from '../errors/from-service';
import { type ErrorTag, renderErrorBody } from '../errors/registry';
import type { CachedResponse, IdempotencyCache, IdempotencyScope } from './cache';

// The idempotency table of docs/api/idempotency.md "The Idempotency-Key" around one payment operation:
//   new key                    → run it
//   same key and body, done    → the stored response, Idempotent-Replayed: true
//   same key, still running    → 409 IdempotencyInProgress
//   same key, another body     → 400 IdempotencyConflict
//   after 24 h                 → new (the records expire)
// The cache is the fast path. When it cannot answer (outage, flushed), the operation runs and
// payout's durable record decides: `replayed` in its answer marks the response as a replay.
// Only outcomes of the execution are stored: the response with the transaction, and the refusals
// that no retry of the same request can change (STORED_ERRORS). Everything else releases the key:
// a 5xx, so a retry runs again and meets whatever payout has recorded by then (never a frozen
// 500); and a refusal before anything executed (ValidationError, QrDecodeError, Amount*,
// NotFoundError), so the client can fix the body and retry with the same key, as with Stripe,
// instead of being told IdempotencyConflict for a request that never ran.

export interface OperationResult {
  /** 200 unless the operation made a resource it answers 201 for (a sandbox trigger). */
  status?: 200 | 201;
  body: Record<string, unknown>;
  /** payout recognised the key and fingerprint: nothing ran again. */
  replayed: boolean;
}

export interface IdempotentResponse {
  status: number;
  /** Without request_id: the caller adds its own (x-request-id and body agree on every response). */
  body: Record<string, unknown>;
  replayed: boolean;
}

export interface RunIdempotentOptions {
  cache: IdempotencyCache;
  scope: IdempotencyScope;
  fingerprint: string;
  publicDocsUrl: string;
  operation: () => Promise<OperationResult>;
}

export async function runIdempotent(opts: RunIdempotentOptions): Promise<IdempotentResponse> {
  const begun = await opts.cache.begin(opts.scope, opts.fingerprint);
  switch (begun.kind) {
    case 'conflict':
      throw apiError('IdempotencyConflict');
    case 'in_progress':
      // Most payments finish within payout's wait; a second later the stored answer is likely there.
      throw apiError('IdempotencyInProgress', undefined, { headers: { 'retry-after': '1' } });
    case 'replay':
      return { ...begun.response, replayed: true };
    default:
      break;
  }
  const lock = begun.kind === 'acquired' ? begun.lock : undefined;
  let result: OperationResult;
  try {
    result = await opts.operation();
  } catch (err) {
    if (lock) {
      const stored = storableError(err, opts.publicDocsUrl);
      await (stored ? opts.cache.complete(lock, stored) : opts.cache.release(lock));
    }
    throw err;
  }
  const response: CachedResponse = { status: result.status ?? 200, body: result.body };
  if (lock) await opts.cache.complete(lock, response);
  return { ...response, replayed: result.replayed };
}

/** Refusals that are the outcome of this key: the instruction cannot be executed by it, ever. */
const STORED_ERRORS: ReadonlySet<ErrorTag> = new Set<ErrorTag>([
  'InstructionAlreadyExecuted',
  'QuoteExpired',
]);

/** The response to store for a failure, or undefined when the failure must not be frozen. */
function storableError(err: unknown, publicDocsUrl: string): CachedResponse | undefined {
  // Unexpected errors render as 500 InternalError: never stored.
  const error = apiErrorFromService(err);
  if (!error || !STORED_ERRORS.has(error.tag)) return undefined;
  const { request_id: _omitted, ...body } = renderErrorBody({
    tag: error.tag,
    message: error.message,
    requestId: '',
    publicDocsUrl,
    fields: error.fields,
  });
  return { status: error.status, body };
}
