import { errorCataloguePageHtml } from '../docs/pages';
import { buildOpenApiDocument } from '../openapi/document';
import { ERROR_REGISTRY, ERROR_TAGS, isErrorTag, renderErrorBody } from './registry';

describe('error registry', () => {
  it('has the statuses of docs/api/errors.md "Error names"', () => {
    const expected: Record<string, number> = {
      AuthError: 401,
      RateLimitError: 429,
      IdempotencyInProgress: 409,
      IdempotencyConflict: 400,
      IdempotencyKeyMissing: 400,
      ValidationError: 400,
      NotFoundError: 404,
      DeliveryInFlight: 409,
      DeliveryReplayTooSoon: 429,
      InstructionAlreadyExecuted: 409,
      ChargeAlreadyPaid: 409,
      QuoteExpired: 409,
      PayloadTooLarge: 413,
      UnsupportedMediaType: 415,
      QrDecodeError: 422,
      AmountMismatch: 422,
      AmountRequired: 422,
      AmountOutOfRange: 422,
      InternalError: 500,
      ServiceUnavailable: 503,
      QrLocationUnavailable: 503,
      MethodNotAllowed: 405,
      SandboxOnly: 403,
    };
    expect(Object.fromEntries(ERROR_TAGS.map((tag) => [tag, ERROR_REGISTRY[tag].status]))).toEqual(expected);
  });

  it('renders the error body (docs/api/errors.md "The error body") with the docs anchor of the tag', () => {
    const body = renderErrorBody({
      tag: 'AuthError',
      message: 'Missing API key.',
      requestId: '2b7c7f0e-5a8e-4b55-9d59-4c3f1b0a8e11',
      publicDocsUrl: 'https://api.example.com/docs/',
    });
    expect(body).toEqual({
      _tag: 'AuthError',
      type: 'AuthError',
      message: 'Missing API key.',
      docs_url: 'https://api.example.com/docs/errors#AuthError',
      request_id: '2b7c7f0e-5a8e-4b55-9d59-4c3f1b0a8e11',
    });
  });

  it('uses the default message when none is given and adds retryAfter only when set', () => {
    const body = renderErrorBody({
      tag: 'RateLimitError',
      requestId: 'r',
      publicDocsUrl: 'http://x/docs',
      retryAfterSeconds: 7,
    });
    expect(body.message).toBe(ERROR_REGISTRY.RateLimitError.defaultMessage);
    expect(body.retryAfter).toBe(7);
    expect(
      'retryAfter' in
        renderErrorBody({ tag: 'InternalError', requestId: 'r', publicDocsUrl: 'http://x/docs' }),
    ).toBe(false);
  });

  it('every error is documented: an anchor on /docs/errors and a response of the OpenAPI document', () => {
    const page = errorCataloguePageHtml();
    const document = JSON.stringify(buildOpenApiDocument());
    expect(ERROR_TAGS.filter((tag) => !page.includes(`id="${tag}"`))).toEqual([]);
    expect(ERROR_TAGS.filter((tag) => !document.includes(`\`${tag}\``))).toEqual([]);
  });

  it('renders only the body fields a tag declares (InstructionAlreadyExecuted: transaction_id)', () => {
    const fields = { transaction_id: 'txn_01JD0000000000000000000001', instruction_id: 'ins_x' };
    const base = { requestId: 'r', publicDocsUrl: 'http://x/docs', fields };
    expect(renderErrorBody({ tag: 'InstructionAlreadyExecuted', ...base })).toMatchObject({
      transaction_id: 'txn_01JD0000000000000000000001',
    });
    expect(renderErrorBody({ tag: 'InstructionAlreadyExecuted', ...base }).instruction_id).toBeUndefined();
    expect('transaction_id' in renderErrorBody({ tag: 'QuoteExpired', ...base })).toBe(false);
  });

  it('ChargeAlreadyPaid carries transaction_id the same way, and only when payout gave it', () => {
    const base = { requestId: 'r', publicDocsUrl: 'http://x/docs' };
    const fields = { transaction_id: 'txn_01JD0000000000000000000001', instruction_id: 'ins_x' };
    expect(renderErrorBody({ tag: 'ChargeAlreadyPaid', ...base, fields })).toMatchObject({
      transaction_id: 'txn_01JD0000000000000000000001',
    });
    // Another tenant's payment: payout sends no transaction_id, and none is rendered.
    const foreign = renderErrorBody({
      tag: 'ChargeAlreadyPaid',
      ...base,
      fields: { instruction_id: 'ins_x' },
    });
    expect('transaction_id' in foreign).toBe(false);
    expect(Object.keys(foreign).sort()).toEqual(['_tag', 'docs_url', 'message', 'request_id', 'type']);
  });

  it('documents every body field on /docs/errors and in the OpenAPI ErrorBody, per error declaring it', () => {
    const page = errorCataloguePageHtml();
    const described =
      buildOpenApiDocument().components.schemas.ErrorBody.properties.transaction_id.description;
    for (const tag of ['InstructionAlreadyExecuted', 'ChargeAlreadyPaid'] as const) {
      const section = page.slice(page.indexOf(`id="${tag}"`));
      expect(section.slice(0, section.indexOf('</section>'))).toContain('<code>transaction_id</code>');
      expect(described).toContain(`\`${tag}\`: ${ERROR_REGISTRY[tag].bodyFields.transaction_id}`);
    }
  });

  it('recognizes only its own tags, not inherited object keys', () => {
    expect(isErrorTag('QrDecodeError')).toBe(true);
    expect(isErrorTag('toString')).toBe(false);
    expect(isErrorTag('__proto__')).toBe(false);
  });
});
