import type { FastifyReply, FastifyRequest } from 'fastify';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey } from './key';
import type { IdempotentResponse } from './run';

/**
 * preValidation hook of the payment routes: after authentication, before the body is validated,
 * so a request without a key is 400 IdempotencyKeyMissing whatever its body.
 */
export async function requireIdempotencyKey(request: FastifyRequest): Promise<void> {
  readIdempotencyKey(headerLines(request, IDEMPOTENCY_KEY_HEADER));
}

/** The request's Idempotency-Key (already checked by requireIdempotencyKey). */
export function idempotencyKeyOf(request: FastifyRequest): string {
  return readIdempotencyKey(headerLines(request, IDEMPOTENCY_KEY_HEADER));
}

/**
 * Each value sent for header `name`, one per header line. Node joins repeated lines of most
 * headers into one "a, b", which would make two keys one; the raw lines keep them apart.
 */
function headerLines(request: FastifyRequest, name: string): string[] {
  const raw = request.raw.rawHeaders;
  const values: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2)
    if (raw[i]?.toLowerCase() === name) values.push(raw[i + 1] as string);
  return values;
}

/**
 * Sends an idempotent operation's response: its status, `Idempotent-Replayed: true` when nothing
 * ran again, and the body with this request's request_id (the same as its x-request-id).
 */
export function sendIdempotentResponse(reply: FastifyReply, response: IdempotentResponse): FastifyReply {
  if (response.replayed) reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
  return reply.code(response.status).send({ ...response.body, request_id: reply.request.id });
}
