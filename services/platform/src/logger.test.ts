import { Writable } from 'node:stream';
import { requestContext } from './context';
import { createLogger, REDACTED } from './logger';

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

  it('survives circular objects', () => {
    const { lines, logger } = capture();
    const loop: Record<string, unknown> = { name: 'loop' };
    loop['self'] = loop;
    logger.info({ loop }, 'circular');
    expect((lines[0]!['loop'] as Record<string, unknown>)['self']).toBe('[Circular]');
  });
});
