import { type ApiResponse, UUID } from './http';

/**
 * docs/api/errors.md "The error body": exactly these fields (RateLimitError adds `retryAfter`,
 * docs/api/errors.md "Error names").
 */
const ERROR_FIELDS = ['_tag', 'docs_url', 'message', 'request_id', 'type'];

/**
 * Asserts a response is the error body for `tag` with `status`: `_tag` and `type` equal to
 * the tag, a non-empty message, `docs_url` pointing at the tag's anchor of the gateway's error
 * catalogue, and `request_id` a UUID equal to the `x-request-id` header
 * (docs/api/errors.md "The error body"; docs/api/resources.md "Request ids").
 */
export function expectErrorBody(res: ApiResponse, status: number, tag: string, docsBaseUrl: string): void {
  expect({ status: res.status, body: res.json ?? res.text }).toMatchObject({ status, body: { _tag: tag } });
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = res.json!;
  // The registry's declared body fields: RateLimitError's retryAfter (docs/api/errors.md "Error names"),
  // InstructionAlreadyExecuted's transaction_id, and ChargeAlreadyPaid's, present only when the
  // payment is the caller's (docs/api/idempotency.md "The Idempotency-Key"; the test asserts which).
  const extra =
    tag === 'RateLimitError'
      ? ['retryAfter']
      : tag === 'InstructionAlreadyExecuted' || (tag === 'ChargeAlreadyPaid' && 'transaction_id' in body)
        ? ['transaction_id']
        : [];
  const expectedFields = [...ERROR_FIELDS, ...extra].sort();
  expect(Object.keys(body).sort()).toEqual(expectedFields);
  expect(body.type).toBe(tag);
  expect(typeof body.message).toBe('string');
  expect((body.message as string).trim().length).toBeGreaterThan(0);
  expect(body.docs_url).toBe(`${docsBaseUrl}/errors#${tag}`);
  expect(body.request_id).toMatch(UUID);
  expect(res.headers.get('x-request-id')).toBe(body.request_id);
}
