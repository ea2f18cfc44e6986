// The payer's own identity on every rail (docs/payer-identity.md), end to end: gateway, decoder,
// fx, payout, webhook and the partner simulator as separate processes against real PostgreSQL,
// Redis and Kafka. For each of the five countries a foreign payer pays with a declared document
// and with an undeclared one, and a resident pays with a local one; the simulator's record of the
// payout (GET /v1/payouts?idempotency_key=) shows the originator payout sent. A declared document
// with bad check digits is 400 ValidationError naming payer_tax_id, and nothing is paid.
import { randomBytes, randomUUID } from 'node:crypto';
import { MERCHANT_QRS } from '@qr-payout/test-kit/qrs';
import { type System, startSystem, type TestTenant } from './harness';
import { expectErrorBody } from './support/error-body';
import { type ApiResponse, call } from './support/http';

jest.setTimeout(180_000);

// The simulator's sandbox bearer key (PARTNER_SIM_API_KEY unset, as payout's PARTNER_API_KEY).
const SIM_API_KEY = 'sim_key';

let system: System;
let tenant: TestTenant;

beforeAll(async () => {
  system = await startSystem();
  tenant = await system.createTenant(`e2e-payer-${randomBytes(4).toString('hex')}`, 1_000);
}, 240_000);

afterAll(async () => {
  await system?.stop();
}, 60_000);

type Originator = {
  name: string;
  account: string;
  residency: 'resident' | 'non_resident';
  document: { type: string; number: string; issuing_country: string | null };
};

type Payer = { payer_tax_id: string; payer_country?: string; payer_id_type?: string };

type Case = {
  country: string;
  /** A foreign payer's declared document, as sent and as the partner must receive it. */
  foreign: Payer & { number: string; type: string };
  /** A resident's local document. */
  resident: Payer & { number: string; type: string };
  /** A declared document whose check digits are wrong. */
  badCheckDigits: Payer;
};

const CASES: Case[] = [
  {
    country: 'BR',
    foreign: {
      payer_tax_id: '20-16247586-0',
      payer_country: 'AR',
      payer_id_type: 'tax_id',
      number: '20162475860',
      type: 'tax_id',
    },
    resident: {
      payer_tax_id: '529.982.247-25',
      payer_country: 'BR',
      payer_id_type: 'tax_id',
      number: '52998224725',
      type: 'tax_id',
    },
    badCheckDigits: { payer_tax_id: '20-16247586-1', payer_country: 'AR', payer_id_type: 'tax_id' },
  },
  {
    country: 'AR',
    foreign: {
      payer_tax_id: '529.982.247-25',
      payer_country: 'BR',
      payer_id_type: 'tax_id',
      number: '52998224725',
      type: 'tax_id',
    },
    // No type: inferred from the Argentine formats (7 or 8 digits are a DNI).
    resident: { payer_tax_id: '12.345.678', payer_country: 'AR', number: '12345678', type: 'national_id' },
    badCheckDigits: { payer_tax_id: '529.982.247-26', payer_country: 'BR', payer_id_type: 'tax_id' },
  },
  {
    country: 'CO',
    foreign: {
      payer_tax_id: '123-45-6789',
      payer_country: 'US',
      payer_id_type: 'tax_id',
      number: '123456789',
      type: 'tax_id',
    },
    resident: {
      payer_tax_id: '800.197.268-4',
      payer_country: 'CO',
      payer_id_type: 'tax_id',
      number: '8001972684',
      type: 'tax_id',
    },
    badCheckDigits: { payer_tax_id: '800.197.268-5', payer_country: 'CO', payer_id_type: 'tax_id' },
  },
  {
    country: 'PE',
    foreign: {
      payer_tax_id: '12.345.678-5',
      payer_country: 'CL',
      payer_id_type: 'national_id',
      number: '123456785',
      type: 'national_id',
    },
    resident: {
      payer_tax_id: '45678912',
      payer_country: 'PE',
      payer_id_type: 'national_id',
      number: '45678912',
      type: 'national_id',
    },
    badCheckDigits: { payer_tax_id: '20100047219', payer_country: 'PE', payer_id_type: 'tax_id' },
  },
  {
    country: 'BO',
    foreign: {
      payer_tax_id: 'c01x00t47',
      payer_country: 'DE',
      payer_id_type: 'passport',
      number: 'C01X00T47',
      type: 'passport',
    },
    resident: {
      payer_tax_id: '1234567-1b',
      payer_country: 'BO',
      payer_id_type: 'national_id',
      number: '1234567-1B',
      type: 'national_id',
    },
    badCheckDigits: { payer_tax_id: '12.345.678-4', payer_country: 'CL', payer_id_type: 'tax_id' },
  },
];

