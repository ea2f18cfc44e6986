import { Code, ConnectError, serviceError } from '@qr-payout/platform/errors';
import { apiErrorFromService, RETRY_AFTER_SECONDS } from './from-service';
import { ERROR_REGISTRY, ERROR_TAGS } from './registry';

describe('apiErrorFromService', () => {
  it('keeps the safe message of a coded error whose tag the registry knows', () => {
    const mapped = apiErrorFromService(
      serviceError('QrDecodeError', 'CRC mismatch', { code: Code.InvalidArgument }),
    );
    expect(mapped).toMatchObject({ tag: 'QrDecodeError', status: 422, message: 'CRC mismatch' });
  });

  it('maps Unavailable and DeadlineExceeded without detail to 503 with Retry-After', () => {
    for (const code of [Code.Unavailable, Code.DeadlineExceeded]) {
      const mapped = apiErrorFromService(new ConnectError('connect ECONNREFUSED 10.0.0.1:50051', code));
      expect(mapped).toMatchObject({ tag: 'ServiceUnavailable', status: 503 });
      expect(mapped?.message).not.toContain('ECONNREFUSED');
      expect(mapped?.headers['retry-after']).toBe('1');
    }
  });

  it('keeps a tagged UNAVAILABLE as its own 503 (the tag wins over the generic outage rule)', () => {
    const mapped = apiErrorFromService(
      serviceError(
        'QrLocationUnavailable',
        'The dynamic Pix location at psp.example did not answer in time.',
        {
          code: Code.Unavailable,
          field: 'qr_string',
          metadata: { reason: 'location_timeout' },
        },
      ),
    );
    expect(mapped).toMatchObject({
      tag: 'QrLocationUnavailable',
      status: 503,
      message: 'The dynamic Pix location at psp.example did not answer in time.',
    });
    expect(mapped?.headers['retry-after']).toBe(String(RETRY_AFTER_SECONDS.QrLocationUnavailable));
  });

  it('gives every 503 of the registry a Retry-After, and no other status one', () => {
    for (const tag of ERROR_TAGS) {
      if (tag === 'InternalError') continue;
      const mapped = apiErrorFromService(serviceError(tag, 'm', { code: Code.Unavailable }));
      expect([tag, mapped?.headers['retry-after'] !== undefined]).toEqual([
        tag,
        ERROR_REGISTRY[tag].status === 503,
      ]);
    }
  });

  it("passes on the service's own delay as Retry-After and the body's retryAfter", () => {
    const mapped = apiErrorFromService(
      serviceError('DeliveryReplayTooSoon', 'replay it again in 7 s', {
        code: Code.ResourceExhausted,
        retryAfterSeconds: 7,
      }),
    );
    expect(mapped).toMatchObject({ tag: 'DeliveryReplayTooSoon', status: 429, retryAfterSeconds: 7 });
    expect(mapped?.headers['retry-after']).toBe('7');
  });

  it('leaves anything else to the 500 rule (unknown tags, other codes, plain errors)', () => {
    // A tag of a newer peer, unknown to this version, and an internal one that should never get here.
    const newer = 'SomethingNew' as Parameters<typeof serviceError>[0];
    expect(apiErrorFromService(serviceError(newer, 'x', { code: Code.FailedPrecondition }))).toBeUndefined();
    expect(
      apiErrorFromService(serviceError('QuoteAlreadyUsed', 'x', { code: Code.FailedPrecondition })),
    ).toBeUndefined();
    expect(apiErrorFromService(new ConnectError('not implemented', Code.Unimplemented))).toBeUndefined();
    expect(apiErrorFromService(new Error('boom'))).toBeUndefined();
  });
});
