import { Code, ConnectError, serviceError } from '@qr-payout/platform';
import { apiErrorFromService } from './from-service';

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

  it('leaves anything else to the 500 rule (unknown tags, other codes, plain errors)', () => {
    expect(
      apiErrorFromService(serviceError('SomethingNew', 'x', { code: Code.FailedPrecondition })),
    ).toBeUndefined();
    expect(apiErrorFromService(new ConnectError('not implemented', Code.Unimplemented))).toBeUndefined();
    expect(apiErrorFromService(new Error('boom'))).toBeUndefined();
  });
});
