// "One rule, two owners" (docs/contributing.md "One owner per rule"): a key with a space passed the
// gateway and was refused by payout after an instruction was made. Both now call platform's
// checkIdempotencyKey; this property checks the public behaviour of both entry points, so neither
// can drift back to a rule of its own: any key the gateway's reader accepts, payout's Pay accepts,
// and the reverse; and both say "missing" for the same keys. (The gateway is imported by path: it
// is the one other reader.)
import { readErrorDetail } from '@qr-payout/platform/errors';
import { silentLogger } from '@qr-payout/platform/log';
import fc from 'fast-check';
import { ApiError } from '../../../../gateway/src/errors/api-error';
import { readIdempotencyKey } from '../../../../gateway/src/idempotency/key';
import { createExecutionService } from './service';

type Verdict = 'ok' | 'missing' | 'invalid';

const PASSED = new Error('passed the key check');

// Every dependency fails the test if reached, except the first thing Pay does once the request
// is checked: resolving the QR (services/payout/README.md "Resolve and Pay"), and the key lookup
// that follows a refusal.
const unreachable = new Proxy({}, { get: () => () => Promise.reject(new Error('not reached')) });
const payout = createExecutionService({
  store: { ...(unreachable as object), findIdempotencyKey: async () => undefined } as never,
  submitter: unreachable as never,
  settlement: unreachable as never,
  signals: unreachable as never,
  logger: silentLogger(),
  defaultWaitMs: 0,
  leaseMs: 1_000,
  firstPollMs: 1_000,
  callbackBaseUrl: 'http://127.0.0.1:8080',
  resolver: { resolve: async () => Promise.reject(PASSED) } as never,
  instructions: unreachable as never,
  allowPrivateCallbackTargets: false,
});

function gatewayVerdict(key: string): Verdict {
  try {
    readIdempotencyKey([key]);
    return 'ok';
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return err.tag === 'IdempotencyKeyMissing' ? 'missing' : 'invalid';
  }
}

async function payoutVerdict(key: string): Promise<Verdict> {
  const req = { tenantId: 'ten_a', idempotencyKey: key, requestFingerprint: 'ab12', waitMs: 0 };
  const err = await payout.pay(req as never).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (err === PASSED) return 'ok';
  const detail = readErrorDetail(err);
  if (detail?.tag === 'IdempotencyKeyMissing') return 'missing';
  if (detail?.tag === 'ValidationError' && detail.field === 'idempotency_key') return 'invalid';
  throw err;
}

const keys = fc.oneof(
  fc.string({
    unit: fc.constantFrom(' ', 'a', 'Z', '~', '!', '\t', '\n', '\x7f', 'é', '\u0000'),
    maxLength: 8,
  }),
  fc.string({ unit: 'grapheme-ascii', minLength: 250, maxLength: 260 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('order 42', ' lead', 'trail ', 'k'.repeat(255), 'k'.repeat(256)),
);

describe('one Idempotency-Key rule at the gateway and in payout', () => {
  it('the gateway accepts a key exactly when payout does, and both call the same keys missing', async () => {
    await fc.assert(
      fc.asyncProperty(keys, async (key) => {
        expect(await payoutVerdict(key)).toBe(gatewayVerdict(key));
      }),
      { numRuns: 500 },
    );
  });

  it('a key with a space is accepted by both (the drift once found)', async () => {
    expect([gatewayVerdict('order 42'), await payoutVerdict('order 42')]).toEqual(['ok', 'ok']);
  });
});
