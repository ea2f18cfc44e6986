// The payer's document end to end inside payout (docs/payer-identity.md): ExecuteInstruction over
// real gRPC checks it by its issuing country, stores it, and the real partner simulator records
// the originator payout sent (residency, document); ListPayerIdentityRules publishes the rules.
import { readErrorDetail } from '@qr-payout/platform/errors';
import { type Payer, TransactionStatus } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { SIM_API_KEY } from '@qr-payout/test-kit/partner-sim';
import { failure } from '@qr-payout/test-kit/service';
import {
  executeRequest,
  fingerprintOf,
  newInstruction,
  startWorld,
  tenant,
  type World,
} from './execute-harness';

type Originator = {
  name: string;
  account: string;
  residency: string;
  document: { type: string; number: string; issuing_country: string | null };
};

describe('payer identity', () => {
  let world: World;

  beforeAll(async () => {
    world = await startWorld();
  });

  afterAll(async () => {
    await world?.close();
  });

  /** Executes a new Pix instruction (BR) for `payer`; the transaction and the partner's record. */
  async function pay(payer: Omit<Payer, '$typeName' | '$unknown'>) {
    const tenantId = tenant();
    const instructionId = await newInstruction(world, tenantId, 1_000n);
    const { transaction } = await world.client.executeInstruction(
      executeRequest(tenantId, instructionId, { payer, requestFingerprint: fingerprintOf(payer) }),
    );
    const response = await fetch(
      `${world.sim.baseUrl}/v1/payouts?idempotency_key=${encodeURIComponent(transaction!.id)}`,
      { headers: { authorization: `Bearer ${SIM_API_KEY}` } },
    );
    const { debtor } = (await response.json()) as { debtor: Originator };
    const { rows } = await world.admin.query(
      `SELECT payer_tax_id, payer_country, payer_id_type FROM "${world.schema}".transactions WHERE id = $1`,
      [transaction!.id],
    );
    return { transaction: transaction!, debtor, row: rows[0] };
  }

  it('sends a foreign payer as a non-resident with their own country’s document, checked and normalized', async () => {
    const { transaction, debtor, row } = await pay({
      name: 'Juan Pérez',
      account: 'AR-0001',
      taxId: '20-16247586-0',
      country: 'AR',
      idType: 'tax_id',
    });
    expect(transaction.status).toBe(TransactionStatus.COMPLETED);
    expect(debtor).toEqual({
      name: 'Juan Pérez',
      account: 'AR-0001',
      residency: 'non_resident',
      document: { type: 'tax_id', number: '20162475860', issuing_country: 'AR' },
    });
    expect(row).toEqual({ payer_tax_id: '20162475860', payer_country: 'AR', payer_id_type: 'tax_id' });
  });

  it('sends an id without country or type as an undeclared foreign identifier, as written', async () => {
    const { transaction, debtor, row } = await pay({
      name: 'Jane Roe',
      account: 'US-9',
      taxId: 'X 1234/567',
    });
    expect(transaction.status).toBe(TransactionStatus.COMPLETED);
    expect(debtor).toMatchObject({
      residency: 'non_resident',
      document: { type: 'undeclared', number: 'X 1234/567', issuing_country: null },
    });
    expect(row).toEqual({ payer_tax_id: 'X 1234/567', payer_country: null, payer_id_type: null });
  });

  it('sends a payer of the merchant’s country as a resident, the type inferred from its format', async () => {
    const { debtor, row } = await pay({
      name: 'Ana Souza',
      account: '1',
      taxId: '529.982.247-25',
      country: 'BR',
    });
    expect(debtor).toMatchObject({
      residency: 'resident',
      document: { type: 'tax_id', number: '52998224725', issuing_country: 'BR' },
    });
    expect(row.payer_id_type).toBe('tax_id');
  });

  it('takes a passport of any country by its format', async () => {
    const { debtor } = await pay({
      name: 'Hans Meier',
      account: 'DE-1',
      taxId: 'c01x00t47',
      country: 'DE',
      idType: 'passport',
    });
    expect(debtor.document).toEqual({ type: 'passport', number: 'C01X00T47', issuing_country: 'DE' });
  });

  it.each([
    [
      { taxId: '20-16247586-1', country: 'AR', idType: 'tax_id' },
      'payer_tax_id',
      'payer_tax_id is not a valid CUIT/CUIL',
    ],
    [{ taxId: '123', country: 'Argentina' }, 'payer_country', undefined],
    [{ taxId: '123', country: 'AR', idType: 'cuit' }, 'payer_id_type', undefined],
    [{ taxId: '123', idType: 'passport' }, 'payer_country', undefined],
  ])('refuses %j naming %s and writes nothing', async (fields, field, message) => {
    const tenantId = tenant();
    const instructionId = await newInstruction(world, tenantId, 1_000n);
    const payer = { name: 'Juan Pérez', account: 'AR-0001', ...fields };
    const err = await failure(
      world.client.executeInstruction(executeRequest(tenantId, instructionId, { payer })),
    );
    expect(readErrorDetail(err)).toMatchObject({
      tag: 'ValidationError',
      field,
      ...(message ? { message } : {}),
    });
    const { rows } = await world.admin.query(
      `SELECT count(*)::int AS n FROM "${world.schema}".transactions WHERE instruction_id = $1`,
      [instructionId],
    );
    expect(rows[0].n).toBe(0);
  });

  it('publishes the rules it checks with', async () => {
    const rules = await world.client.listPayerIdentityRules({});
    expect(rules.fields.map((f) => [f.field, f.required])).toEqual([
      ['payer_name', true],
      ['payer_account', true],
      ['payer_tax_id', true],
      ['payer_country', false],
      ['payer_id_type', false],
    ]);
    const countries = new Set(rules.documents.map((d) => d.country));
    for (const country of ['AR', 'BO', 'BR', 'CO', 'PE', 'US']) expect(countries).toContain(country);
    expect(rules.passportFormat).toMatch(/ICAO 9303/);
  });
});