function qrOf(country: string) {
  const qr = MERCHANT_QRS.find((q) => q.country === country);
  if (!qr) throw new Error(`no merchant QR of ${country}`);
  // A QR without an amount (Peru's Yape) gets one from the request: 10.00 settles
  // (docs/architecture.md "Rails and partners").
  return { qr_string: qr.qrString, ...(qr.amount === undefined ? { amount: 10 } : {}) };
}

function pay(country: string, payer: Payer): Promise<ApiResponse> {
  const { payer_tax_id, payer_country, payer_id_type } = payer;
  return call(system.gatewayUrl, '/v1/pay', {
    apiKey: tenant.apiKey,
    contentType: 'application/json',
    headers: { 'idempotency-key': randomUUID() },
    body: JSON.stringify({
      ...qrOf(country),
      payer_name: 'Alex Traveller',
      payer_account: 'WALLET-0042',
      payer_tax_id,
      ...(payer_country !== undefined ? { payer_country } : {}),
      ...(payer_id_type !== undefined ? { payer_id_type } : {}),
    }),
  });
}

/** Waits for the transaction of a pay to complete; its id. */
async function completed(res: ApiResponse): Promise<string> {
  expect(res.status).toBe(200);
  const id = (res.json!.transaction as { id: string }).id;
  const until = Date.now() + 20_000;
  for (;;) {
    const read = await call(system.gatewayUrl, `/v1/transactions/${id}`, { apiKey: tenant.apiKey });
    const status = (read.json!.transaction as { status: string }).status;
    if (status === 'completed') {
      // Payer data is never shown on the transaction.
      expect(read.text).not.toMatch(/payer|WALLET-0042|Alex Traveller/);
      return id;
    }
    if (status === 'failed' || Date.now() > until) throw new Error(`transaction ${id} is ${status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** What the partner recorded as the originator of our transaction. */
async function originatorAtPartner(transactionId: string): Promise<Originator> {
  const res = await fetch(
    `${system.partnerSimUrl}/v1/payouts?idempotency_key=${encodeURIComponent(transactionId)}`,
    { headers: { authorization: `Bearer ${SIM_API_KEY}` }, signal: AbortSignal.timeout(5_000) },
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { debtor: Originator }).debtor;
}

describe.each(CASES)('paying a merchant of $country', (c) => {
  it('a foreign payer with a declared document completes and the partner records a non-resident with it', async () => {
    const txn = await completed(await pay(c.country, c.foreign));
    expect(await originatorAtPartner(txn)).toEqual({
      name: 'Alex Traveller',
      account: 'WALLET-0042',
      residency: 'non_resident',
      document: { type: c.foreign.type, number: c.foreign.number, issuing_country: c.foreign.payer_country },
    });
  });

  it('a foreign payer without payer_country or payer_id_type completes as an undeclared foreign identifier', async () => {
    const txn = await completed(await pay(c.country, { payer_tax_id: 'P-7781 2024' }));
    expect(await originatorAtPartner(txn)).toMatchObject({
      residency: 'non_resident',
      document: { type: 'undeclared', number: 'P-7781 2024', issuing_country: null },
    });
  });

  it('a resident payer with a local document still pays, recorded as a resident', async () => {
    const txn = await completed(await pay(c.country, c.resident));
    expect(await originatorAtPartner(txn)).toMatchObject({
      residency: 'resident',
      document: { type: c.resident.type, number: c.resident.number, issuing_country: c.country },
    });
  });

  it('bad check digits for a declared country are 400 ValidationError naming payer_tax_id', async () => {
    const res = await pay(c.country, c.badCheckDigits);
    expectErrorBody(res, 400, 'ValidationError', `${system.gatewayUrl}/docs`);
    expect(res.json?.message).toMatch(/^payer_tax_id is not a valid /);
  });
});

describe('declaring the document', () => {
  it('executes a resolved instruction with the payer’s document, as pay does', async () => {
    const resolved = await call(system.gatewayUrl, '/v1/resolve', {
      apiKey: tenant.apiKey,
      contentType: 'application/json',
      body: JSON.stringify(qrOf('BR')),
    });
    expect(resolved.status).toBe(200);
    const executed = await call(system.gatewayUrl, '/v1/execute', {
      apiKey: tenant.apiKey,
      contentType: 'application/json',
      headers: { 'idempotency-key': randomUUID() },
      body: JSON.stringify({
        instruction_id: (resolved.json!.instruction as { id: string }).id,
        payer_name: 'Alex Traveller',
        payer_account: 'WALLET-0042',
        payer_tax_id: 'X1234567L',
        payer_country: 'ES',
      }),
    });
    const txn = await completed(executed);
    expect((await originatorAtPartner(txn)).document).toEqual({
      type: 'tax_id',
      number: 'X1234567L',
      issuing_country: 'ES',
    });
  });

  it('a Colombian NIT without its dash is never sent as a CC: 400 naming payer_id_type, paid as tax_id once declared', async () => {
    const undeclared = await pay('CO', { payer_tax_id: '9001234568', payer_country: 'CO' });
    expectErrorBody(undeclared, 400, 'ValidationError', `${system.gatewayUrl}/docs`);
    expect(undeclared.json?.message).toMatch(
      /^payer_id_type is required: .*tax_id for a NIT or national_id for a CC$/,
    );
    const txn = await completed(
      await pay('CO', { payer_tax_id: '9001234568', payer_country: 'CO', payer_id_type: 'tax_id' }),
    );
    expect(await originatorAtPartner(txn)).toMatchObject({
      residency: 'resident',
      document: { type: 'tax_id', number: '9001234568', issuing_country: 'CO' },
    });
  });

  it('null payer_country, payer_id_type and callback_url are "not set": an undeclared foreign id', async () => {
    const res = await call(system.gatewayUrl, '/v1/pay', {
      apiKey: tenant.apiKey,
      contentType: 'application/json',
      headers: { 'idempotency-key': randomUUID() },
      body: JSON.stringify({
        ...qrOf('BR'),
        wallet_currency: null,
        payer_name: 'Alex Traveller',
        payer_account: 'WALLET-0042',
        payer_tax_id: 'P-7781 2024',
        payer_country: null,
        payer_id_type: null,
        callback_url: null,
      }),
    });
    const txn = await completed(res);
    expect(await originatorAtPartner(txn)).toMatchObject({
      residency: 'non_resident',
      document: { type: 'undeclared', number: 'P-7781 2024', issuing_country: null },
    });
  });

  it.each([
    [{ payer_tax_id: '123', payer_country: 'XX' }, /^payer_country XX is not an assigned ISO 3166-1 alpha-2/],
    [{ payer_tax_id: '123', payer_country: 'Brazil' }, /^payer_country /],
    [{ payer_tax_id: '123', payer_country: 'BR', payer_id_type: 'cpf' }, /^payer_id_type /],
    [{ payer_tax_id: 'C01X00T47', payer_id_type: 'passport' }, /^payer_country is required/],
  ])('%j is 400 ValidationError naming the field', async (payer, message) => {
    const res = await pay('BR', payer);
    expectErrorBody(res, 400, 'ValidationError', `${system.gatewayUrl}/docs`);
    expect(res.json?.message).toMatch(message);
  });

  it('GET /v1/schemes states once what every scheme accepts of the payer', async () => {
    const res = await call(system.gatewayUrl, '/v1/schemes', { apiKey: tenant.apiKey });
    const identity = res.json!.payer_identity as {
      fields: { field: string; required: boolean }[];
      documents: { country: string }[];
    };
    expect(identity.fields.filter((f) => f.required).map((f) => f.field)).toEqual([
      'payer_name',
      'payer_account',
      'payer_tax_id',
    ]);
    expect(identity.fields.filter((f) => !f.required).map((f) => f.field)).toEqual([
      'payer_country',
      'payer_id_type',
    ]);
    const countries = new Set(identity.documents.map((d) => d.country));
    for (const country of ['AR', 'BO', 'BR', 'CO', 'PE', 'US']) expect(countries).toContain(country);
    // The catalogue is compact: the payer rules are not repeated per scheme.
    expect(res.text.length).toBeLessThan(12_000);
  });
});
