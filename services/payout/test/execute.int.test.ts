// ExecuteInstruction / ApplyPartnerCallback over real gRPC against real PostgreSQL, the real
// partner simulator over HTTP and real fx: every sandbox outcome
// (docs/api/sandbox.md "Test amounts") by its named path with exactly one outbox event,
// idempotent replay and conflict, quotes, one execution per instruction.
import { Code } from '@connectrpc/connect';
import { readErrorDetail } from '@qr-payout/platform/errors';
import { newId } from '@qr-payout/platform/ids';
import { QuoteStatus } from '@qr-payout/proto/payout/fx/v1/fx_pb';
import { TransactionStatus } from '@qr-payout/proto/payout/payout/v1/payout_pb';
import { failure } from '@qr-payout/test-kit/service';
import {
  eventually,
  executeRequest,
  FIRST_POLL_MS,
  newInstruction,
  outboxEvents,
  outboxEventTransactions,
  partnerCallback,
  pixQr,
  simStats,
  startWorld,
  tenant,
  type World,
} from './execute-harness';

const PIX_E2E_ID = /^E[0-9]{8}[0-9]{12}[a-zA-Z0-9]{11}$/;

describe('payout execute', () => {
  let world: World;

  beforeAll(async () => {
    world = await startWorld();
    // Every write of a transaction row, with the status it left: how many writes a payment costs
    // and which states were ever stored (README "Execute" step 4).
    const s = `"${world.schema}"`;
    await world.admin.query(`
      CREATE TABLE ${s}.status_writes (
        seq bigint GENERATED ALWAYS AS IDENTITY, transaction_id text NOT NULL, status text NOT NULL);
      CREATE FUNCTION ${s}.record_status_write() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN INSERT INTO ${s}.status_writes (transaction_id, status) VALUES (NEW.id, NEW.status);
        RETURN NEW; END $$;
      CREATE TRIGGER record_status_write AFTER INSERT OR UPDATE ON ${s}.transactions
        FOR EACH ROW EXECUTE FUNCTION ${s}.record_status_write();`);
  });

  async function statusWrites(transactionId: string): Promise<string[]> {
    const { rows } = await world.admin.query<{ status: string }>(
      `SELECT status FROM "${world.schema}".status_writes WHERE transaction_id = $1 ORDER BY seq`,
      [transactionId],
    );
    return rows.map((row) => row.status);
  }

  afterAll(async () => {
    await world?.close();
  });

  async function transactionOf(tenantId: string, transactionId: string) {
    return (await world.client.getTransaction({ tenantId, transactionId })).transaction!;
  }

  /**
   * The transaction as its outbox event carries it: the stored row. Its instruction's country,
   * creditor and quote are what the read paths add (GetTransaction, execute's answer).
   */
  async function storedTransactionOf(tenantId: string, transactionId: string) {
    return {
      ...(await transactionOf(tenantId, transactionId)),
      country: '',
      creditor: undefined,
      quote: undefined,
    };
  }

  it('any other amount: completed through the partner callback within the wait', async () => {
    const tenantId = tenant();
    const instructionId = await newInstruction(world, tenantId, 1250n);
    const started = Date.now();
    const { transaction, replayed } = await world.client.executeInstruction(
      executeRequest(tenantId, instructionId),
    );
    expect(replayed).toBe(false);
    expect(transaction).toMatchObject({
      tenantId,
      instructionId,
      status: TransactionStatus.COMPLETED,
      rail: 'pix',
    });
    expect(transaction?.result?.reference).toMatch(PIX_E2E_ID);
    expect(transaction?.error).toBeUndefined();
    // Settled before the worker's first poll: the callback did it.
    expect(Date.now() - started).toBeLessThan(FIRST_POLL_MS);
    expect(world.callbacks.get(transaction!.id)?.[0]).toMatchObject({ status: 'ACSC' });
    expect(await outboxEvents(world, transaction!.id)).toEqual(['transaction.completed']);
    // The event carries the transaction exactly as stored, updated_at included.
    expect(await outboxEventTransactions(world, transaction!.id)).toEqual([
      await storedTransactionOf(tenantId, transaction!.id),
    ]);
    expect((await simStats(world)).submissions[transaction!.id]).toBe(1);
    // The partner's ACSP was held by the waiting call, never written: the callback settled the
    // pending row directly and stored the partner's payout id.
    expect(await statusWrites(transaction!.id)).toEqual(['pending', 'completed']);
    const { rows } = await world.admin.query<{ partner_payout_id: string | null }>(
      `SELECT partner_payout_id FROM "${world.schema}".transactions WHERE id = $1`,
      [transaction!.id],
    );
    expect(rows[0]?.partner_payout_id).toBe(world.callbacks.get(transaction!.id)?.[0]?.id);
  });

  it('51: failed at once with AC03 in the POST answer; the later callback changes nothing', async () => {
    const tenantId = tenant();
    const instructionId = await newInstruction(world, tenantId, 151n);
    const { transaction } = await world.client.executeInstruction(executeRequest(tenantId, instructionId));
    expect(transaction?.status).toBe(TransactionStatus.FAILED);
    expect(transaction?.error).toMatchObject({ code: 'AC03', partnerStatus: 'RJCT' });
    expect(transaction?.error?.reason).not.toBe('');
    expect(transaction?.result).toBeUndefined();
    await eventually(
      async () => world.callbacks.get(transaction!.id)?.length ?? 0,
      (n) => n > 0,
    );
    expect(await transactionOf(tenantId, transaction!.id)).toEqual(transaction);
    expect(await outboxEvents(world, transaction!.id)).toEqual(['transaction.failed']);
    expect(await outboxEventTransactions(world, transaction!.id)).toEqual([
      await storedTransactionOf(tenantId, transaction!.id),
    ]);
  });

  it('52: completed through polling only (no callback)', async () => {
    const tenantId = tenant();
    const instructionId = await newInstruction(world, tenantId, 252n);
    const { transaction } = await world.client.executeInstruction(executeRequest(tenantId, instructionId));
    expect(transaction?.status).toBe(TransactionStatus.COMPLETED);
    expect(transaction?.result?.reference).toMatch(PIX_E2E_ID);
    expect(world.callbacks.get(transaction!.id)).toBeUndefined();
    expect(await outboxEvents(world, transaction!.id)).toEqual(['transaction.completed']);
    // No callback: the held acceptance was written as processing when the first poll was due,
    // and the worker's poll settled it.
    const writes = await statusWrites(transaction!.id);
    expect(writes.slice(0, 2)).toEqual(['pending', 'processing']);
    expect(writes.at(-1)).toBe('completed');
  });

  it('53: failed with AM04 through polling only', async () => {
    const tenantId = tenant();
    const instructionId = await newInstruction(world, tenantId, 353n);
    const { transaction } = await world.client.executeInstruction(executeRequest(tenantId, instructionId));
    expect(transaction?.status).toBe(TransactionStatus.FAILED);
    expect(transaction?.error).toMatchObject({
      code: 'AM04',
      partnerStatus: 'RJCT',
      reason: 'insufficient funds',
    });
    expect(world.callbacks.get(transaction!.id)).toBeUndefined();
    expect(await outboxEvents(world, transaction!.id)).toEqual(['transaction.failed']);
  });

  it('54: execute answers processing; the slow callback completes it later', async () => {
    const tenantId = tenant();
    const instructionId = await newInstruction(world, tenantId, 454n);
    const { transaction } = await world.client.executeInstruction(
      executeRequest(tenantId, instructionId, { waitMs: 200 }),
    );
    // The call stopped waiting before the first poll: it wrote processing before answering.
    expect(transaction?.status).toBe(TransactionStatus.PROCESSING);
    expect(transaction?.result).toBeUndefined();
    expect(await statusWrites(transaction!.id)).toEqual(['pending', 'processing']);
    const settled = await eventually(
      () => transactionOf(tenantId, transaction!.id),
      (t) => t.status === TransactionStatus.COMPLETED,
    );
    expect(settled.status).toBe(TransactionStatus.COMPLETED);
    expect(world.callbacks.get(transaction!.id)?.[0]).toMatchObject({ status: 'ACSC' });
    expect(await outboxEvents(world, transaction!.id)).toEqual(['transaction.completed']);
  });

  it('the same key and fingerprint replays the transaction; nothing is submitted twice', async () => {
    const tenantId = tenant();
    const instructionId = await newInstruction(world, tenantId, 1300n);
    const request = executeRequest(tenantId, instructionId);
    const first = await world.client.executeInstruction(request);
    const again = await world.client.executeInstruction(request);
    expect(again.replayed).toBe(true);
    expect(again.transaction).toEqual(first.transaction);
    expect((await simStats(world)).submissions[first.transaction!.id]).toBe(1);
    expect(await outboxEvents(world, first.transaction!.id)).toEqual(['transaction.completed']);
  });

  it('the same key with another fingerprint is IdempotencyConflict', async () => {
    const tenantId = tenant();
    const instructionId = await newInstruction(world, tenantId, 1400n);
    const request = executeRequest(tenantId, instructionId);
    await world.client.executeInstruction(request);
    const err = await failure(
      world.client.executeInstruction({ ...request, requestFingerprint: 'f'.repeat(64) }),
    );
    expect(err.code).toBe(Code.InvalidArgument);
    expect(readErrorDetail(err)).toMatchObject({ tag: 'IdempotencyConflict', field: 'idempotency_key' });
  });

  it('a taken key with another body is IdempotencyConflict even when that body names no instruction', async () => {
    const tenantId = tenant();
    const request = executeRequest(tenantId, await newInstruction(world, tenantId, 1450n));
    await world.client.executeInstruction(request);
    // The key is looked up only once the request fails its own checks: the key still decides.
    const err = await failure(
      world.client.executeInstruction({
        ...request,
        instructionId: newId('ins'),
        requestFingerprint: 'e'.repeat(64),
      }),
    );
    expect(readErrorDetail(err)).toMatchObject({ tag: 'IdempotencyConflict', field: 'idempotency_key' });
  });

  it('keys are per tenant: another tenant may use the same key', async () => {
    const [a, b] = [tenant(), tenant()];
    const key = newId('idk');
    const ta = await world.client.executeInstruction(
      executeRequest(a, await newInstruction(world, a, 1500n), { idempotencyKey: key }),
    );
    const tb = await world.client.executeInstruction(
      executeRequest(b, await newInstruction(world, b, 1500n), { idempotencyKey: key }),
    );
    expect(tb.replayed).toBe(false);
    expect(tb.transaction?.id).not.toBe(ta.transaction?.id);
  });

  it('a key past its 24 hours is free again (the instruction still executes once)', async () => {
    const tenantId = tenant();
    const key = newId('idk');
    const first = await world.client.executeInstruction(
      executeRequest(tenantId, await newInstruction(world, tenantId, 1600n), { idempotencyKey: key }),
    );
    await world.admin.query(
      `UPDATE "${world.schema}".idempotency_keys
          SET created_at = now() - interval '25 hours', expires_at = now() - interval '1 hour'
        WHERE tenant_id = $1 AND key = $2`,
      [tenantId, key],
    );
    const second = await world.client.executeInstruction(
      executeRequest(tenantId, await newInstruction(world, tenantId, 1700n), { idempotencyKey: key }),
    );
    expect(second.replayed).toBe(false);
    expect(second.transaction?.id).not.toBe(first.transaction?.id);
  });

  it('the retention job deletes keys past their 24 hours, and only those', async () => {
    const tenantId = tenant();
    const live = await world.client.executeInstruction(
      executeRequest(tenantId, await newInstruction(world, tenantId, 1650n)),
    );
    const expired = await world.client.executeInstruction(
      executeRequest(tenantId, await newInstruction(world, tenantId, 1660n)),
    );
    await world.admin.query(
      `UPDATE "${world.schema}".idempotency_keys
          SET created_at = now() - interval '25 hours', expires_at = now() - interval '1 hour'
        WHERE transaction_id = $1`,
      [expired.transaction!.id],
    );
    const keysOf = async () =>
      (
        await world.admin.query<{ transaction_id: string }>(
          `SELECT transaction_id FROM "${world.schema}".idempotency_keys WHERE tenant_id = $1`,
          [tenantId],
        )
      ).rows.map((r) => r.transaction_id);
    expect(await eventually(keysOf, (ids) => ids.length === 1)).toEqual([live.transaction!.id]);
  });

  it('an instruction executes once: a second key is InstructionAlreadyExecuted', async () => {
    const tenantId = tenant();
    const instructionId = await newInstruction(world, tenantId, 1800n);
    await world.client.executeInstruction(executeRequest(tenantId, instructionId));
    const err = await failure(world.client.executeInstruction(executeRequest(tenantId, instructionId)));
    expect(err.code).toBe(Code.AlreadyExists);
    expect(readErrorDetail(err)).toMatchObject({
      tag: 'InstructionAlreadyExecuted',
      field: 'instruction_id',
    });
  });

  it('refuses a bad payer naming the field, and an unknown or foreign instruction', async () => {
    const tenantId = tenant();
    const instructionId = await newInstruction(world, tenantId, 1900n);
    const bad = await failure(
      world.client.executeInstruction(
        executeRequest(tenantId, instructionId, {
          payer: { name: 'Ana', account: '1', taxId: '123.456.789-00', country: 'BR' },
        }),
      ),
    );
    expect(readErrorDetail(bad)).toMatchObject({ tag: 'ValidationError', field: 'payer_tax_id' });
    for (const [who, id] of [
      [tenant(), instructionId],
      [tenantId, newId('ins')],
    ] as const) {
      const err = await failure(world.client.executeInstruction(executeRequest(who, id)));
      expect(readErrorDetail(err)).toMatchObject({ tag: 'NotFoundError', field: 'instruction_id' });
    }
    const missingKey = await failure(
      world.client.executeInstruction(executeRequest(tenantId, instructionId, { idempotencyKey: '' })),
    );
    expect(readErrorDetail(missingKey)?.tag).toBe('IdempotencyKeyMissing');
    // Nothing was written by the refusals.
    const { rows } = await world.admin.query(
      `SELECT count(*)::int AS n FROM "${world.schema}".transactions WHERE instruction_id = $1`,
      [instructionId],
    );
    expect(rows[0].n).toBe(0);
  });

  describe('with an FX quote', () => {
    async function quotedInstruction(tenantId: string, amountMinor: bigint) {
      const { quote } = await world.fxClient.createQuote({
        tenantId,
        sourceCurrency: 'USD',
        target: { currency: 'BRL', amountMinor },
      });
      const { instruction } = await world.client.createInstruction({
        tenantId,
        decoded: pixQr(amountMinor),
        amount: { currency: 'BRL', amountMinor },
        quote,
      });
      return { quoteId: quote!.id, instructionId: instruction!.id };
    }

    it('confirms the quote for the transaction at execute', async () => {
      const tenantId = tenant();
      const { quoteId, instructionId } = await quotedInstruction(tenantId, 2000n);
      const { transaction } = await world.client.executeInstruction(executeRequest(tenantId, instructionId));
      expect(transaction?.status).toBe(TransactionStatus.COMPLETED);
      expect(transaction?.payAmount?.currency).toBe('USD');
      const { quote } = await world.fxClient.getQuote({ tenantId, quoteId });
      expect(quote?.status).toBe(QuoteStatus.CONFIRMED);
      const { rows } = await world.admin.query(
        `SELECT consumer_id FROM "${world.fxSchema}".quotes WHERE id = $1`,
        [quoteId],
      );
      expect(rows[0].consumer_id).toBe(transaction?.id);
    });

    it('an expired quote is QuoteExpired and leaves nothing behind; the key stays usable', async () => {
      const tenantId = tenant();
      const { quoteId, instructionId } = await quotedInstruction(tenantId, 2100n);
      await world.admin.query(
        `UPDATE "${world.fxSchema}".quotes
            SET created_at = now() - interval '10 minutes', expires_at = now() - interval '1 minute'
          WHERE id = $1`,
        [quoteId],
      );
      const request = executeRequest(tenantId, instructionId);
      const err = await failure(world.client.executeInstruction(request));
      expect(err.code).toBe(Code.FailedPrecondition);
      expect(readErrorDetail(err)).toMatchObject({ tag: 'QuoteExpired' });
      const { rows } = await world.admin.query(
        `SELECT (SELECT count(*)::int FROM "${world.schema}".transactions WHERE instruction_id = $1) AS txns,
                (SELECT count(*)::int FROM "${world.schema}".idempotency_keys WHERE tenant_id = $2) AS keys`,
        [instructionId, tenantId],
      );
      expect(rows[0]).toEqual({ txns: 0, keys: 0 });
      // A retry with the same key is answered the same way, not replayed from a frozen error.
      expect(readErrorDetail(await failure(world.client.executeInstruction(request)))?.tag).toBe(
        'QuoteExpired',
      );
    });
  });

  describe('ApplyPartnerCallback', () => {
    it('NotFound for an unknown transaction', async () => {
      const err = await failure(
        world.client.applyPartnerCallback(
          partnerCallback('pix', { transactionId: newId('txn'), status: 'ACSC' }),
        ),
      );
      expect(err.code).toBe(Code.NotFound);
    });

    it('a callback for a terminal transaction is a no-op success', async () => {
      const tenantId = tenant();
      const instructionId = await newInstruction(world, tenantId, 2200n);
      const { transaction } = await world.client.executeInstruction(executeRequest(tenantId, instructionId));
      expect(transaction?.status).toBe(TransactionStatus.COMPLETED);
      // The partner repeats its callback with another status: its own payout id, as stored.
      const { rows } = await world.admin.query<{ partner_payout_id: string }>(
        `SELECT partner_payout_id FROM "${world.schema}".transactions WHERE id = $1`,
        [transaction!.id],
      );
      const again = await world.client.applyPartnerCallback(
        partnerCallback('pix', {
          transactionId: transaction!.id,
          partnerPayoutId: rows[0]!.partner_payout_id,
          status: 'RJCT',
          reasonCode: 'AC03',
        }),
      );
      // The stored row, unchanged; the callback answer (read by nobody but the gateway, which only
      // acknowledges) does not add the instruction's facts the public reads show.
      expect(again.transaction).toEqual({
        ...transaction,
        country: '',
        creditor: undefined,
        quote: undefined,
      });
      expect(await outboxEvents(world, transaction!.id)).toEqual(['transaction.completed']);
    });

    it('while execute holds the acceptance, a callback naming another partner payout is refused', async () => {
      // 54: the partner accepts, then calls back 700 ms later; the acceptance is held in memory
      // (the row stays pending, no partner id stored) while the call waits.
      const tenantId = tenant();
      const instructionId = await newInstruction(world, tenantId, 454n);
      const executing = world.client.executeInstruction(
        executeRequest(tenantId, instructionId, { waitMs: 1_200 }),
      );
      const transactionId = await eventually(
        async () =>
          (
            await world.admin.query<{ id: string }>(
              `SELECT id FROM "${world.schema}".transactions WHERE instruction_id = $1`,
              [instructionId],
            )
          ).rows[0]?.id,
        (id) => id !== undefined,
      );
      await eventually(
        () => simStats(world),
        (stats) => stats.submissions[transactionId!] === 1,
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      const forged = await failure(
        world.client.applyPartnerCallback(
          partnerCallback('pix', {
            transactionId: transactionId!,
            partnerPayoutId: 'pp_forged',
            status: 'ACSC',
          }),
        ),
      );
      expect(readErrorDetail(forged)).toMatchObject({ tag: 'ValidationError', field: 'partner_payout_id' });
      // The partner's own callback still settles it, once.
      const { transaction } = await executing;
      expect(transaction?.status).toBe(TransactionStatus.COMPLETED);
      expect(await outboxEvents(world, transactionId!)).toEqual(['transaction.completed']);
    });

    it('refuses a callback for another rail, an unknown status, or a body that is not a payout', async () => {
      const tenantId = tenant();
      const instructionId = await newInstruction(world, tenantId, 454n);
      const { transaction } = await world.client.executeInstruction(
        executeRequest(tenantId, instructionId, { waitMs: 1 }),
      );
      const wrongRail = await failure(
        world.client.applyPartnerCallback(
          partnerCallback('bre-b', { transactionId: transaction!.id, status: 'ACSC' }),
        ),
      );
      expect(readErrorDetail(wrongRail)).toMatchObject({ tag: 'ValidationError', field: 'rail' });
      // The body names another rail than the path it came to.
      const mismatch = await failure(
        world.client.applyPartnerCallback(
          partnerCallback('pix', { transactionId: transaction!.id, status: 'ACSC', resourceRail: 'bre-b' }),
        ),
      );
      expect(readErrorDetail(mismatch)).toMatchObject({ tag: 'ValidationError', field: 'rail' });
      const badStatus = await failure(
        world.client.applyPartnerCallback(
          partnerCallback('pix', { transactionId: transaction!.id, status: 'DONE' }),
        ),
      );
      expect(readErrorDetail(badStatus)).toMatchObject({ tag: 'ValidationError', field: 'payload' });
      const notJson = await failure(
        world.client.applyPartnerCallback({ rail: 'pix', payload: Buffer.from('{"id":') }),
      );
      expect(readErrorDetail(notJson)).toMatchObject({ tag: 'ValidationError', field: 'payload' });
    });
  });

  it('resumes a transaction whose process died after the pending commit (worker submits it)', async () => {
    const tenantId = tenant();
    const instructionId = await newInstruction(world, tenantId, 2300n);
    const transactionId = newId('txn');
    // Phase 1 of execute as it commits, with no submission after it and the lease already over.
    await world.admin.query(
      `INSERT INTO "${world.schema}".transactions (id, tenant_id, instruction_id, scheme_id, rail, status,
         amount_currency, amount_minor, pay_currency, pay_amount_minor, payer_name, payer_account,
         payer_tax_id, next_poll_at)
       VALUES ($1, $2, $3, 'BR.PIX', 'pix', 'pending', 'BRL', 2300, 'BRL', 2300, 'Ana Souza', '1',
         '12345678909', now())`,
      [transactionId, tenantId, instructionId],
    );
    const settled = await eventually(
      () => transactionOf(tenantId, transactionId),
      (t) => t.status === TransactionStatus.COMPLETED,
    );
    expect(settled.status).toBe(TransactionStatus.COMPLETED);
    expect((await simStats(world)).submissions[transactionId]).toBe(1);
    expect(await outboxEvents(world, transactionId)).toEqual(['transaction.completed']);
  });
});
