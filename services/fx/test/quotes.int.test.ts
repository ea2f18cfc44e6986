import { setTimeout as sleep } from 'node:timers/promises';
import { timestampMs } from '@bufbuild/protobuf/wkt';
import { Code, readErrorDetail } from '@qr-payout/platform/errors';
import { closeGrpcClients, createGrpcClient } from '@qr-payout/platform/grpc';
import { newId } from '@qr-payout/platform/ids';
import { FxService, type Quote, QuoteStatus } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import { testInfra } from '@qr-payout/test-kit/infra';
import { failure, type ServiceOnFreshSchema, startOnFreshSchema } from '@qr-payout/test-kit/service';
import pg from 'pg';
import { loadFxConfig, type RunningFx, startFx } from '../src/index';

const TENANT = 'ten_quotes_a';
const OTHER_TENANT = 'ten_quotes_b';

/** 100.00 BRL for the merchant. */
const HUNDRED_BRL = { currency: 'BRL', amountMinor: 10_000n };

describe('fx quotes over gRPC against PostgreSQL', () => {
  const admin = new pg.Pool({ connectionString: testInfra.databaseUrl, max: 2 });
  const running: ServiceOnFreshSchema<RunningFx>[] = [];

  async function start(extra: Record<string, string> = {}) {
    const fx = await startOnFreshSchema('fx_test', (env) => startFx(loadFxConfig(env)), {
      DB_POOL_MAX: '4',
      ...extra,
    });
    running.push(fx);
    const client = createGrpcClient(FxService, { baseUrl: fx.url, timeoutMs: 5_000 });
    return { fx, schema: fx.schema.name, client };
  }

  afterAll(async () => {
    await closeGrpcClients();
    await Promise.all(running.map((fx) => fx.stop()));
    await admin.end();
  });

  it('creates a quote on the default table, stores it, and reads it back', async () => {
    const { client, schema } = await start();
    const { quote } = await client.createQuote({
      tenantId: TENANT,
      sourceCurrency: 'USD',
      target: HUNDRED_BRL,
    });
    // mid USD→BRL 5.45, 50 bps spread: 5.42275 BRL per USD; 100.00 BRL costs ceil(18.4408…) = 18.45 USD
    expect(quote).toMatchObject({
      tenantId: TENANT,
      midRate: '5.45',
      rate: '5.42275',
      spreadBps: 50,
      source: { currency: 'USD', amountMinor: 1845n },
      target: HUNDRED_BRL,
      fee: { currency: 'USD', amountMinor: 0n },
      status: QuoteStatus.OPEN,
    });
    expect(quote?.id).toMatch(/^quo_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(lifetimeMs(quote)).toBe(60_000);

    const { rows } = await admin.query(
      `SELECT tenant_id, source_currency, target_currency, rate::text, mid_rate::text, spread_bps,
              source_minor, target_minor, fee_minor, status, consumer_id
         FROM "${schema}".quotes WHERE id = $1`,
      [quote?.id],
    );
    expect(rows).toEqual([
      {
        tenant_id: TENANT,
        source_currency: 'USD',
        target_currency: 'BRL',
        rate: '5.42275',
        mid_rate: '5.45',
        spread_bps: 50,
        source_minor: '1845',
        target_minor: '10000',
        fee_minor: '0',
        status: 'open',
        consumer_id: null,
      },
    ]);

    const read = await client.getQuote({ tenantId: TENANT, quoteId: quote?.id ?? '' });
    expect(read.quote).toEqual(quote);
  });

  it('applies FX_SPREAD_BPS, FX_FEE_BPS and FX_QUOTE_TTL_MS', async () => {
    const { client } = await start({ FX_SPREAD_BPS: '0', FX_FEE_BPS: '100', FX_QUOTE_TTL_MS: '5000' });
    const { quote } = await client.createQuote({
      tenantId: TENANT,
      sourceCurrency: 'USD',
      target: HUNDRED_BRL,
    });
    // 5.45 exactly: ceil(1834.86…) = 18.35 USD, fee 1% of 1835 = 18.35 → 19 (rounded up)
    expect(quote).toMatchObject({
      rate: '5.45',
      spreadBps: 0,
      source: { currency: 'USD', amountMinor: 1835n },
      fee: { currency: 'USD', amountMinor: 19n },
    });
    expect(lifetimeMs(quote)).toBe(5_000);
  });

  it('rounds to the minor units of 0- and 3-digit currencies from FX_RATES, through the pivot', async () => {
    const { client } = await start({
      FX_RATES: JSON.stringify({
        USD: { minor_units: 2, per_usd: '1' },
        CLP: { minor_units: 0, per_usd: '940.5' },
        KWD: { minor_units: 3, per_usd: '0.307' },
      }),
    });
    const clp = await client.createQuote({
      tenantId: TENANT,
      sourceCurrency: 'USD',
      target: { currency: 'CLP', amountMinor: 10_000n },
    });
    expect(clp.quote).toMatchObject({ rate: '935.7975', source: { currency: 'USD', amountMinor: 1069n } });

    // KWD → CLP is a cross rate (940.5 / 0.307); whatever its digits, 1 CLP is bought with the
    // fewest fils that cover it at the quoted rate.
    const { quote } = await client.createQuote({
      tenantId: TENANT,
      sourceCurrency: 'KWD',
      target: { currency: 'CLP', amountMinor: 1_000_000n },
    });
    expect(quote?.midRate).toBe('3063.51791531');
    const rate = quote?.rate ?? '';
    const fils = quote?.source?.amountMinor ?? 0n;
    // rate 3063.51791531 × 0.995 = 3048.2003…; 1,000,000 CLP / 3048.2003… = 328.0622… KWD → 328.063
    expect(fils).toBe(328_063n);
    expect(coversClp(fils, rate, 1_000_000n)).toBe(true);
    expect(coversClp(fils - 1n, rate, 1_000_000n)).toBe(false);
  });

  it('refuses what it cannot quote as ValidationError on wallet_currency or amount', async () => {
    const { client } = await start();
    const cases = [
      { sourceCurrency: 'BRL', target: HUNDRED_BRL, field: 'wallet_currency' },
      { sourceCurrency: 'CLP', target: HUNDRED_BRL, field: 'wallet_currency' },
      { sourceCurrency: 'usd', target: HUNDRED_BRL, field: 'wallet_currency' },
      { sourceCurrency: 'USD', target: { currency: 'XAU', amountMinor: 1n }, field: 'wallet_currency' },
      { sourceCurrency: 'USD', target: { currency: 'BRL', amountMinor: 0n }, field: 'amount' },
      { sourceCurrency: 'USD', target: undefined, field: 'amount' },
    ];
    for (const { field, ...request } of cases) {
      const err = await failure(client.createQuote({ tenantId: TENANT, ...request }));
      expect({ request, code: err.code, detail: readErrorDetail(err) }).toMatchObject({
        request,
        code: Code.InvalidArgument,
        detail: { tag: 'ValidationError', field },
      });
    }
    const noTenant = await failure(client.createQuote({ sourceCurrency: 'USD', target: HUNDRED_BRL }));
    expect(readErrorDetail(noTenant)).toMatchObject({ tag: 'ValidationError', field: 'tenant_id' });
  });

  it('confirms once: a retry by the same consumer succeeds, another consumer is refused', async () => {
    const { client, schema } = await start();
    const { quote } = await client.createQuote({
      tenantId: TENANT,
      sourceCurrency: 'EUR',
      target: HUNDRED_BRL,
    });
    const quoteId = quote?.id ?? '';
    const consumer = newId('txn');

    const first = await client.confirmQuote({ tenantId: TENANT, quoteId, consumerId: consumer });
    expect(first.quote).toMatchObject({ id: quoteId, status: QuoteStatus.CONFIRMED, rate: quote?.rate });
    const retry = await client.confirmQuote({ tenantId: TENANT, quoteId, consumerId: consumer });
    expect(retry.quote).toEqual(first.quote);

    const other = await failure(client.confirmQuote({ tenantId: TENANT, quoteId, consumerId: newId('txn') }));
    expect(other.code).toBe(Code.FailedPrecondition);
    expect(readErrorDetail(other)).toMatchObject({
      tag: 'QuoteAlreadyUsed',
      metadata: { quote_id: quoteId },
    });

    const read = await client.getQuote({ tenantId: TENANT, quoteId });
    expect(read.quote?.status).toBe(QuoteStatus.CONFIRMED);
    const { rows } = await admin.query(`SELECT consumer_id FROM "${schema}".quotes WHERE id = $1`, [quoteId]);
    expect(rows).toEqual([{ consumer_id: consumer }]);
  });

  it('refuses an expired quote by the database clock, and reads it as expired', async () => {
    const { client, schema } = await start({ FX_QUOTE_TTL_MS: '300' });
    const { quote } = await client.createQuote({
      tenantId: TENANT,
      sourceCurrency: 'USD',
      target: HUNDRED_BRL,
    });
    const quoteId = quote?.id ?? '';
    await waitUntilDatabasePasses(quote?.expiresAt ? new Date(timestampMs(quote.expiresAt)) : new Date());

    const read = await client.getQuote({ tenantId: TENANT, quoteId });
    expect(read.quote?.status).toBe(QuoteStatus.EXPIRED);
    const err = await failure(client.confirmQuote({ tenantId: TENANT, quoteId, consumerId: newId('txn') }));
    expect(err.code).toBe(Code.FailedPrecondition);
    expect(readErrorDetail(err)).toMatchObject({ tag: 'QuoteExpired', field: 'quote_id' });
    const { rows } = await admin.query(`SELECT status FROM "${schema}".quotes WHERE id = $1`, [quoteId]);
    expect(rows).toEqual([{ status: 'open' }]);
  });

  it('a confirmed quote stays confirmed for its consumer after its expiry', async () => {
    const { client } = await start({ FX_QUOTE_TTL_MS: '300' });
    const { quote } = await client.createQuote({
      tenantId: TENANT,
      sourceCurrency: 'USD',
      target: HUNDRED_BRL,
    });
    const quoteId = quote?.id ?? '';
    const consumer = newId('txn');
    await client.confirmQuote({ tenantId: TENANT, quoteId, consumerId: consumer });
    await waitUntilDatabasePasses(quote?.expiresAt ? new Date(timestampMs(quote.expiresAt)) : new Date());
    const retry = await client.confirmQuote({ tenantId: TENANT, quoteId, consumerId: consumer });
    expect(retry.quote?.status).toBe(QuoteStatus.CONFIRMED);
  });

  it("scopes quotes to their tenant: another tenant's id is NOT_FOUND and cannot be confirmed", async () => {
    const { client } = await start();
    const { quote } = await client.createQuote({
      tenantId: TENANT,
      sourceCurrency: 'USD',
      target: HUNDRED_BRL,
    });
    const quoteId = quote?.id ?? '';
    for (const call of [
      client.getQuote({ tenantId: OTHER_TENANT, quoteId }),
      client.confirmQuote({ tenantId: OTHER_TENANT, quoteId, consumerId: newId('txn') }),
      client.getQuote({ tenantId: TENANT, quoteId: newId('quo') }),
      client.getQuote({ tenantId: TENANT, quoteId: 'not-a-quote-id' }),
    ]) {
      const err = await failure(call);
      expect({ code: err.code, detail: readErrorDetail(err) }).toMatchObject({
        code: Code.NotFound,
        detail: { tag: 'NotFoundError', field: 'quote_id' },
      });
    }
    const read = await client.getQuote({ tenantId: TENANT, quoteId });
    expect(read.quote?.status).toBe(QuoteStatus.OPEN);
  });

  it('20 parallel confirms by different consumers: exactly one wins', async () => {
    const { client, schema } = await start({ DB_POOL_MAX: '20' });
    const { quote } = await client.createQuote({
      tenantId: TENANT,
      sourceCurrency: 'USD',
      target: HUNDRED_BRL,
    });
    const quoteId = quote?.id ?? '';
    const consumers = Array.from({ length: 20 }, () => newId('txn'));
    const results = await Promise.allSettled(
      consumers.map((consumerId) => client.confirmQuote({ tenantId: TENANT, quoteId, consumerId })),
    );
    const winners = results.flatMap((result, i) => (result.status === 'fulfilled' ? [consumers[i]] : []));
    const refusals = results.flatMap((result) =>
      result.status === 'rejected' ? [readErrorDetail(result.reason)?.tag] : [],
    );
    expect(winners).toHaveLength(1);
    expect(refusals).toEqual(Array(19).fill('QuoteAlreadyUsed'));
    const { rows } = await admin.query(`SELECT status, consumer_id FROM "${schema}".quotes WHERE id = $1`, [
      quoteId,
    ]);
    expect(rows).toEqual([{ status: 'confirmed', consumer_id: winners[0] }]);
  });

  async function waitUntilDatabasePasses(instant: Date): Promise<void> {
    for (;;) {
      const { rows } = await admin.query<{ past: boolean }>('SELECT now() > $1::timestamptz AS past', [
        instant,
      ]);
      if (rows[0]?.past) return;
      await sleep(50);
    }
  }
});

function lifetimeMs(quote: Quote | undefined): number {
  if (!quote?.createdAt || !quote.expiresAt) throw new Error('quote without timestamps');
  return timestampMs(quote.expiresAt) - timestampMs(quote.createdAt);
}

/** Whether `fils` (KWD, 3 minor digits) buy at least `clp` (0 minor digits) at `rate`, exactly. */
function coversClp(fils: bigint, rate: string, clp: bigint): boolean {
  const [whole, fraction = ''] = rate.split('.');
  // fils / 1000 × rate ≥ clp, both sides multiplied by 1000 × 10^(rate's fractional digits)
  return fils * BigInt(`${whole}${fraction}`) >= clp * 1000n * 10n ** BigInt(fraction.length);
}
