import { Writable } from 'node:stream';
import { requestContext } from './context';
import { createLogger } from './logger';

// What a redacted value reads as in a log line (README "Logs").
const REDACTED = '[REDACTED]';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger({ service: 'test', level: 'debug', destination }) };
}

describe('createLogger', () => {
  it('writes JSON lines with time, level, service and msg', () => {
    const { lines, logger } = capture();
    logger.info({ amount_minor: 1234 }, 'quoted');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'info', service: 'test', msg: 'quoted', amount_minor: 1234 });
    expect(typeof lines[0]!['time']).toBe('string');
    expect(lines[0]).not.toHaveProperty('request_id');
  });

  it('adds the request id of the current request context', () => {
    const { lines, logger } = capture();
    requestContext.run({ requestId: 'req_abc' }, () => logger.info('inside'));
    logger.info('outside');
    expect(lines[0]!['request_id']).toBe('req_abc');
    expect(lines[1]).not.toHaveProperty('request_id');
  });

  it('redacts sensitive keys at any depth, in bindings and in errors', () => {
    const { lines, logger } = capture();
    const child = logger.child({ apiKey: 'sk_live_child' });
    const err = Object.assign(new Error('boom'), { authorization: 'Bearer abc' });
    child.warn(
      {
        api_key: 'sk_live_1',
        request: {
          headers: { Authorization: 'Bearer xyz', 'x-api-key': 'sk_live_2', accept: 'json' },
          body: { payer: { tax_id: '12345678909', name: 'Ana' }, items: [{ signing_secret: 's3' }] },
        },
        creditor: { account: '0001-234', account_type: 'PIX_KEY' },
        password: 'pw',
        cause: 'connect to postgres://svc:pg-pass@db:5432/app failed',
        accountNumber: '999',
        webhook: { signature: 't=1,v1=ff' },
        err,
      },
      'call',
    );
    const text = JSON.stringify(lines);
    for (const secret of [
      'sk_live_1',
      'sk_live_2',
      'sk_live_child',
      'Bearer',
      '12345678909',
      's3"',
      '0001-234',
      '999',
      't=1,v1=ff',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(lines[0]).toMatchObject({
      apiKey: REDACTED,
      request: {
        headers: { accept: 'json' },
        body: { payer: { tax_id: REDACTED, name: 'Ana' }, items: [{ signing_secret: REDACTED }] },
      },
      creditor: { account: REDACTED, account_type: 'PIX_KEY' },
      err: { message: 'boom', authorization: REDACTED },
      cause: `connect to postgres://svc:${REDACTED}@db:5432/app failed`,
    });
  });

  it("redacts the payer's identity document under every key it travels under", () => {
    const { lines, logger } = capture();
    logger.info(
      {
        // The partner protocol's originator (a rail adapter's submission body).
        debtor: {
          name: 'Juan Perez',
          account: '0001-1234567',
          residency: 'non_resident',
          document: { type: 'tax_id', number: '20-12345678-6', issuing_country: 'AR' },
        },
        // Payout's transaction row and proto fields.
        row: { payer_tax_id: '20123456786', payer_country: 'AR', payer_id_type: 'tax_id', country: 'BR' },
        payer: { taxId: '20123456786', country: 'AR', idType: 'tax_id' },
        request: { payerTaxId: '20123456786', payerCountry: 'AR', payerIdType: 'tax_id' },
      },
      'submitting',
    );
    expect(lines[0]).toMatchObject({
      debtor: { name: 'Juan Perez', account: REDACTED, residency: 'non_resident', document: REDACTED },
      row: { payer_tax_id: REDACTED, payer_country: REDACTED, payer_id_type: REDACTED, country: 'BR' },
      payer: { taxId: REDACTED, country: 'AR', idType: REDACTED },
      request: { payerTaxId: REDACTED, payerCountry: REDACTED, payerIdType: REDACTED },
    });
    expect(JSON.stringify(lines[0])).not.toContain('12345678');
  });

  it('keeps keys that only resemble the identity keys', () => {
    const { lines, logger } = capture();
    const kept = {
      documents: 'd',
      document_count: 2,
      country: 'BR',
      rail: 'pix',
      type: 't',
      payer_name: 'Ana',
    };
    logger.info(kept, 'lookalikes');
    expect(lines[0]).toMatchObject(kept);
  });

  it('survives circular objects', () => {
    const { lines, logger } = capture();
    const loop: Record<string, unknown> = { name: 'loop' };
    loop['self'] = loop;
    logger.info({ loop }, 'circular');
    expect((lines[0]!['loop'] as Record<string, unknown>)['self']).toBe('[Circular]');
  });
});
