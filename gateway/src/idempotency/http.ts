import type { FastifyReply, FastifyRequest } from 'fastify';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey } from './key';
import type { IdempotentResponse } from './run';

/**
 * preValidation hook of the payment routes: after authentication, before the body is validated,
 * so a request without a key is 400 IdempotencyKeyMissing whatever its body.
 */
export async function requireIdempotencyKey(request: FastifyRequest): Promise<void> {
  readIdempotencyKey(request.headers[IDEMPOTENCY_KEY_HEADER]);
}

/** The request's Idempotency-Key (already checked by requireIdempotencyKey). */
export function idempotencyKeyOf(request: FastifyRequest): string {
  return readIdempotencyKey(request.headers[IDEMPOTENCY_KEY_HEADER]);
}

/**
 * Sends an idempotent operation's response: its status, `Idempotent-Replayed: true` when nothing
 * ran again, and the body with this request's request_id (the same as its x-request-id).
 */
export function sendIdempotentResponse(reply: FastifyReply, response: IdempotentResponse): FastifyReply {
  if (response.replayed) reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
  return reply.code(response.status).send({ ...response.body, request_id: reply.request.id });
}
